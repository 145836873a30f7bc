import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { PageHead } from '../../../components/page-head';
import { ListError, ListLoading } from './list-states';
import { Pager } from './pager';

/** One page of a paged list, as the API sends it (`{count, next, previous, results}`). */
export interface PagedList<T> {
  count: number;
  next: string | null;
  previous: string | null;
  results: T[];
}

/** One column of a list's table. */
export interface Column<T> {
  /** The column's name: its header, and the cell's label when rows become cards on a phone. */
  header: string;
  /** The header is read out but not shown, and the cell has no card label (a row's buttons). */
  hideHeader?: boolean;
  /** This cell names the row: it is the row's header. */
  rowHeader?: boolean;
  className?: string;
  cell: (row: T) => ReactNode;
}

/** A paged list rendered as the staff table, one row per item. */
export function ListTable<T>({
  rows,
  columns,
  rowKey,
  stale,
  className,
}: {
  rows: T[];
  columns: Array<Column<T>>;
  rowKey: (row: T) => string | number;
  /** The rows are the previous page's while the next one loads. */
  stale: boolean;
  /** A modifier of the table (`admin-table--log`). */
  className?: string;
}) {
  return (
    <table
      className={`admin-table${className ? ` ${className}` : ''}${stale ? ' admin-table--stale' : ''}`}
      aria-busy={stale}
    >
      <thead>
        <tr>
          {columns.map((column) => (
            <th key={column.header} scope="col">
              {column.hideHeader ? (
                <span className="visually-hidden">{column.header}</span>
              ) : (
                column.header
              )}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={rowKey(row)}>
            {columns.map((column) => {
              const label = column.hideHeader ? undefined : column.header;
              return column.rowHeader ? (
                <th key={column.header} scope="row" data-label={label} className={column.className}>
                  {column.cell(row)}
                </th>
              ) : (
                <td key={column.header} data-label={label} className={column.className}>
                  {column.cell(row)}
                </td>
              );
            })}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/**
 * A staff list panel: title and count, lead and filters, then the error, loading or empty state
 * or the list itself, and the pager. Every paged staff list is one of these.
 */
export function ListPanel<T>({
  id,
  title,
  count,
  lead,
  filters,
  query,
  what,
  loadingLabel,
  empty,
  children,
  pagerLabel,
  page,
  onPage,
  after,
}: {
  /** The heading's id, which names the section. */
  id: string;
  title: string;
  /** "3 accounts waiting": shown once the count is known and above zero. */
  count: (count: number) => string;
  lead?: ReactNode;
  /** Between the lead and the list: a search form, a status filter. */
  filters?: ReactNode;
  query: UseQueryResult<PagedList<T>>;
  /** What failed to load, as the start of a sentence: "The signups". */
  what: string;
  loadingLabel: string;
  empty: { title: ReactNode; text: ReactNode };
  /** The list of this page's items (a table, or cards); `stale` while the next page loads. */
  children: (rows: T[], stale: boolean) => ReactNode;
  pagerLabel: string;
  page: number;
  onPage: (page: number) => void;
  /** After the pager: the panel's dialogs. */
  after?: ReactNode;
}) {
  const list = query.data;
  return (
    <section className="admin-panel" aria-labelledby={id}>
      <PageHead title={title} />
      <div className="admin-panel__head">
        <h1 id={id} className="admin-panel__title">
          {title}
        </h1>
        {list?.count ? <p className="admin-panel__count">{count(list.count)}</p> : null}
      </div>
      {lead ? <p className="admin-panel__lead">{lead}</p> : null}
      {filters}
      {query.isError ? (
        <ListError what={what} onRetry={() => void query.refetch()} />
      ) : !list ? (
        <ListLoading label={loadingLabel} />
      ) : list.results.length === 0 ? (
        <div className="admin-empty">
          <p className="admin-empty__title">{empty.title}</p>
          <p>{empty.text}</p>
        </div>
      ) : (
        children(list.results, query.isPlaceholderData)
      )}
      <Pager label={pagerLabel} page={page} list={list} onPage={onPage} />
      {after}
    </section>
  );
}
