import type { PageQuery } from '@candor/contracts';

/** `next` / `previous` links of a paged list, absolute, keeping the caller's page size. */
export function pageLinks(
  listUrl: string,
  page: PageQuery,
  total: number,
): { next: string | null; previous: string | null } {
  const link = (n: number) => {
    const url = new URL(listUrl);
    url.searchParams.set('page', String(n));
    url.searchParams.set('page_size', String(page.page_size));
    return url.toString();
  };
  const lastPage = Math.max(1, Math.ceil(total / page.page_size));
  return {
    next: page.page < lastPage ? link(page.page + 1) : null,
    previous: page.page > 1 ? link(Math.min(page.page - 1, lastPage)) : null,
  };
}
