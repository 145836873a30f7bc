import { useEffect, useEffectEvent, useState } from 'react';
import { readDeadline, saveDeadline } from '../lib/deadline';

/** Seconds a "More time" press adds. */
export const EXTRA_SECONDS = 30;
/** From this many seconds left, the person is told the time is running out (WCAG 2.2.1). */
export const WARN_SECONDS = 20;

const secondsUntil = (endsAt: number) => Math.max(0, Math.ceil((endsAt - Date.now()) / 1000));

/**
 * A visible countdown for question `qid`; calls `onExpire` once when it reaches zero. Its
 * deadline is kept in the browser, so a reload does not start it again. "More time" adds
 * EXTRA_SECONDS as often as the person needs (WCAG 2.2.1, timing adjustable), and a warning
 * says so before it runs out. Announced to screen readers only at a few moments, not every second.
 */
export function Countdown({
  qid,
  seconds,
  onExpire,
}: {
  qid: string;
  seconds: number;
  onExpire: () => void;
}) {
  const [endsAt, setEndsAt] = useState(() => readDeadline(qid) ?? Date.now() + seconds * 1000);
  const [left, setLeft] = useState(() => secondsUntil(endsAt));
  const expire = useEffectEvent(onExpire);
  useEffect(() => {
    saveDeadline(qid, endsAt);
    let done = false;
    const tick = () => {
      const remaining = secondsUntil(endsAt);
      setLeft(remaining);
      if (remaining === 0 && !done) {
        done = true;
        clearInterval(timer);
        expire();
      }
    };
    const timer = setInterval(tick, 250);
    tick();
    return () => clearInterval(timer);
  }, [qid, endsAt]);

  const total = Math.max(seconds, left);
  const fraction = total > 0 ? left / total : 0;
  const urgent = left <= 5;
  const warn = left > 0 && left <= WARN_SECONDS;
  const announce = left === seconds || left === 10 || left === 5;
  return (
    <div className={`countdown${urgent ? ' countdown--urgent' : ''}`}>
      <div
        className="countdown__bar"
        role="progressbar"
        aria-label="Time left"
        aria-valuemin={0}
        aria-valuemax={total}
        aria-valuenow={left}
      >
        <span style={{ transform: `scaleX(${fraction})` }} />
      </div>
      <span className="countdown__text" aria-live={announce ? 'polite' : 'off'}>
        {left}s left
      </span>
      <button
        type="button"
        className="button countdown__more"
        disabled={left === 0}
        onClick={() => setEndsAt(Math.max(endsAt, Date.now()) + EXTRA_SECONDS * 1000)}
      >
        More time <span className="countdown__extra">+{EXTRA_SECONDS} s</span>
      </button>
      <p className="countdown__warning" role="status">
        {warn ? `Need more time? Press “More time” for ${EXTRA_SECONDS} more seconds.` : ''}
      </p>
    </div>
  );
}
