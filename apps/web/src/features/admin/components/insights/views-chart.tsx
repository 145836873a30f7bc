import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { longDay, shortDay } from '../../lib/insights';

/**
 * Page views per day as bars (drawing only: the panel carries a table alternative).
 * Loaded lazily, like the results graph: Recharts comes only with the first chart.
 */
export default function ViewsChart({ days }: { days: Array<{ day: string; views: number }> }) {
  const reduced =
    typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion: reduce)').matches;
  return (
    <div className="views-chart" aria-hidden="true">
      <ResponsiveContainer width="100%" height={240}>
        {/* Recharts' keyboard layer makes the drawing focusable; it is hidden from assistive
            technology (the table beside it is the alternative), so nothing in it may take focus. */}
        <BarChart
          data={days}
          margin={{ top: 8, right: 8, bottom: 0, left: -12 }}
          accessibilityLayer={false}
        >
          <CartesianGrid vertical={false} stroke="var(--track)" />
          <XAxis
            dataKey="day"
            tickFormatter={shortDay}
            tickLine={false}
            axisLine={{ stroke: 'var(--line)' }}
            minTickGap={24}
            tick={{ fontSize: 12, fill: 'var(--ink-muted)' }}
          />
          <YAxis
            allowDecimals={false}
            tickLine={false}
            axisLine={false}
            width={48}
            tick={{ fontSize: 12, fill: 'var(--ink-muted)' }}
          />
          <Tooltip
            cursor={{ fill: 'var(--sunken)' }}
            labelFormatter={(day) => longDay(day as string)}
            formatter={(value) => [Number(value).toLocaleString('en'), 'Views']}
          />
          <Bar
            dataKey="views"
            fill="var(--violet-light)"
            radius={[4, 4, 0, 0]}
            maxBarSize={28}
            isAnimationActive={!reduced}
          />
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
