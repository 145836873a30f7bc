import { REVIEW_REASON_WORDS, type ReviewReason } from '@candor/contracts';
import { Link, Navigate } from 'react-router';
import { AuthCard } from '../../../components/form';
import { PageHead } from '../../../components/page-head';
import { useAuthStore } from '../../../lib/auth-store';
import { useLocalAnswers } from '../../../lib/local-answers';
import { afterLoginPath } from '../../../lib/survey-storage';
import '../styles/auth.css';

/** Why a held signup waits, in plain words: "...because your number is of a kind that...". */
function heldBecause(reasons: readonly ReviewReason[]): string {
  const words = reasons.map((r) => REVIEW_REASON_WORDS[r]);
  if (!words.length) return 'A person will look at your signup shortly, as we do for some signups.';
  const listed =
    words.length === 1 ? words[0] : `${words.slice(0, -1).join(', ')} and ${words.at(-1)}`;
  return `A person will look at your signup shortly, because ${listed}.`;
}

/** The after-verification screen. */
export function WelcomeScreen() {
  const user = useAuthStore((s) => s.user);
  const auth = useAuthStore((s) => s.auth);
  const initialLoading = useAuthStore((s) => s.initialLoading);
  // Discarding the answers given here before (the claim question) forgets their survey place:
  // the way back is read again once it is answered.
  useLocalAnswers((s) => s.version);
  if (!initialLoading && !auth) return <Navigate to="/login" replace />;
  const next = afterLoginPath();
  return (
    <AuthCard
      title={user?.name ? `You're verified, ${user.name}` : "You're verified"}
      lead={
        <p>
          {user?.status === 'under_review'
            ? 'Welcome to Candor. Your number is verified.'
            : 'Welcome to Candor. You are now counted as a real person.'}
        </p>
      }
    >
      <PageHead title="You're verified" />
      {user?.status === 'under_review' ? (
        <div className="notice notice--review" role="status">
          <p>{heldBecause(user.review_reasons ?? [])}</p>
          <p>
            It protects the results from people who sign up many times. You can answer right away;
            your answers count in the results once it is approved.
          </p>
        </div>
      ) : null}
      <ul className="welcome-list">
        <li>Your answers carry no account: nobody, not even Candor, can tie them to you.</li>
        <li>After each answer you see where you stand against everyone else.</li>
        <li>You can download or delete everything about you at any time.</li>
      </ul>
      <Link to={next} className="button button--primary button--block">
        {next === '/' ? 'Explore the surveys' : 'Back to your survey'}
      </Link>
    </AuthCard>
  );
}
