import { errorToast, successToast } from './toasts';

/**
 * Copies a link (or another text, named by `what`) to the clipboard and says whether it worked
 * (a toast either way).
 */
export function copyLink(link: string, what = 'link'): void {
  // Undefined outside secure contexts, whatever the DOM types say.
  void (navigator.clipboard as Clipboard | undefined)
    ?.writeText(link)
    .then(() => successToast(`${what[0]!.toUpperCase()}${what.slice(1)} copied`))
    .catch(() => errorToast(`Copy the ${what} by hand: your browser did not allow it.`));
}
