import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { OUTDATED_BROWSER_MESSAGE, isOutdatedBrowser } from './lib/browser-support';
import { installTrustedTypesPolicy } from './lib/trusted-types';
import './styles/global.css';

// Before anything renders or loads: the CSP requires Trusted Types.
installTrustedTypesPolicy();

const root = createRoot(document.getElementById('root')!);

if (isOutdatedBrowser(navigator.userAgent)) {
  // Spec: an outdated browser sees only this message, nothing of the app.
  root.render(<p className="outdated">{OUTDATED_BROWSER_MESSAGE}</p>);
} else {
  void import('./app/app').then(({ App }) =>
    root.render(
      <StrictMode>
        <App />
      </StrictMode>,
    ),
  );
}
