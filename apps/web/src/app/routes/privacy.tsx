import { PageHead } from '../../components/page-head';
import { useAuthStore } from '../../lib/auth-store';
import './privacy.css';

interface Fact {
  q: string;
  a: string;
}

// The spec's privacy list, in its two variants, kept true by the code: the web sets no cookie at
// all (sessions live in localStorage), page views carry no id, IP or cookie, and answers are
// carried by an anonymous credential, never the account, with the day only.
const shared: Fact[] = [
  {
    q: 'Do you store my IP address?',
    a: 'Only as a keyed hash: for 24 hours, to stop mass signups and to limit texts and login attempts from one address; for a minute, to limit how fast one address reports page views or, logged out, reads results. It is never stored next to your answers.',
  },
  {
    q: 'Do you use analytics?',
    a: 'Yes, our own: which screens are opened, counted per day, to understand demographics and improve the experience. No identifier, no cookie, no third party.',
  },
  {
    q: 'Do you record my session or use heatmaps?',
    a: 'No. We do not record sessions and we do not use heatmaps.',
  },
  {
    q: 'Can anyone work out my answer from the results?',
    a: 'No one can be sure of it, not even our staff. Every number in the results is blurred with a little random noise, released in a few updates as more people answer, and each answer counts in at most two of them. That is differential privacy, and we state the bound: epsilon 4.1 per person and question over its whole life (4.7 for written answers, delta one in a billion). Small groups are not shown, and nobody can replay your answer by suspending or re-adding accounts.',
  },
  {
    q: 'What about questions people would rather not answer truthfully?',
    a: 'Some questions are marked “Private even from us”. On those, before your answer leaves your phone, the phone rolls a die and sometimes sends another answer instead of yours; your own answer stays on your devices and in your encrypted vault, for your mirror. The question says how often, and how sure anyone could be of your answer without other clues (for example, at most 75%). Nobody, Candor included, can know what you chose, even holding everything we store; the results estimate the true shares from many answers and say so, with wider margins. Leaving a question blank is never swapped.',
  },
  {
    q: 'What if I share this device?',
    a: 'Answers given before logging in belong to that browser tab alone: whoever logs in there is asked before they are added to an account, once the tab is closed they are never sent and are deleted the next time Candor opens in that browser, and logging out or "This is not my device" (on the login screen) deletes them at once.',
  },
  { q: 'Do you sell my data?', a: 'No. Never.' },
  {
    q: 'Is there third-party tracking?',
    a: 'No. No advertising or tracking scripts run on Candor. Video questions hosted on YouTube or Vimeo load their player only when you answer such a question.',
  },
  {
    q: 'Do you watch me through my camera or microphone?',
    a: 'No. Candor never asks for your camera or microphone.',
  },
];

const loggedOut: Fact[] = [
  {
    q: 'Do you track me with cookies?',
    a: 'No. Candor sets no cookies while you are logged out.',
  },
  {
    q: 'Do you store my year of birth, phone number, country or gender?',
    a: 'Not while you are logged out. Answers you give before signing up stay on your device until you sign up.',
  },
  ...shared,
];

const loggedIn: Fact[] = [
  {
    q: 'Do you use cookies?',
    a: 'Only what logging in needs: your session is kept in your browser’s storage so you stay logged in. Nothing else.',
  },
  {
    q: 'Do you store my year of birth, phone number, country and gender?',
    a: 'Yes, in two places that never meet. Your account holds your phone number (it proves you are one real person), your name if you gave one, and your country. The number and name are encrypted with a key of their own, kept apart from the database: deleting your account destroys that key, so not even our backups can show them again. Candor staff see your number masked (its country code and last 3 digits); they see it whole only when they search for exactly that number or reveal it for a reason the audit log records. Your year of birth and gender are stored on your devices and in your vault, which is encrypted with a key only your devices have: never next to your account. Your answers are stored with an anonymous credential Candor cannot tie to your account, next to your age band, gender and country only in encrypted form, with the day only, never the time.',
  },
  ...shared,
];

export function PrivacyRoute() {
  const auth = useAuthStore((s) => s.auth);
  const facts = auth ? loggedIn : loggedOut;
  return (
    <article className="privacy">
      <PageHead
        title="Privacy"
        description="What Candor stores about you, and what it never does."
      />
      <h1>Privacy, plainly</h1>
      <p className="privacy__lead">
        {auth
          ? 'You are logged in. This is what Candor keeps about you, and what it never does.'
          : 'You are not logged in. This is what Candor keeps about you, and what it never does.'}
      </p>
      <dl className="privacy__list">
        {facts.map((f) => (
          <div key={f.q} className="privacy__item">
            <dt>{f.q}</dt>
            <dd>{f.a}</dd>
          </div>
        ))}
      </dl>
    </article>
  );
}
