import { useSyncExternalStore, useState } from 'react';
import { shouldShowLandscapeAlert } from '../lib/landscape';

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
  shouldShowLandscapeAlert({
    isTouch: navigator.maxTouchPoints > 0 || window.matchMedia('(pointer: coarse)').matches,
    width: window.innerWidth,
    height: window.innerHeight,
  });

/**
 * Spec: on touch devices, an alert in portrait or below 560 px of height. It suggests landscape
 * for videos and graphs and can be dismissed for the session; it never blocks the page.
 */
export function LandscapeAlert() {
  const show = useSyncExternalStore(subscribe, snapshot, () => false);
  const [dismissed, setDismissed] = useState(() => sessionStorage.getItem(DISMISSED_KEY) === '1');
  if (!show || dismissed) return null;
  return (
    <div className="landscape-alert" role="status">
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
      <p>Turn your device to landscape for the best view of videos and graphs.</p>
      <button
        type="button"
        className="landscape-alert__close"
        onClick={() => {
          sessionStorage.setItem(DISMISSED_KEY, '1');
          setDismissed(true);
        }}
      >
        Got it
      </button>
    </div>
  );
}
