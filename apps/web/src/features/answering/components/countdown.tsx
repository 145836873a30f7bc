import { useEffect, useEffectEvent, useState } from 'react';

/**
 * A visible countdown; calls `onExpire` once when it reaches zero. Announced to screen readers
 * only at a few moments, not every second.
 */
export function Countdown({ seconds, onExpire }: { seconds: number; onExpire: () => void }) {
  const [left, setLeft] = useState(seconds);
  const expire = useEffectEvent(onExpire);
  useEffect(() => {
    const endsAt = Date.now() + seconds * 1000;
    let done = false;
    const tick = () => {
      const remaining = Math.max(0, Math.ceil((endsAt - Date.now()) / 1000));
      setLeft(remaining);
      if (remaining === 0 && !done) {
        done = true;
        clearInterval(timer);
        expire();
      }
    };
    const timer = setInterval(tick, 250);
    return () => clearInterval(timer);
  }, [seconds]);
  const fraction = seconds > 0 ? left / seconds : 0;
  const urgent = left <= 5;
  const announce = left === seconds || left === 10 || left === 5;
  return (
    <div className={`countdown${urgent ? ' countdown--urgent' : ''}`}>
      <div
        className="countdown__bar"
        role="progressbar"
        aria-label="Time left"
        aria-valuemin={0}
        aria-valuemax={seconds}
        aria-valuenow={left}
      >
        <span style={{ transform: `scaleX(${fraction})` }} />
      </div>
      <span className="countdown__text" aria-live={announce ? 'polite' : 'off'}>
        {left}s left
      </span>
    </div>
  );
}
