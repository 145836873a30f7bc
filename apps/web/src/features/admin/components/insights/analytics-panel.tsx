import type { PageViewStats } from '@candor/contracts';
import { useQuery } from '@tanstack/react-query';
import { PageHead } from '../../../../components/page-head';
import { adminQueries } from '../../api/admin';
import { longDay } from '../../lib/insights';
import { ListError, ListLoading } from '../list-states';
import { usePageParams } from '../use-page-params';
import ViewsChart from './views-chart';

/** The periods offered, in days; 30 is the default (also the API's). */
const PERIODS: readonly number[] = [7, 30, 90];
const DEFAULT_DAYS = 30;

const views = (n: number) => `${n.toLocaleString('en')} ${n === 1 ? 'view' : 'views'}`;

/** One small ranked table: a page or a site, and its views. */
function TopTable({
  caption,
  column,
  rows,
  empty,
}: {
  caption: string;
  column: string;
  rows: Array<{ name: string; views: number }>;
  empty: string;
}) {
  return (
    <div className="top-table">
      <table className="stats-table">
        <caption className="stats-table__caption">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">{column}</th>
            <th scope="col" className="stats-table__number">
              Views
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.length === 0 ? (
            <tr>
              <td colSpan={2} className="stats-table__empty">
                {empty}
              </td>
            </tr>
          ) : (
            rows.map((r) => (
              <tr key={r.name}>
                <th scope="row" className="stats-table__name">
                  <code>{r.name}</code>
                </th>
                <td className="stats-table__number">{r.views.toLocaleString('en')}</td>
              </tr>
            ))
          )}
        </tbody>
      </table>
    </div>
  );
}

function Stats({ stats, days, stale }: { stats: PageViewStats; days: number; stale: boolean }) {
  if (stats.total === 0) {
    return (
      <div className="admin-empty">
        <p className="admin-empty__title">No page views in the last {days} days</p>
        <p>
          Views are counted in production builds while analytics is on: the route of each page and
          the referring site, never who viewed it.
        </p>
      </div>
    );
  }
  const busiest = stats.days.reduce((a, b) => (b.views > a.views ? b : a), stats.days[0]!);
  return (
    <div className={`analytics${stale ? ' analytics--stale' : ''}`} aria-busy={stale}>
      <div className="analytics__summary">
        <p className="analytics__total">
          <strong className="analytics__number">{stats.total.toLocaleString('en')}</strong>{' '}
          <span>
            page {stats.total === 1 ? 'view' : 'views'} in the last {days} days
          </span>
        </p>
        <p className="analytics__busiest">
          Busiest day: {longDay(busiest.day)}, {views(busiest.views)}
        </p>
      </div>
      <figure className="analytics__chart">
        <figcaption className="analytics__chart-title">Views per day</figcaption>
        <ViewsChart days={stats.days} />
        <div className="visually-hidden">
          <table>
            <caption>Page views per day, oldest first</caption>
            <thead>
              <tr>
                <th scope="col">Day</th>
                <th scope="col">Views</th>
              </tr>
            </thead>
            <tbody>
              {stats.days.map((d) => (
                <tr key={d.day}>
                  <th scope="row">{longDay(d.day)}</th>
                  <td>{d.views}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </figure>
      <div className="analytics__tops">
        <TopTable
          caption="Top pages"
          column="Page"
          rows={stats.paths.map((p) => ({ name: p.path, views: p.views }))}
          empty="No pages yet"
        />
        <TopTable
          caption="Top referring sites"
          column="Site"
          rows={stats.referrers.map((r) => ({ name: r.host, views: r.views }))}
          empty="No visits from other sites yet"
        />
      </div>
    </div>
  );
}

/** Analytics (admins): first-party page views over 7, 30 or 90 days; no person is tracked. */
export function AnalyticsPanel() {
  const { params, set } = usePageParams();
  const asked = Number(params.get('days'));
  const days = PERIODS.includes(asked) ? asked : DEFAULT_DAYS;
  const stats = useQuery(adminQueries.pageViews(days));

  return (
    <section className="admin-panel" aria-labelledby="analytics-title">
      <PageHead title="Analytics" />
      <div className="admin-panel__head">
        <h1 id="analytics-title" className="admin-panel__title">
          Analytics
        </h1>
      </div>
      <p className="admin-panel__lead">
        Page views by day, page and referring site. No cookies and no ids: nobody is followed from
        page to page.
      </p>
      <div className="segmented" role="group" aria-label="Period">
        {PERIODS.map((d) => (
          <button
            key={d}
            type="button"
            className="segmented__option"
            aria-pressed={d === days}
            onClick={() => set({ days: d === DEFAULT_DAYS ? null : d })}
          >
            {d} days
          </button>
        ))}
      </div>
      {stats.isError ? (
        <ListError what="The page views" onRetry={() => void stats.refetch()} />
      ) : !stats.data ? (
        <ListLoading label="Loading page views" />
      ) : (
        <Stats
          stats={stats.data}
          days={stats.data.days.length || days}
          stale={stats.isPlaceholderData}
        />
      )}
    </section>
  );
}
