import type { SurveyState } from '@candor/contracts';
import { STATE_LABELS } from '../../lib/authoring';

/** Draft, Scheduled, Open or Closed, in the colours of the staff area's badges. */
export function StateBadge({ state, archived }: { state: SurveyState; archived: boolean }) {
  return archived ? (
    <span className="status-badge status-badge--survey-archived">Archived</span>
  ) : (
    <span className={`status-badge status-badge--survey-${state}`}>{STATE_LABELS[state]}</span>
  );
}

const exact = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short' });

/** A date and time on this browser's clock: "12 Mar 2026, 09:30". */
export function DateTime({ at }: { at: string }) {
  return (
    <time dateTime={at} className="when">
      {exact.format(new Date(at))}
    </time>
  );
}

/** A survey's cover as a small thumbnail, or a neutral tile when it has none. */
export function CoverThumb({ src }: { src: string | null }) {
  return src ? (
    <img className="cover-thumb" src={src} alt="" loading="lazy" width={160} height={90} />
  ) : (
    <span className="cover-thumb cover-thumb--none" aria-hidden="true" />
  );
}
