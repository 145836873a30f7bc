/* eslint-disable @typescript-eslint/no-deprecated -- Recharts 3 deprecates Cell (gone in 4): per-row colours move into the data with that upgrade. */
import { Bar, BarChart, Cell, LabelList, ResponsiveContainer, Text, XAxis, YAxis } from 'recharts';
import './results.css';

export interface ChartRow {
  label: string;
  /** Share of everyone counted, 0..100; null when hidden to protect privacy. */
  percent: number | null;
  mine: boolean;
}

// Each row: up to two lines of label above an 18 px bar.
const ROW = 72;
const BAR = 18;
const LABEL_LINES = 2;
const RIGHT = 64;

interface LabelProps {
  x?: number | string;
  y?: number | string;
  width?: number | string;
  height?: number | string;
  index?: number;
}

/** The choice's label above its bar, wrapped to two lines; the own choice says so in words. */
function choiceLabel(
  { x = 0, y = 0, width = 0, index = 0 }: LabelProps,
  rows: ChartRow[],
  mineNote: string,
) {
  const row = rows[index];
  if (!row) return null;
  return (
    <Text
      x={Number(x)}
      y={Number(y) - 6}
      width={Number(width) + RIGHT}
      maxLines={LABEL_LINES}
      verticalAnchor="end"
      lineHeight={18}
      className={row.mine ? 'chart__label chart__label--mine' : 'chart__label'}
    >
      {row.mine ? `${row.label} · ${mineNote}` : row.label}
    </Text>
  );
}

/** The share right of the track; a hidden cell says "hidden", never 0%. */
function valueLabel(
  { x = 0, y = 0, width = 0, height = 0, index = 0 }: LabelProps,
  rows: ChartRow[],
) {
  const row = rows[index];
  if (!row) return null;
  const hidden = row.percent === null;
  return (
    <text
      x={Number(x) + Number(width) + 8}
      y={Number(y) + Number(height) / 2}
      dominantBaseline="central"
      className={hidden ? 'chart__value chart__value--hidden' : 'chart__value'}
    >
      {hidden ? 'hidden' : `${Math.round(row.percent!)}%`}
    </text>
  );
}

/**
 * The bar chart of a closed question: per choice a full-width track (which carries the label
 * and the share, so a choice nobody picked still shows) with the share drawn over it; the
 * person's own choice is darker and labelled (`mineNote`: "your answer", or that it joins at the
 * next update), not by colour alone. A hidden cell keeps an empty dashed track and no length.
 * Loaded lazily: Recharts comes only with the first graph.
 */
export default function ClosedChart({ rows, mineNote }: { rows: ChartRow[]; mineNote: string }) {
  const reduced =
    typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion: reduce)').matches;
  const data = rows.map((r) => ({ label: r.label, value: r.percent ?? 0, track: 100 }));
  return (
    <div className="chart" aria-hidden="true">
      <ResponsiveContainer width="100%" height={rows.length * ROW}>
        <BarChart
          data={data}
          layout="vertical"
          margin={{ top: 16, right: RIGHT, bottom: 0, left: 0 }}
          barCategoryGap={ROW - BAR}
          barGap={-BAR}
          accessibilityLayer={false}
        >
          <XAxis type="number" domain={[0, 100]} hide />
          <YAxis type="category" dataKey="label" hide />
          <Bar dataKey="track" barSize={BAR} radius={BAR / 2} isAnimationActive={false}>
            {rows.map((row) =>
              row.percent === null ? (
                <Cell
                  key={row.label}
                  fill="var(--paper)"
                  stroke="var(--hatch)"
                  strokeDasharray="4 4"
                  strokeWidth={1}
                />
              ) : (
                <Cell key={row.label} fill="var(--track)" />
              ),
            )}
            <LabelList content={(props: LabelProps) => choiceLabel(props, rows, mineNote)} />
            <LabelList content={(props: LabelProps) => valueLabel(props, rows)} />
          </Bar>
          <Bar
            dataKey="value"
            barSize={BAR}
            radius={BAR / 2}
            isAnimationActive={!reduced}
            animationDuration={600}
          >
            {rows.map((row) => (
              <Cell key={row.label} fill={row.mine ? 'var(--violet-dark)' : 'var(--violet-soft)'} />
            ))}
          </Bar>
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
