import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { OUTDATED_BROWSER_MESSAGE, certainlyCurrent } from './lib/outdated-browser';
import { installTrustedTypesPolicy } from './lib/trusted-types';
import './styles/global.css';

// Before anything renders or loads: the CSP requires Trusted Types.
installTrustedTypesPolicy();

const userAgent = navigator.userAgent;
// bowser decides only where the user agent alone cannot (an old or unusual browser).
const outdated: Promise<boolean> =
  certainlyCurrent(userAgent) === false
    ? Promise.resolve(false)
    : import('./lib/browser-support').then((m) => m.isOutdatedBrowser(userAgent));

void outdated.then((isOutdated) => {
  // The page may hold the server's drawing of it (the home page): the first render replaces it.
  const root = createRoot(document.getElementById('root')!);
  if (isOutdated) {
    // Spec: an outdated browser sees only this message, nothing of the app.
    root.render(<p className="outdated">{OUTDATED_BROWSER_MESSAGE}</p>);
    return;
  }
  void import('./app/app').then(({ App }) => {
    // A transition: React renders the app in slices, leaving the main thread free in between
    // (a slow phone's taps and paints are not held by one long task).
    startTransition(() => {
      root.render(
        <StrictMode>
          <App />
        </StrictMode>,
      );
    });
  });
});
