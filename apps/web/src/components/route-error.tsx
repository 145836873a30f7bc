import { Link, isRouteErrorResponse, useRouteError } from 'react-router';
import { PageHead } from './page-head';
import { StatusMessage } from './status';

/**
 * What a route shows when its screen fails to load or throws while drawing: a plain message and
 * a way on, never React Router's default page with a stack trace (which could show data).
 * "Try again" reloads the page: a screen's code that failed to download stays failed in the
 * browser's module map until then, and a reload keeps the session and the survey position.
 */
export function RouteError() {
  const error = useRouteError();
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  return (
    <>
      <PageHead title={notFound ? 'Page not found' : 'Something went wrong'} />
      <StatusMessage
        title={notFound ? 'This page does not exist' : 'This page could not be shown'}
        action={
          <>
            <button
              type="button"
              className="button button--primary"
              onClick={() => window.location.reload()}
            >
              Try again
            </button>
            <Link to="/" className="button">
              Back to all surveys
            </Link>
          </>
        }
      >
        <p>
          {notFound
            ? 'Maybe the link is old, or a letter went missing.'
            : 'Something went wrong while loading or showing it, perhaps a dropped connection. Answers you already gave are kept.'}
        </p>
      </StatusMessage>
    </>
  );
}
