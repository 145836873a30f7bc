import { useState, useSyncExternalStore } from 'react';
import { landscapeAdvice, landscapeAlertReason } from '../lib/landscape';

const DISMISSED_KEY = 'candor.landscapeAlertDismissed';

function subscribe(onChange: () => void) {
  window.addEventListener('resize', onChange);
  window.addEventListener('orientationchange', onChange);
  return () => {
    window.removeEventListener('resize', onChange);
    window.removeEventListener('orientationchange', onChange);
  };
}

const snapshot = () =>
  landscapeAlertReason({
    isTouch: navigator.maxTouchPoints > 0 || window.matchMedia('(pointer: coarse)').matches,
    width: window.innerWidth,
    height: window.innerHeight,
  });

function wasDismissed(): boolean {
  try {
    return sessionStorage.getItem(DISMISSED_KEY) === '1';
  } catch {
    return false;
  }
}

/**
 * The spec's landscape alert (touch devices, in portrait or lower than 560 px), shown only on
 * the screens it helps: a video or a graph. Worded for the screen's shape, never blocking, and
 * gone for the rest of the tab's session once dismissed.
 */
export function LandscapeAlert({ topic }: { topic: 'video' | 'graph' }) {
  const reason = useSyncExternalStore(subscribe, snapshot, () => null);
  const [dismissed, setDismissed] = useState(wasDismissed);
  if (!reason || dismissed) return null;
  return (
    <div className="landscape-alert" role="note">
      <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true">
        <rect
          x="3"
          y="7"
          width="18"
          height="11"
          rx="2"
          fill="none"
          stroke="currentColor"
          strokeWidth="2"
        />
        <path
          d="M7 3.5a9 9 0 0 1 8 1"
          fill="none"
          stroke="currentColor"
          strokeWidth="2"
          strokeLinecap="round"
        />
      </svg>
      <p>{landscapeAdvice(reason, topic)}</p>
      <button
        type="button"
        className="landscape-alert__close"
        onClick={() => {
          try {
            sessionStorage.setItem(DISMISSED_KEY, '1');
          } catch {
            // Storage refused: dismissed for this screen only.
          }
          setDismissed(true);
        }}
      >
        Got it
      </button>
    </div>
  );
}
