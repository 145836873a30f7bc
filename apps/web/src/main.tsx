import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { OUTDATED_BROWSER_MESSAGE, isOutdatedBrowser } from './lib/browser-support';
import './styles/global.css';

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
