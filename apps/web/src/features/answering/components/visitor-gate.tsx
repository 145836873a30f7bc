import { Link } from 'react-router';

/** A visitor who answered the free questions: sign up (or log in) to go on and be counted. */
export function VisitorGate({ answered, total }: { answered: number; total: number }) {
  return (
    <section className="gate" aria-labelledby="gate-title">
      <h1 id="gate-title">Sign up to go on</h1>
      <p className="gate__lead">
        You answered {answered} of {total} questions. They are saved on this device, not counted
        yet: Candor counts only verified people, so bots cannot distort the results.
      </p>
      <ul className="welcome-list">
        <li>
          It takes a phone number and a code we text you. Staff see it masked, and reveal it only
          for a reason they record.
        </li>
        <li>
          Once you're in, we ask before adding your answers so far to your account; then they are
          counted once.
        </li>
        <li>Then you come straight back to the next question.</li>
      </ul>
      <div className="gate__actions">
        <Link to="/signup" className="button button--primary button--large">
          Sign up and go on
        </Link>
        <Link to="/login" className="button button--large">
          I have an account
        </Link>
      </div>
    </section>
  );
}
