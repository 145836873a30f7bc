import { Suspense, lazy } from 'react';
import { Link, NavLink, Outlet, ScrollRestoration, useNavigate } from 'react-router';
import { successToast } from '../lib/toasts';
import { useAuthStore } from '../lib/auth-store';
import { useLocalAnswers } from '../lib/local-answers';
import { Logo } from './logo';
import { NavigationTracker } from './navigation-tracker';
import { useForgetThisDevice } from './forget-device';

const ClaimDialog = lazy(() => import('./claim-dialog').then((m) => ({ default: m.ClaimDialog })));

function AccountLinks() {
  const auth = useAuthStore((s) => s.auth);
  const role = useAuthStore((s) => s.user?.role);
  const logout = useAuthStore((s) => s.logout);
  const navigate = useNavigate();
  // Held tokens show a member's links at once (Admin follows the loaded user); a session that
  // cannot be restored turns them back into a visitor's.
  if (auth) {
    return (
      <>
        {role === 'moderator' || role === 'admin' ? (
          <NavLink to="/admin" className="navbar__admin">
            Admin
          </NavLink>
        ) : null}
        <NavLink to="/me">My mirror</NavLink>
        <button
          type="button"
          className="navbar__button"
          onClick={() => {
            void logout().then(() => {
              successToast('Logged out');
              void navigate('/');
            });
          }}
        >
          Log out
        </button>
      </>
    );
  }
  return (
    <>
      <NotMyDevice />
      <NavLink to="/login">Log in</NavLink>
      <Link to="/signup" className="navbar__cta">
        Sign up
      </Link>
    </>
  );
}

/** A visitor whose answers this browser keeps can clear them (a shared device). */
function NotMyDevice() {
  const kept = useLocalAnswers((s) => s.visitorAnswers);
  const forget = useForgetThisDevice();
  if (kept === 0) return null;
  return (
    <button
      type="button"
      className="navbar__button navbar__forget"
      title="Clear the answers and the survey place this browser keeps"
      onClick={forget}
    >
      Not my device
    </button>
  );
}

/** A person who logged in is asked whether the answers given here before are theirs. */
function Claim() {
  const auth = useAuthStore((s) => s.auth);
  const offered = useLocalAnswers((s) => s.offered);
  if (!auth || offered === 0) return null;
  return (
    <Suspense fallback={null}>
      <ClaimDialog />
    </Suspense>
  );
}

export function Layout() {
  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="navbar">
        <div className="navbar__inner">
          <Link to="/" className="navbar__brand" aria-label="Candor home">
            <Logo />
            <span>Candor</span>
          </Link>
          <nav aria-label="Main" className="navbar__links">
            <NavLink to="/" end className="navbar__surveys">
              Surveys
            </NavLink>
            <AccountLinks />
          </nav>
        </div>
      </header>
      <main id="main" className="main">
        <Outlet />
      </main>
      <footer className="footer">
        <p>
          Candor · answers are anonymous unless you choose otherwise · every signup is verified
          human · <Link to="/privacy">Privacy</Link>
        </p>
      </footer>
      <Claim />
      <NavigationTracker />
      <ScrollRestoration />
    </div>
  );
}
