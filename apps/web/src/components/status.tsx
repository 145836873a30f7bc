import { Link } from 'react-router';

/** A friendly full-width message with a way out, for errors and empty pages. */
export function StatusMessage({
  title,
  children,
  action,
}: {
  title: string;
  children?: React.ReactNode;
  action?: React.ReactNode;
}) {
  return (
    <section className="status" aria-live="polite">
      <h1>{title}</h1>
      {children ? <div className="status__text">{children}</div> : null}
      <div className="status__actions">
        {action ?? (
          <Link to="/" className="button">
            Back to all surveys
          </Link>
        )}
      </div>
    </section>
  );
}
