import type { MirrorItem as Item } from '@candor/contracts';
import { firstGraphShort } from '../../../components/results/first-graph';
import { type MineState, ownState } from '../../../components/results/own-answer';
import { verifiedPeople } from '../../../components/results/shares';
import { standingNote, standingOfMirror, standingText } from '../../../components/results/standing';

const day = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  timeZone: 'UTC',
});

/** `2026-03-12` as "12 Mar 2026" (the API keeps the day only, in UTC). */
export function formatDay(date: string): string {
  const d = new Date(`${date}T00:00:00Z`);
  return Number.isNaN(d.getTime()) ? date : day.format(d);
}

/**
 * What the mirror says about how many answered the same: the outro's words for the same
 * standing (standing.ts), so one answer reads the same on both.
 */
export function sameText(item: Item, state: MineState = 'counted'): string | null {
  if (item.respondents === null) return firstGraphShort(item.next_update_after);
  if (item.is_blank) return null;
  // Written answers are not compared one by one: they are yours alone.
  if (item.type === 'Open')
    return `One of ${item.respondents.toLocaleString('en')} written answers`;
  return standingText(standingOfMirror(item, state));
}

/**
 * One answered question, in its survey's group: the member's answer, the share who said the
 * same (and when their answer counts, if it is not in it yet), their rating.
 */
export function MirrorItem({ item, underReview = false }: { item: Item; underReview?: boolean }) {
  // Numbers taken before the end of the answer's day are said not to hold it (the API keeps
  // the day only): the outro judges an answer of an earlier visit the same way.
  const state = ownState({
    member: true,
    underReview,
    snapshotAt: item.snapshot_at,
    answeredAt: null,
    day: item.date,
  });
  const same = sameText(item, state);
  const note = item.same_percent !== null ? standingNote(standingOfMirror(item, state)) : null;
  return (
    <li className="mirror-item">
      <p className="mirror-item__meta">
        <time dateTime={item.date}>{formatDay(item.date)}</time>
      </p>
      <h3 className="mirror-item__question">{item.question}</h3>
      <p className="mirror-item__answer">
        <span className="mirror-item__key">Your answer</span>{' '}
        {item.is_blank ? <em>Left blank</em> : <strong>{item.answer}</strong>}
      </p>
      {same ? (
        <div className="mirror-item__same">
          {item.same_percent !== null ? (
            <span className="meter" aria-hidden="true">
              <span className="meter__fill" style={{ width: `${item.same_percent}%` }} />
            </span>
          ) : null}
          <p className={item.same_percent === null ? 'mirror-item__muted' : undefined}>
            {same}
            {item.same_percent !== null && item.respondents !== null
              ? ` (of ${verifiedPeople(item.respondents)})`
              : ''}
            {item.estimated && item.same_percent !== null
              ? ' · estimated from randomized answers'
              : ''}
            {note ? <span className="mirror-item__pending"> · {note}</span> : null}
          </p>
        </div>
      ) : null}
      <p className="mirror-item__foot">
        {item.minority ? (
          <span className="badge badge--minority">You&apos;re in the minority</span>
        ) : null}
        <span className="mirror-item__rating">
          {item.rating === null ? 'Not rated' : `Your interest: ${item.rating}/10`}
        </span>
      </p>
    </li>
  );
}
