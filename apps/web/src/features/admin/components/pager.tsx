/** Previous / Next under a paged list, with where the operator is. */
export function Pager({
  page,
  count,
  pageSize = 20,
  hasPrevious,
  hasNext,
  onPage,
  label,
}: {
  page: number;
  count: number;
  pageSize?: number;
  hasPrevious: boolean;
  hasNext: boolean;
  onPage: (page: number) => void;
  /** What is paged, for the navigation's name: "Signups pages". */
  label: string;
}) {
  const pages = Math.max(1, Math.ceil(count / pageSize));
  if (!hasPrevious && !hasNext) return null;
  return (
    <nav className="pager" aria-label={label}>
      <button
        type="button"
        className="button"
        disabled={!hasPrevious}
        onClick={() => onPage(page - 1)}
      >
        Previous
      </button>
      <span className="pager__where" aria-live="polite">
        Page {page} of {pages}
      </span>
      <button type="button" className="button" disabled={!hasNext} onClick={() => onPage(page + 1)}>
        Next
      </button>
    </nav>
  );
}
