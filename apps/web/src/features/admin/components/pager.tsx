/** Previous / Next under a paged list (the API's `{count, next, previous}`), with where it is. */
export function Pager({
  page,
  list,
  pageSize = 20,
  onPage,
  label,
}: {
  page: number;
  /** The current page of the list; nothing is shown until it arrives. */
  list: { count: number; next: string | null; previous: string | null } | undefined;
  pageSize?: number;
  onPage: (page: number) => void;
  /** What is paged, for the navigation's name: "Signups pages". */
  label: string;
}) {
  if (!list) return null;
  const hasPrevious = list.previous !== null;
  const hasNext = list.next !== null;
  const pages = Math.max(1, Math.ceil(list.count / pageSize));
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
