import { countTicks, dayLabelEvery, longDay, shortDay } from '../../lib/insights';

/** Day labels that fit under the chart side by side at a phone's width. */
const LABEL_ROOM = 6;

/**
 * Page views per day as columns drawn with HTML and CSS (drawing only: the panel carries a table
 * alternative, so the drawing is hidden from assistive technology and nothing in it takes focus).
 * A pointer shows a day's count on hover; the columns grow once unless motion is reduced.
 */
export default function ViewsChart({ days }: { days: Array<{ day: string; views: number }> }) {
  const ticks = countTicks(Math.max(0, ...days.map((d) => d.views)));
  const top = ticks[ticks.length - 1]!;
  const every = dayLabelEvery(days.length, LABEL_ROOM);
  return (
    <div className="views-chart" aria-hidden="true">
      <div className="views-chart__axis">
        {ticks.map((t) => (
          <span key={t} className="views-chart__tick" style={{ bottom: `${(t / top) * 100}%` }}>
            {t.toLocaleString('en')}
          </span>
        ))}
      </div>
      <div className="views-chart__plot">
        {ticks.map((t) => (
          <span key={t} className="views-chart__grid" style={{ bottom: `${(t / top) * 100}%` }} />
        ))}
        <ol className="views-chart__columns">
          {days.map((d, i) => (
            <li
              key={d.day}
              className="views-chart__day"
              title={`${longDay(d.day)}: ${d.views.toLocaleString('en')} ${d.views === 1 ? 'view' : 'views'}`}
            >
              <span className="views-chart__bar" style={{ height: `${(d.views / top) * 100}%` }} />
              {i % every === 0 ? (
                <span className="views-chart__label">{shortDay(d.day)}</span>
              ) : null}
            </li>
          ))}
        </ol>
      </div>
    </div>
  );
}
