import { createBrowserRouter } from 'react-router';
import { Layout } from '../components/layout';
import { RouteError } from '../components/route-error';
import { HomeRoute } from './routes/home';
import { NotFoundRoute } from './routes/not-found';
import { ShareLinkRoute } from './routes/share-link';

// The survey screens load on demand: they bring the answering flow and the browser database.
const surveyRoute = () => import('./routes/survey').then((m) => ({ Component: m.SurveyRoute }));
const privacyRoute = () => import('./routes/privacy').then((m) => ({ Component: m.PrivacyRoute }));
// The mirror loads on demand: members only, with the account forms it needs.
const meRoute = () =>
  import('../features/mirror/components/mirror-screen').then((m) => ({
    Component: m.MirrorScreen,
  }));
// The staff area loads on demand: members and visitors never download it.
const adminModule = () => import('./routes/admin');
const admin = {
  shell: () => adminModule().then((m) => ({ Component: m.AdminRoute })),
  index: () => adminModule().then((m) => ({ Component: m.AdminIndexRoute })),
  adminsOnly: () => adminModule().then((m) => ({ Component: m.AdminsOnlyRoute })),
  signups: () => adminModule().then((m) => ({ Component: m.AdminSignupsRoute })),
  answers: () => adminModule().then((m) => ({ Component: m.AdminAnswersRoute })),
  passkeys: () => adminModule().then((m) => ({ Component: m.AdminPasskeysRoute })),
  surveys: () => adminModule().then((m) => ({ Component: m.AdminSurveysRoute })),
  newSurvey: () => adminModule().then((m) => ({ Component: m.AdminNewSurveyRoute })),
  survey: () => adminModule().then((m) => ({ Component: m.AdminSurveyRoute })),
  preview: () => adminModule().then((m) => ({ Component: m.AdminSurveyPreviewRoute })),
  genres: () => adminModule().then((m) => ({ Component: m.AdminGenresRoute })),
  users: () => adminModule().then((m) => ({ Component: m.AdminUsersRoute })),
  auditLog: () => adminModule().then((m) => ({ Component: m.AdminAuditLogRoute })),
  results: () => adminModule().then((m) => ({ Component: m.AdminResultsRoute })),
  analytics: () => adminModule().then((m) => ({ Component: m.AdminAnalyticsRoute })),
  apiTokens: () => adminModule().then((m) => ({ Component: m.AdminApiTokensRoute })),
  webhooks: () => adminModule().then((m) => ({ Component: m.AdminWebhooksRoute })),
};

// Account screens load on demand: they bring the form library and the contract's zod schemas.
const account = {
  login: () =>
    import('../features/auth/components/login-screen').then((m) => ({ Component: m.LoginScreen })),
  signup: () =>
    import('../features/auth/components/signup-screen').then((m) => ({
      Component: m.SignupScreen,
    })),
  verify: () =>
    import('../features/auth/components/verify-screen').then((m) => ({
      Component: m.VerifyScreen,
    })),
  setPassword: () =>
    import('../features/auth/components/set-password-screen').then((m) => ({
      Component: m.SetPasswordScreen,
    })),
  welcome: () =>
    import('../features/auth/components/welcome-screen').then((m) => ({
      Component: m.WelcomeScreen,
    })),
  // Staff only: the second step of their login (and the QR encoder, loaded by its enrolment).
  secondFactor: () =>
    import('../features/auth/components/second-factor-screen').then((m) => ({
      Component: m.SecondFactorScreen,
    })),
  // Staff, once: a passkey offered right after the authenticator app was set up.
  passkeyOffer: () =>
    import('../features/auth/components/passkey-offer-screen').then((m) => ({
      Component: m.PasskeyOfferScreen,
    })),
  forgot: () =>
    import('../features/auth/components/forgot-password-screen').then((m) => ({
      Component: m.ForgotPasswordScreen,
    })),
};

export const router = createBrowserRouter([
  {
    element: <Layout />,
    // Shown while a lazily loaded screen arrives on the very first page load.
    HydrateFallback: () => <div className="page-loading" aria-busy="true" />,
    // The shell itself failing (rare): the message alone, without the navbar.
    errorElement: <RouteError />,
    children: [
      {
        // Any screen failing: a friendly message inside the shell, with a retry.
        errorElement: <RouteError />,
        children: [
          { path: '/', element: <HomeRoute /> },
          { path: '/surveys/:surveyId', lazy: surveyRoute },
          { path: '/privacy', lazy: privacyRoute },
          { path: '/me', lazy: meRoute },
          {
            path: '/admin',
            lazy: admin.shell,
            children: [
              { index: true, lazy: admin.index },
              { path: 'signups', lazy: admin.signups },
              { path: 'answers', lazy: admin.answers },
              { path: 'passkeys', lazy: admin.passkeys },
              {
                // The admins' tabs: one guard for all of them.
                lazy: admin.adminsOnly,
                children: [
                  { path: 'surveys', lazy: admin.surveys },
                  { path: 'surveys/new', lazy: admin.newSurvey },
                  { path: 'surveys/:gid', lazy: admin.survey },
                  { path: 'surveys/:gid/preview', lazy: admin.preview },
                  { path: 'genres', lazy: admin.genres },
                  { path: 'users', lazy: admin.users },
                  { path: 'audit-log', lazy: admin.auditLog },
                  { path: 'results', lazy: admin.results },
                  { path: 'analytics', lazy: admin.analytics },
                  { path: 'api-tokens', lazy: admin.apiTokens },
                  { path: 'webhooks', lazy: admin.webhooks },
                ],
              },
            ],
          },
          { path: '/login', lazy: account.login },
          { path: '/login/code', lazy: account.secondFactor },
          { path: '/login/passkey', lazy: account.passkeyOffer },
          { path: '/signup', lazy: account.signup },
          { path: '/verify', lazy: account.verify },
          { path: '/set-password', lazy: account.setPassword },
          { path: '/welcome', lazy: account.welcome },
          { path: '/forgot-password', lazy: account.forgot },
          // Share links: /{Survey_name_with_underscores}/{gid}.
          { path: '/:surveyName/:gid', element: <ShareLinkRoute /> },
          { path: '*', element: <NotFoundRoute /> },
        ],
      },
    ],
  },
]);
