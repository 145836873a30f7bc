import {
  type BreakdownDimension,
  type BreakdownUnlocks,
  type ChoiceResult,
  LEAVE_BLANK_CHOICE,
  type Question,
  type QuestionResults,
  type ResultGroup,
} from '@candor/contracts';
import { type QueryKey, useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { BREAKDOWN_OPTIONS, groupLabel } from './group-labels';
import './results.css';

const count = (n: number) => n.toLocaleString('en');
const people = (n: number) => `${count(n)} ${n === 1 ? 'person' : 'people'}`;
const share = (percent: number | null) => (percent === null ? 'hidden' : `${Math.round(percent)}%`);

export const FEWER_THAN_TEN =
  "Not enough verified people have answered yet. Results appear at about 20, and every number is blurred a little so nobody's answer can be worked out.";
export const NEARLY_EVERYONE =
  'Nearly everyone (95% or more) gave the same answer. The split is not shown, to protect the few who did not.';

/** The widest 95% margin of the shown shares, in whole points (at least 1). */
function widestMargin(choices: ChoiceResult[]): number | null {
  const margins = choices.flatMap((c) => (c.margin === null ? [] : [c.margin]));
  return margins.length ? Math.max(1, Math.round(Math.max(...margins))) : null;
}
export const HIDDEN_GROUP = 'Hidden to protect privacy';

/** The plain words under a graph: what "about", "±" and "hidden" mean, said on screen. */
export const APPROXIMATE =
  'Approximate: every number is rounded and lightly blurred, so nobody’s answer can be worked out.';
export const HIDDEN_SHARE = 'Hidden: too few answers to show safely.';
export const OTHER_COUNTRIES =
  'Countries with few answers are counted together as “Other countries”, so none of them points to a few people.';

/** A group's note when it is hidden: too few people in it, or nearly all of one mind. */
function hiddenGroupNote(group: ResultGroup): string {
  return group.respondents === null
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
 * where the person stands when their answer's share is shown, else which answer leads. Two
 * answers whose shares are within their margins are called level, not ranked.
 */
export function headlineOf(rows: HeadlineRow[], mineState: MineState = 'counted'): string | null {
  const shown = rows.filter((r): r is HeadlineRow & { percent: number } => r.percent !== null);
  if (shown.length === 0) return null;
  const ranked = [...shown].sort((a, b) => b.percent - a.percent);
  const top = ranked[0]!;
  const second = ranked[1];
  const level =
    second !== undefined && top.percent - second.percent <= Math.max(top.margin ?? 0, 1);
  const mine = shown.find((r) => r.mine);
  const p = (r: { percent: number }) => `${Math.round(r.percent)}%`;
  const q = (r: { label: string }) => `“${r.label}”`;
  if (mine) {
    const with_ = mineState === 'counted' ? 'You’re with' : 'You side with';
    if (mine === top && !level) return `${with_} ${p(mine)}, the largest group.`;
    if (level && (mine === top || mine === second))
      return `${with_} ${p(mine)}: neck and neck with ${q(mine === top ? second : top)}.`;
    if (mine.percent < 15) return `A small minority chose this: ${p(mine)}, like you.`;
    return `${with_} ${p(mine)}; more people chose ${q(top)} (${p(top)}).`;
  }
  if (level) return `${q(top)} and ${q(second)} are neck and neck (${p(top)}, ${p(second)}).`;
  return top.percent > 50
    ? `Most people chose ${q(top)} (${p(top)}).`
    : `${q(top)} leads with ${p(top)}.`;
}

type View = BreakdownDimension | 'all';

export type MineState = 'counted' | 'next-update' | 'not-counted';

/** What the own choice's bar says beside its name. */
const MINE_NOTE: Record<MineState, string> = {
  counted: 'your answer',
  'next-update': 'yours joins at the next update',
  'not-counted': 'yours is not in this yet',
};

/** The same, in the table for screen readers. */
const MINE_CELL: Record<MineState, string> = {
  counted: '(your answer)',
  'next-update': '(your answer, joins at the next update)',
  'not-counted': '(your answer, not in this yet)',
};

interface BarRow {
  label: string;
  /** Share of everyone counted, 0..100; null when hidden to protect privacy. */
  percent: number | null;
  mine: boolean;
}

/**
 * Bars drawn with plain HTML and CSS: per choice its name, a track with the share over it, and
 * the share in words ("hidden", never 0%, when it is hidden). The fill grows once on arrival
 * unless the person asked for reduced motion (a CSS animation: no script, no re-render).
 */
function Bars({
  rows,
  mineNote,
  size = 'small',
}: {
  rows: BarRow[];
  mineNote: string;
  size?: 'small' | 'large';
}) {
  return (
    <ul className={`bars${size === 'large' ? ' bars--large' : ''}`}>
      {rows.map((r) => (
        <li key={r.label} className={`bars__row${r.mine ? ' bars__row--mine' : ''}`}>
          <span className="bars__label">
            {r.label}
            {r.mine ? <span className="bars__mine"> · {mineNote}</span> : null}
          </span>
          <span
            className={`bars__track${r.percent === null ? ' bars__track--hidden' : ''}`}
            aria-hidden="true"
          >
            {r.percent !== null ? (
              <span className="bars__fill" style={{ width: `${r.percent}%` }} />
            ) : null}
          </span>
          <span className={`bars__value${r.percent === null ? ' bars__value--hidden' : ''}`}>
            {share(r.percent)}
          </span>
        </li>
      ))}
    </ul>
  );
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
   * Whether the person's own answer is in these numbers: `counted` (or not known otherwise),
   * `next-update` (given after this snapshot: it joins the published counts at the next one),
   * `not-counted` (a visitor's answer, kept in the browser until they sign up).
   */
  mineState?: MineState;
  /** Fetches the results broken down by one dimension, when the switcher asks for it. */
  breakdownQuery: BreakdownQuery;
}

/** The choices drawn as bars: the leave-blank row is left out (it is told apart). */
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

/** One group of a breakdown: its name and n, then a small bar per choice (plain HTML). */
function GroupBars({
  dimension,
  group,
  mine,
  mineState,
}: {
  dimension: BreakdownDimension;
  group: ResultGroup;
  mine: string | null;
  mineState: MineState;
}) {
  const name = groupLabel(dimension, group.key);
  const n =
    group.respondents !== null ? (
      <span className="groups__n"> · n = {count(group.respondents)}</span>
    ) : null;
  const bars = answered(group.choices);
  // Nothing to draw: hidden outright, nobody in the group, or every share hidden.
  const note = group.suppressed
    ? hiddenGroupNote(group)
    : group.respondents === 0
      ? 'No answers from this group yet'
      : bars.every((c) => c.percent === null)
        ? `Every share ${HIDDEN_GROUP.toLowerCase()}`
        : null;
  if (note) {
    return (
      <li className="groups__item groups__item--hidden">
        <p className="groups__name">
          {name}
          {group.respondents === 0 ? null : n}
        </p>
        <p className="groups__hidden">{note}</p>
      </li>
    );
  }
  return (
    <li className="groups__item">
      <p className="groups__name">
        {name}
        {n}
      </p>
      <Bars
        rows={bars.map((c) => ({ label: c.choice, percent: c.percent, mine: c.choice === mine }))}
        mineNote={MINE_NOTE[mineState]}
      />
      <p className="groups__blank">
        {group.blank === null
          ? 'Left blank: hidden'
          : group.blank > 0
            ? `${count(group.blank)} left it blank`
            : 'Nobody left it blank'}
      </p>
    </li>
  );
}

/** The chosen breakdown, fetched on demand, one compact row of bars per group. */
function BreakdownView({
  dimension,
  mine,
  mineState,
  breakdownQuery,
}: {
  dimension: BreakdownDimension;
  mine: string | null;
  mineState: MineState;
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
        <GroupBars key={g.key} dimension={dimension} group={g} mine={mine} mineState={mineState} />
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
            <strong>{people(respondents)}</strong> answered.
          </>
        ) : (
          <>
            <strong>{people(wrote)}</strong> wrote an answer.
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
 * same to screen readers): approximate and how closely; hidden and why; countries merged. Each
 * note's mark matches how the graph draws it.
 */
function ReadingNotes({
  margin,
  hiddenShare,
  otherCountries,
}: {
  margin: number | null;
  hiddenShare: boolean;
  otherCountries: boolean;
}) {
  return (
    <ul className="graph__notes">
      <li className="graph__note">
        <span className="graph__mark" aria-hidden="true">
          ≈
        </span>
        <span>
          {APPROXIMATE}
          {margin !== null
            ? ` Each share is within ±${margin} ${margin === 1 ? 'point' : 'points'} of the true one, 95 times in 100.`
            : ''}
        </span>
      </li>
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
 * Everyone's answers to one question: a chart with a table alternative, blanks shown apart,
 * hidden cells said in words (never as 0%), and a breakdown by gender, age or country.
 */
export function QuestionGraph({
  question,
  results,
  mine,
  variant = 'full',
  mineState = 'counted',
  breakdownQuery,
}: Props) {
  const id = useId();
  const [view, setView] = useState<View>('all');
  const rows = answered(results.choices).map((c) => ({
    label: c.choice,
    percent: c.percent,
    margin: c.margin,
    count: c.count,
    mine: c.choice === mine,
  }));
  const headline = headlineOf(rows, mineState);
  const Heading = variant === 'full' ? 'h2' : 'h3';
  const Sub = variant === 'full' ? 'h3' : 'h4';
  const published = results.respondents !== null;
  const margin = widestMargin(results.choices);
  const closed = question.type === 'Closed';
  const counted =
    results.respondents !== null && results.blank !== null
      ? results.respondents - results.blank
      : null;
  return (
    <figure className={`graph graph--${variant}`} aria-labelledby={id}>
      <Heading id={id} className="graph__title">
        {variant === 'full' ? 'How everyone answered' : question.question}
      </Heading>
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
        <p className="graph__empty graph__empty--privacy">{FEWER_THAN_TEN}</p>
      ) : closed && results.dominated ? (
        <p className="graph__empty graph__empty--privacy">{NEARLY_EVERYONE}</p>
      ) : closed ? (
        <>
          {view !== 'all' ? (
            <BreakdownView
              dimension={view}
              mine={mine}
              mineState={mineState}
              breakdownQuery={breakdownQuery}
            />
          ) : (
            <>
              {headline ? <p className="graph__headline">{headline}</p> : null}
              <div className="chart chart--bars" aria-hidden="true">
                <Bars rows={rows} mineNote={MINE_NOTE[mineState]} size="large" />
              </div>
              {/* A table keeps its content's width: the hidden wrapper, not the table, is clipped. */}
              <div className="visually-hidden">
                <table>
                  <caption>
                    {counted !== null
                      ? `Answers of ${people(counted)}, left blank not included`
                      : 'Answers of verified people, left blank not included'}
                  </caption>
                  <thead>
                    <tr>
                      <th scope="col">Answer</th>
                      <th scope="col">Share</th>
                      <th scope="col">People</th>
                    </tr>
                  </thead>
                  <tbody>
                    {rows.map((r) => (
                      <tr key={r.label}>
                        <th scope="row">
                          {r.label}
                          {r.mine ? ` ${MINE_CELL[mineState]}` : ''}
                        </th>
                        <td>
                          {r.percent === null
                            ? 'hidden'
                            : `${r.percent}%${r.margin !== null ? ` ±${r.margin}` : ''}`}
                        </td>
                        <td>
                          {r.count === null
                            ? 'hidden: too few to show safely'
                            : `about ${count(r.count)}`}
                        </td>
                      </tr>
                    ))}
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
          {published ? (
            <>
              n = {people(results.respondents!)}, verified
              {results.blank === null
                ? ' · left blank: hidden'
                : results.blank > 0
                  ? ` · ${count(results.blank)} left it blank`
                  : ''}
            </>
          ) : (
            'Not enough answers yet'
          )}
          {mine === '' ? ' · you left it blank' : ''}
          {closed && mine && !rows.some((r) => r.mine) && mine !== LEAVE_BLANK_CHOICE
            ? ` · your answer: ${mine}`
            : ''}
        </span>
        {published ? (
          <ReadingNotes
            margin={margin}
            hiddenShare={
              closed && !results.dominated && view === 'all' && rows.some((r) => r.percent === null)
            }
            otherCountries={closed && view === 'country'}
          />
        ) : null}
        {mineState === 'next-update' && mine !== null ? (
          <span className="graph__pending">
            Results move in steps, so no single answer can be picked out: yours joins at the next
            update.
          </span>
        ) : null}
      </figcaption>
    </figure>
  );
}
