import { OUTDATED_BROWSER_MESSAGE, certainlyCurrent } from './lib/outdated-browser';
import { installTrustedTypesPolicy } from './lib/trusted-types';
import './styles/global.css';

// Before anything renders or loads: the CSP requires Trusted Types.
installTrustedTypesPolicy();

// This entry is small on purpose: React and the app arrive with it (the page preloads them) but
// run only once the browser passed the check below, and, where the server drew the page (the
// home page), once that drawing has painted its pictures.
const container = document.getElementById('root')!;
const userAgent = navigator.userAgent;

// bowser decides only where the user agent alone cannot (an old or unusual browser).
const outdated: Promise<boolean> =
  certainlyCurrent(userAgent) === false
    ? Promise.resolve(false)
    : import('./lib/browser-support').then((m) => m.isOutdatedBrowser(userAgent));

/** Spec: an outdated browser sees only this message, nothing of the app (no React needed). */
function showOutdated() {
  const message = document.createElement('p');
  message.className = 'outdated';
  message.textContent = OUTDATED_BROWSER_MESSAGE;
  container.textContent = '';
  container.appendChild(message);
}

/**
 * Resolves once the server's drawing (if any) has loaded its pictures and painted: starting the
 * app keeps the main thread busy for a while, and the first screen's covers should not wait
 * behind it (the drawing's links and filter work meanwhile). Waits at most 3 s; a page drawn
 * empty does not wait at all.
 */
function drawingPainted(): Promise<void> {
  if (!container.firstElementChild) return Promise.resolve();
  const loaded = new Promise<void>((resolve) => {
    if (document.readyState === 'complete') resolve();
    else window.addEventListener('load', () => resolve(), { once: true });
  });
  const late = new Promise<void>((resolve) => setTimeout(resolve, 3000));
  // After the next frame: the pictures have been painted, not only loaded.
  return Promise.race([loaded, late]).then(
    () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0))),
  );
}

void outdated.then((isOutdated) => {
  if (isOutdated) {
    showOutdated();
    return;
  }
  // React, then (in a task of its own, after a pause for input and paint) the app: two shorter
  // tasks instead of one long one on a slow phone.
  return drawingPainted()
    .then(() => import('react-dom/client'))
    .then(() => new Promise((resolve) => setTimeout(resolve, 0)))
    .then(() => import('./app/app'))
    .then(({ start }) => start(container));
});
