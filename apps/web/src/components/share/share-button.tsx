import { copyLink } from '../../lib/copy-link';
import './share.css';

/** Whether the browser has a share sheet (phones, and a few desktop browsers). */
export const canShareLinks = (): boolean =>
  typeof (navigator as Partial<Navigator>).share === 'function';

/** The share icon: a box with an arrow leaving it, as phones draw it. */
export function ShareIcon() {
  return (
    <svg
      className="share-icon"
      width="18"
      height="18"
      viewBox="0 0 24 24"
      aria-hidden="true"
      focusable="false"
    >
      <path
        d="M12 3v12M7.5 7.5 12 3l4.5 4.5M5 12v7a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2v-7"
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}

/**
 * Shares a survey's link: the phone's share sheet where there is one, else the link copied (a
 * toast says so). It says "Share" either way, as the server draws it in a survey's intro before
 * the app knows which browser it is in: the button keeps its size when the app takes over.
 * What is shared is the survey's public link and its name only, never an answer, a token or a
 * number: the link is the one the API gives as `shareable_link`.
 */
export function ShareButton({
  title,
  text,
  url,
  className = 'button',
}: {
  title: string;
  text: string;
  url: string;
  className?: string;
}) {
  function share() {
    if (!canShareLinks()) {
      copyLink(url);
      return;
    }
    navigator.share({ title, text, url }).catch((err: unknown) => {
      // Closing the sheet is a choice, not a failure; anything else falls back to copying.
      if (!(err instanceof DOMException && err.name === 'AbortError')) copyLink(url);
    });
  }
  return (
    <button type="button" className={`${className} share-button`} onClick={share}>
      <ShareIcon />
      Share
    </button>
  );
}
