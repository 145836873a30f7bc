/** A list is loading: a quiet placeholder of the list's height. */
export function ListLoading({ label }: { label: string }) {
  return <div className="admin-loading" aria-busy="true" aria-label={label} />;
}

/** A list could not be loaded: say so, and offer to try again. */
export function ListError({ what, onRetry }: { what: string; onRetry: () => void }) {
  return (
    <div className="notice notice--error admin-error" role="alert">
      <p>{what} could not be loaded. Check your connection and try again.</p>
      <button type="button" className="button" onClick={onRetry}>
        Try again
      </button>
    </div>
  );
}
