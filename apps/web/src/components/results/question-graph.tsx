import {
  type BreakdownDimension,
  type BreakdownUnlocks,
  type ChoiceResult,
  LEAVE_BLANK_CHOICE,
  type Question,
  type QuestionResults,
  type ResultGroup,
  standingAmong,
} from '@candor/contracts';
import { type QueryKey, useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { rrResultsNote } from '../privacy/randomized-response';
import { HonestyGap } from './honesty-gap';
import { BREAKDOWN_OPTIONS, groupLabel } from './group-labels';
import { firstGraphText, yoursBeforeGraph } from './first-graph';
import { type MineState, stateExplained, stateNote } from './own-answer';
import {
  clearlyFew,
  pointsText,
  shareText,
  verifiedPeople,
  wholeMargin,
  withinNoise,
} from './shares';
import './results.css';

export type { MineState } from './own-answer';

const count = (n: number) => n.toLocaleString('en');
const people = (n: number) => `${count(n)} ${n === 1 ? 'person' : 'people'}`;

export const NEARLY_EVERYONE =
  'Nearly everyone (95% or more) gave the same answer. The split is not shown, to protect the few who did not.';

/** In place of a graph not published yet: the way to the first one, and where yours stands. */
function FirstGraph(p: {
  updates: number;
  nextUpdateAfter: number;
  closed: boolean;
  yours: string | null;
}) {
  return (
    <div className="graph__empty graph__empty--privacy">
      <p>{firstGraphText(p.updates, p.nextUpdateAfter, p.closed)}</p>
      {p.yours ? <p className="graph__yours">{p.yours}</p> : null}
    </div>
  );
}

/** A row's 95% margin in whole points: the API's, else the widest of its shares'. */
function rowMargin(row: { margin?: number | null; choices: ChoiceResult[] }): number | null {
  const margins = row.choices.flatMap((c) => (c.margin === null ? [] : [c.margin]));
  const widest = row.margin ?? (margins.length ? Math.max(...margins) : null);
  return widest === null ? null : wholeMargin(widest);
}
export const HIDDEN_GROUP = 'Hidden to protect privacy';

/** The plain words under a graph: what "about", "±" and "hidden" mean, said on screen. */
export const APPROXIMATE =
  'Approximate: every number is rounded and lightly blurred, so nobody’s answer can be worked out.';
export const HIDDEN_SHARE = 'Hidden: too few answers to show safely.';
/** What "under about 4%" means, said once under a graph that shows one. */
export const UNDER_NOISE =
  '“Under about N%”: so few gave this answer that it cannot be told from none; the true share is somewhere below N%.';
/** What a margin allows for, in one line (decision 027: a credibility interval). */
export const MARGIN_MEANS =
  'It allows for who happened to answer as well as the blur, and speaks for people like those who answered, not for everyone.';
/** Under a breakdown: why its groups' margins differ from the overall one. */
export const GROUP_MARGINS =
  'Each group has its own margin (“±N”): a group holds fewer people than everyone together, so its shares are less sure. Differences within the margins may be chance, not a finding.';
export const OTHER_COUNTRIES =
  'Countries with few answers are counted together as “Other countries”, so none of them points to a few people.';

/** A group's note when it is hidden: too few people in it, or nearly all of one mind. */
function hiddenGroupNote(group: ResultGroup): string {
  return group.respondents === null || group.respondents === 0
    ? `${HIDDEN_GROUP}: too few answers in this group to show it safely`
    : 'Split hidden to protect privacy: nearly everyone in this group gave the same answer';
}

interface HeadlineRow {
  label: string;
  percent: number | null;
  margin: number | null;
  mine: boolean;
}

/**
 * One sentence over a graph, from what the graph shows (hidden shares are never guessed at):
 * where the person stands when their answer's share is shown, else which answer leads. It ranks
 * only what the margins allow (`standingAmong`): two answers whose intervals meet are level,
 * "a minority" is clearly below every other answer, "fewer than" clearly below the most chosen.
 */
export function headlineOf(rows: HeadlineRow[], mineState: MineState = 'counted'): string | null {
  const shown = rows.filter((r): r is HeadlineRow & { percent: number } => r.percent !== null);
  if (shown.length === 0) return null;
  const ranked = [...shown].sort((a, b) => b.percent - a.percent);
  const top = ranked[0]!;
  const second = ranked[1];
  const p = (r: { percent: number; margin: number | null }) => shareText(r.percent, r.margin);
  const q = (r: { label: string }) => `“${r.label}”`;
  const low = (r: HeadlineRow & { percent: number }) => r.percent - (r.margin ?? 0);
  const high = (r: HeadlineRow & { percent: number }) => r.percent + (r.margin ?? 0);
  const mine = shown.find((r) => r.mine);
  if (mine) {
    const with_ = mineState === 'counted' ? 'You’re with' : 'You side with';
    const others = rows.filter((r) => r !== mine);
    const standing = standingAmong(mine, others);
    const leader = ranked.find((r) => r !== mine)!;
    if (clearlyFew(mine.percent, mine.margin)) return `Very few chose this: ${p(mine)}, like you.`;
    if (withinNoise(mine.percent, mine.margin)) {
      return `Too soon to tell how many chose this, like you: ${p(mine)}.`;
    }
    switch (standing) {
      case 'largest':
        return `${with_} ${p(mine)}, the largest group.`;
      case 'minority':
        return `A minority chose this: ${p(mine)}, like you.`;
      case 'fewer':
        return `${with_} ${p(mine)}, fewer than most: ${q(leader)} leads with ${p(leader)}.`;
      case 'level':
        // No answer is clearly ahead, so the closest rival is within the margins.
        return `${with_} ${p(mine)}: neck and neck with ${q(leader)}.`;
      default:
        return `${with_} ${p(mine)}.`;
    }
  }
  if (second !== undefined && low(top) <= high(second)) {
    return `${q(top)} and ${q(second)} are neck and neck (${p(top)}, ${p(second)}).`;
  }
  // "Most" only when more than half chose it beyond the margin.
  return low(top) > 50
    ? `Most people chose ${q(top)} (${p(top)}).`
    : `${q(top)} leads with ${p(top)}.`;
}

type View = BreakdownDimension | 'all';

/** What the own choice's bar says beside its name: "your answer", or when it counts. */
const mineNote = (state: MineState, nextUpdateAfter: number | null) =>
  state === 'counted' ? 'your answer' : `yours ${stateNote(state, nextUpdateAfter)}`;

interface BarRow {
  label: string;
  /** Share of everyone counted (left blank included), 0..100; null when hidden. */
  percent: number | null;
  /** Half-width of the share's 95% interval, in points. */
  margin: number | null;
  mine: boolean;
  /** The left-blank row: drawn last and quieter, so the bars add up to everyone counted. */
  blank?: boolean;
  /** The largest answer other than the person's own: the headline names it. */
  lead?: boolean;
  /** A randomized-response question's answer: its share is an estimate, said with its range. */
  estimated?: boolean;
}

/** "estimated 15–31%": an estimate's 95% range in whole points, as the issue's reader reads it. */
export function estimateRange(percent: number, margin: number): string {
  const low = Math.max(0, Math.round(percent - margin));
  const high = Math.min(100, Math.round(percent + margin));
  return `estimated ${low}–${high}%`;
}

/** The CSS of a share's 95% interval over its track: from its low end to its high end. */
function intervalStyle(percent: number, margin: number) {
  const low = Math.max(0, percent - margin);
  const high = Math.min(100, percent + margin);
  return { left: `${low}%`, width: `${high - low}%` };
}

/**
 * Bars drawn with plain HTML and CSS: per choice its name, a track with the share over it and
 * its 95% interval as a whisker band, and the share in words ("hidden", never 0%, when it is
 * hidden; "under about 4%" when it is inside its noise). The left-blank row is a bar like the
 * others, so the bars add up to everyone counted. The fill grows once on arrival unless the
 * person asked for reduced motion (a CSS animation: no script, no re-render).
 */
function Bars({
  rows,
  note,
  size = 'small',
}: {
  rows: BarRow[];
  note: string;
  size?: 'small' | 'large';
}) {
  return (
    <ul className={`bars${size === 'large' ? ' bars--large' : ''}`}>
      {rows.map((r) => {
        const under = r.percent !== null && withinNoise(r.percent, r.margin);
        return (
          <li
            key={r.label}
            className={`bars__row${r.mine ? ' bars__row--mine' : ''}${r.blank ? ' bars__row--blank' : ''}${r.lead ? ' bars__row--lead' : ''}`}
          >
            <span className="bars__label">
              {r.label}
              {r.mine ? <span className="bars__mine"> · {note}</span> : null}
              {r.estimated && r.percent !== null && r.margin !== null && !under ? (
                <span className="bars__range"> · {estimateRange(r.percent, r.margin)}</span>
              ) : null}
            </span>
            <span
              className={`bars__track${r.percent === null ? ' bars__track--hidden' : ''}`}
              aria-hidden="true"
            >
              {r.percent !== null ? (
                <>
                  <span className="bars__fill" style={{ width: `${r.percent}%` }} />
                  {r.margin !== null && r.margin > 0 ? (
                    <span className="bars__interval" style={intervalStyle(r.percent, r.margin)} />
                  ) : null}
                </>
              ) : null}
            </span>
            <span
              className={`bars__value${r.percent === null ? ' bars__value--hidden' : ''}${under ? ' bars__value--under' : ''}`}
            >
              {shareText(r.percent, r.margin)}
            </span>
          </li>
        );
      })}
    </ul>
  );
}

/** Marks the largest answer other than the person's own (not left blank) as the lead. */
function withLead(rows: BarRow[]): BarRow[] {
  let lead: BarRow | undefined;
  for (const r of rows) {
    if (r.mine || r.blank || r.percent === null) continue;
    if (!lead || r.percent > lead.percent!) lead = r;
  }
  return rows.map((r) => (r === lead ? { ...r, lead: true } : r));
}

/** The bars of a row of results: its answers in order, then left blank. */
function barRowsOf(choices: ChoiceResult[], mine: string | null): BarRow[] {
  const blankMine = mine === '' || mine === LEAVE_BLANK_CHOICE;
  return [...choices.filter((c) => !c.is_blank), ...choices.filter((c) => c.is_blank)].map((c) => ({
    label: c.is_blank ? 'Left blank' : c.choice,
    percent: c.percent,
    margin: c.margin,
    mine: c.is_blank ? blankMine : c.choice === mine,
    blank: c.is_blank,
    // What was sent is kept apart (`sent`): the share shown is worked back from it.
    estimated: c.sent !== null && !c.is_blank,
  }));
}

/**
 * Whole-number shares may add up to 99 or 101: said when they do, so that nobody reads a
 * missing point as a missing answer.
 */
function roundingNote(rows: BarRow[]): boolean {
  if (rows.some((r) => r.percent === null || withinNoise(r.percent, r.margin))) return false;
  return rows.reduce((sum, r) => sum + Math.round(r.percent!), 0) !== 100;
}

/**
 * Where a breakdown comes from: members read the public results, staff the admin endpoint
 * (same published numbers). Query options of TanStack Query, so each caller keeps its own cache.
 */
export type BreakdownQuery = (dimension: BreakdownDimension) => {
  queryKey: QueryKey;
  queryFn: (context: { signal: AbortSignal }) => Promise<Pick<QuestionResults, 'breakdown'>>;
  staleTime?: number;
};

interface Props {
  question: Question;
  results: QuestionResults;
  /** The person's own answer ('' when left blank), or null when they have none here. */
  mine: string | null;
  /**
   * `full` after an answer (v1 feedback): the graph on its own, headed "How everyone answered".
   * `compact` in the list of all graphs, headed by its question. Both draw bars with HTML and CSS
   * (no chart library: a list of 35 questions mounts no chart, and nothing loads after an answer).
   */
  variant?: 'full' | 'compact';
  /**
   * The level of the graph's heading: 2 where it sits under the page's h1 (the list of all
   * graphs), else by variant (`full` 2, `compact` 3). Its subheadings are one level below.
   */
  headingLevel?: 2 | 3;
  /**
   * Whether the person's own answer is in these numbers: `counted` (or not known otherwise),
   * `next-update` (given after this snapshot: it joins the published counts at the next one),
   * `not-counted` (a visitor's answer, kept in the browser until they sign up).
   */
  mineState?: MineState;
  /**
   * Whether this device knows the API took the person's answer (true), holds it still to send
   * (false), or cannot tell (null). Said only before a first graph ("Yours is in").
   */
  mineSent?: boolean | null;
  /** The question's survey is closed: before a graph, no update is promised. */
  surveyClosed?: boolean;
  /** Fetches the results broken down by one dimension, when the switcher asks for it. */
  breakdownQuery: BreakdownQuery;
  /**
   * On a phone's width, show the person's own bar and the leading one under the headline, and
   * the other answers a tap away ("See all 6 answers"), so the reveal and the way on fit one
   * screen (issue 30). Wider screens show every bar; the button is not drawn there.
   */
  foldOnPhone?: boolean;
  /**
   * Set where a page of several graphs explains their numbers once (`ReportNotes`): the graph
   * keeps its own margins and leaves out the general notes and the "counts at the next update"
   * sentence, which would repeat under every graph.
   */
  notesOnPage?: boolean;
  /**
   * The id of a heading outside the graph that names it (a row of the end results, whose
   * question opens the graph in place): the graph then draws no title of its own.
   */
  labelledBy?: string;
}

/** The answers (not the leave-blank row): what the headline compares. */
const answered = (choices: ChoiceResult[]) => choices.filter((c) => !c.is_blank);

/** Whether a breakdown is not offered yet: the published total is under its unlock. */
export function lockedBreakdown(
  dimension: BreakdownDimension,
  respondents: number | null,
  unlocks: BreakdownUnlocks,
): boolean {
  return respondents === null || respondents < unlocks[dimension].unlocks_at;
}

/**
 * All / Gender / Age / Country: buttons that say which one is showing (aria-pressed). A
 * breakdown without enough answers yet stays in the row, greyed and still focusable
 * (aria-disabled), saying in words from how many answers it opens and why.
 */
function BreakdownSwitch({
  value,
  onChange,
  respondents,
  unlocks,
}: {
  value: View;
  onChange: (v: View) => void;
  respondents: number | null;
  unlocks: BreakdownUnlocks;
}) {
  const reasonId = useId();
  const locked = (v: View) => v !== 'all' && lockedBreakdown(v, respondents, unlocks);
  const anyLocked = BREAKDOWN_OPTIONS.some((o) => locked(o.value));
  return (
    <>
      <div
        className={`breakdown-switch${anyLocked ? ' breakdown-switch--locks' : ''}`}
        role="group"
        aria-label="Show answers by"
      >
        {BREAKDOWN_OPTIONS.map((o) =>
          o.value !== 'all' && locked(o.value) ? (
            <button
              key={o.value}
              type="button"
              className="breakdown-switch__option breakdown-switch__option--locked"
              aria-pressed="false"
              aria-disabled="true"
              aria-describedby={reasonId}
            >
              {o.label}
              {/* Two lines at most: "unlocks at" / "56 answers", never a number alone. */}
              <span className="breakdown-switch__lock">
                {' '}
                unlocks at{' '}
                <span className="breakdown-switch__at">
                  {count(unlocks[o.value].unlocks_at)} answers
                </span>
              </span>
            </button>
          ) : (
            <button
              key={o.value}
              type="button"
              className="breakdown-switch__option"
              aria-pressed={value === o.value}
              onClick={() => onChange(o.value)}
            >
              {o.label}
            </button>
          ),
        )}
      </div>
      {anyLocked ? (
        <p id={reasonId} className="breakdown-switch__reason">
          A breakdown compares groups, and a group is shown only once it has about{' '}
          {count(unlocks.gender.group_minimum)} answers (a country about{' '}
          {count(unlocks.country.group_minimum)}), so that nobody in a small group can be picked
          out.
        </p>
      ) : null}
    </>
  );
}

/**
 * One group of a breakdown: its name, how many verified people it holds and its own margin
 * ("±11 points": a group is far noisier than everyone together), then a small bar per choice
 * and one for left blank (plain HTML).
 */
function GroupBars({
  dimension,
  group,
  mine,
  note,
}: {
  dimension: BreakdownDimension;
  group: ResultGroup;
  mine: string | null;
  note: string;
}) {
  const name = groupLabel(dimension, group.key);
  const n =
    group.respondents !== null && group.respondents > 0 ? (
      <span className="groups__n"> · {verifiedPeople(group.respondents)}</span>
    ) : null;
  const bars = barRowsOf(group.choices, mine);
  // Nothing to draw: hidden outright, nobody counted in the group, or every share hidden.
  const hidden =
    group.suppressed || !group.respondents
      ? hiddenGroupNote(group)
      : bars.every((c) => c.percent === null)
        ? `Every share ${HIDDEN_GROUP.toLowerCase()}`
        : null;
  if (hidden) {
    return (
      <li className="groups__item groups__item--hidden">
        <p className="groups__name">
          {name}
          {n}
        </p>
        <p className="groups__hidden">{hidden}</p>
      </li>
    );
  }
  const margin = rowMargin(group);
  return (
    <li className="groups__item">
      <p className="groups__name">
        {name}
        {n}
      </p>
      {margin !== null ? (
        <p className="groups__margin" data-margin={margin}>
          Each share here is within {pointsText(margin)}, 95 times in 100
        </p>
      ) : null}
      <Bars rows={bars} note={note} />
      {roundingNote(bars) ? <p className="groups__rounding">{ROUNDED}</p> : null}
    </li>
  );
}

/** Said under bars whose whole-number shares do not add up to exactly 100. */
export const ROUNDED = 'Shares are rounded, so they may add up to 99% or 101%.';

/** The chosen breakdown, fetched on demand, one compact row of bars per group. */
function BreakdownView({
  dimension,
  mine,
  note,
  breakdownQuery,
}: {
  dimension: BreakdownDimension;
  mine: string | null;
  note: string;
  breakdownQuery: BreakdownQuery;
}) {
  const query = useQuery(breakdownQuery(dimension));
  const groups = query.data?.breakdown?.groups;
  if (query.isError) {
    return (
      <p className="graph__empty">This breakdown could not be loaded. Try again in a moment.</p>
    );
  }
  if (!groups) {
    return (
      <div className="chart chart--loading" aria-busy="true" aria-label="Loading the breakdown" />
    );
  }
  if (groups.length === 0) {
    return <p className="graph__empty">No group is large enough to show yet.</p>;
  }
  return (
    <ul className="groups">
      {groups.map((g) => (
        <GroupBars key={g.key} dimension={dimension} group={g} mine={mine} note={note} />
      ))}
    </ul>
  );
}

/** Open questions: how many wrote, the most common words, moderated sample answers. */
function OpenResults({
  results,
  mine,
  Sub,
}: {
  results: QuestionResults;
  mine: string | null;
  Sub: 'h3' | 'h4';
}) {
  const respondents = results.respondents ?? 0;
  const wrote = results.blank === null ? null : respondents - results.blank;
  return (
    <>
      <p className="graph__open">
        {wrote === null ? (
          <>
            About <strong>{people(respondents)}</strong> answered.
          </>
        ) : (
          <>
            {/* Noisy like every count: never said as if exact. */}
            About <strong>{people(wrote)}</strong> wrote an answer.
          </>
        )}
        {mine ? (
          <>
            {' '}
            You wrote: <q>{mine}</q>
          </>
        ) : null}
      </p>
      {results.words.length > 0 ? (
        <>
          <Sub className="graph__subtitle">Most common words</Sub>
          <ul className="words">
            {results.words.map((w) => (
              <li key={w.word} className="words__item">
                {w.word} <span className="words__count">{count(w.count)}</span>
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {results.samples.length > 0 ? (
        <>
          <Sub className="graph__subtitle">What people wrote</Sub>
          <ul className="samples">
            {results.samples.map((s, i) => (
              <li key={i} className="samples__item">
                <q>{s}</q>
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {results.words.length === 0 && results.samples.length === 0 ? (
        <p className="graph__empty">
          No common words or approved answers to show yet. They appear once enough people have
          written and answers have been reviewed.
        </p>
      ) : null}
    </>
  );
}

/**
 * What the numbers under a graph mean, in plain words on screen (the table alternative says the
 * same to screen readers): approximate and how closely (the overall row's margin on "All"; on
 * a breakdown, that each group says its own); "under about"; hidden and why; countries merged.
 * Each note's mark matches how the graph draws it.
 */
function ReadingNotes({
  margin,
  breakdown,
  under,
  hiddenShare,
  otherCountries,
  onPage,
  estimated,
}: {
  /** A randomized-response question's note (`rrResultsNote`): its shares are estimates. */
  estimated: string | null;
  margin: number | null;
  breakdown: boolean;
  under: boolean;
  hiddenShare: boolean;
  otherCountries: boolean;
  /** The page says once what "approximate", "under about" and "hidden" mean (ReportNotes). */
  onPage: boolean;
}) {
  const own = breakdown
    ? GROUP_MARGINS
    : margin !== null
      ? `Each share is within ${pointsText(margin)} of the true one, 95 times in 100 (the shaded band on each bar). ${MARGIN_MEANS}`
      : null;
  const rr = estimated ? (
    <li className="graph__note graph__note--estimated">
      <span className="graph__mark" aria-hidden="true">
        ⚄
      </span>
      <span>{estimated}</span>
    </li>
  ) : null;
  if (onPage) {
    // Only what is this graph's own: its margin, and what its breakdown view adds.
    if (!own && !otherCountries && !rr) return null;
    return (
      <ul className="graph__notes">
        {rr}
        {own ? (
          <li className="graph__note">
            <span className="graph__mark" aria-hidden="true">
              ±
            </span>
            <span>{own}</span>
          </li>
        ) : null}
        {otherCountries ? (
          <li className="graph__note">
            <span className="graph__mark" aria-hidden="true">
              +
            </span>
            <span>{OTHER_COUNTRIES}</span>
          </li>
        ) : null}
      </ul>
    );
  }
  return (
    <ul className="graph__notes">
      {rr}
      <li className="graph__note">
        <span className="graph__mark" aria-hidden="true">
          ≈
        </span>
        <span>
          {APPROXIMATE}
          {own ? ` ${own}` : ''}
        </span>
      </li>
      {under ? (
        <li className="graph__note">
          <span className="graph__mark" aria-hidden="true">
            &lt;
          </span>
          <span>{UNDER_NOISE}</span>
        </li>
      ) : null}
      {hiddenShare ? (
        <li className="graph__note">
          <span className="graph__mark graph__mark--hidden" aria-hidden="true" />
          <span>{HIDDEN_SHARE}</span>
        </li>
      ) : null}
      {otherCountries ? (
        <li className="graph__note">
          <span className="graph__mark" aria-hidden="true">
            +
          </span>
          <span>{OTHER_COUNTRIES}</span>
        </li>
      ) : null}
    </ul>
  );
}

/**
 * Everyone's answers to one question: a chart with a table alternative, left blank as a bar of
 * its own (the bars add up to everyone counted), every share with its interval, hidden cells
 * said in words (never as 0%), and a breakdown by gender, age or country, each group with its
 * own margin.
 */
export function QuestionGraph({
  question,
  results,
  mine,
  variant = 'full',
  headingLevel,
  mineState = 'counted',
  mineSent = null,
  surveyClosed = false,
  breakdownQuery,
  notesOnPage = false,
  labelledBy,
  foldOnPhone = false,
}: Props) {
  const id = useId();
  const barsId = useId();
  const [view, setView] = useState<View>('all');
  const [unfolded, setUnfolded] = useState(false);
  const rows = withLead(barRowsOf(results.choices, mine));
  // Folded only where something is left out: the own bar and the lead are not every bar.
  const foldable = foldOnPhone && rows.some((r) => r.mine) && rows.some((r) => !r.mine && !r.lead);
  const folded = foldable && !unfolded;
  const headline = headlineOf(
    answered(results.choices).map((c) => ({
      label: c.choice,
      percent: c.percent,
      margin: c.margin,
      mine: c.choice === mine,
    })),
    mineState,
  );
  const level = headingLevel ?? (variant === 'full' ? 2 : 3);
  const Heading = level === 2 ? 'h2' : 'h3';
  const Sub = level === 2 ? 'h3' : 'h4';
  const published = results.respondents !== null;
  const margin = rowMargin(results);
  const closed = question.type === 'Closed';
  const note = mineNote(mineState, results.next_update_after);
  // A visitor's screens say already, around the graph, that their answers wait for a signup.
  // Before a first graph, the empty state says where the person's answer stands instead.
  const pending =
    published && mine !== null && mineState !== 'not-counted' && !notesOnPage
      ? stateExplained(mineState, results.next_update_after)
      : null;
  return (
    <figure className={`graph graph--${variant}`} aria-labelledby={labelledBy ?? id}>
      {labelledBy ? null : (
        <Heading id={id} className="graph__title">
          {variant === 'full' ? 'How everyone answered' : question.question}
        </Heading>
      )}
      {/* Offered as soon as there is a graph to break down; greyed until each has enough. */}
      {closed && !results.dominated ? (
        <BreakdownSwitch
          value={view}
          onChange={setView}
          respondents={results.respondents}
          unlocks={results.breakdown_unlocks}
        />
      ) : null}
      {!published ? (
        <FirstGraph
          updates={results.updates}
          nextUpdateAfter={results.next_update_after}
          closed={surveyClosed}
          yours={mine === null || surveyClosed ? null : yoursBeforeGraph(mineState, mineSent)}
        />
      ) : closed && results.dominated ? (
        <p className="graph__empty graph__empty--privacy">{NEARLY_EVERYONE}</p>
      ) : closed ? (
        <>
          {view !== 'all' ? (
            <BreakdownView
              dimension={view}
              mine={mine}
              // Said once under the graph when it is not counted yet, not in every group.
              note={mineState === 'counted' ? note : 'yours'}
              breakdownQuery={breakdownQuery}
            />
          ) : (
            <>
              {headline ? <p className="graph__headline">{headline}</p> : null}
              <div
                id={barsId}
                className={`chart chart--bars${folded ? ' chart--folded' : ''}`}
                aria-hidden="true"
              >
                <Bars rows={rows} note={note} size="large" />
              </div>
              {foldable ? (
                <button
                  type="button"
                  className="graph__unfold"
                  aria-expanded={!folded}
                  aria-controls={barsId}
                  onClick={() => setUnfolded(folded)}
                >
                  {folded ? `See all ${rows.length} answers` : 'Show fewer answers'}
                </button>
              ) : null}
              {roundingNote(rows) ? (
                <p className={`graph__rounding${folded ? ' graph__rounding--folded' : ''}`}>
                  {ROUNDED}
                </p>
              ) : null}
              {/* A table keeps its content's width: the hidden wrapper, not the table, is clipped. */}
              <div className="visually-hidden">
                <table>
                  <caption>
                    {`Answers of ${verifiedPeople(results.respondents!)}, left blank included`}
                  </caption>
                  <thead>
                    <tr>
                      <th scope="col">Answer</th>
                      <th scope="col">Share</th>
                      <th scope="col">People</th>
                    </tr>
                  </thead>
                  <tbody>
                    {rows.map((r, i) => {
                      const c = [
                        ...answered(results.choices),
                        ...results.choices.filter((x) => x.is_blank),
                      ][i]!;
                      return (
                        <tr key={r.label}>
                          <th scope="row">
                            {r.label}
                            {r.mine ? ` (${note})` : ''}
                          </th>
                          <td>
                            {r.percent === null
                              ? 'hidden'
                              : `${shareText(r.percent, r.margin)}${
                                  r.margin !== null && !withinNoise(r.percent, r.margin)
                                    ? r.estimated
                                      ? `, ${estimateRange(r.percent, r.margin)}`
                                      : `, give or take ${wholeMargin(r.margin)}`
                                    : ''
                                }`}
                          </td>
                          <td>
                            {c.count === null
                              ? 'hidden: too few to show safely'
                              : r.percent !== null && withinNoise(r.percent, r.margin)
                                ? 'too few to count exactly'
                                : `about ${count(c.count)}`}
                          </td>
                        </tr>
                      );
                    })}
                  </tbody>
                </table>
              </div>
            </>
          )}
        </>
      ) : (
        <OpenResults results={results} mine={mine} Sub={Sub} />
      )}
      <figcaption className="graph__caption">
        <span className="graph__n">
          {published ? verifiedPeople(results.respondents!) : 'Not enough answers yet'}
          {!closed && mine === '' ? ' · you left it blank' : ''}
          {closed && mine && !rows.some((r) => r.mine) ? ` · your answer: ${mine}` : ''}
        </span>
        {published ? (
          <ReadingNotes
            margin={margin}
            breakdown={closed && view !== 'all'}
            under={
              closed &&
              !results.dominated &&
              view === 'all' &&
              rows.some((r) => r.percent !== null && withinNoise(r.percent, r.margin))
            }
            hiddenShare={
              closed && !results.dominated && view === 'all' && rows.some((r) => r.percent === null)
            }
            otherCountries={closed && view === 'country'}
            onPage={notesOnPage}
            estimated={rrResultsNote(question)}
          />
        ) : null}
        {pending ? <span className="graph__pending">{pending}</span> : null}
        {results.honesty_gap ? <HonestyGap gap={results.honesty_gap} /> : null}
      </figcaption>
    </figure>
  );
}
