import { errorToast, successToast } from './toasts';

/** Copies a link to the clipboard and says whether it worked (a toast either way). */
export function copyLink(link: string): void {
  // Undefined outside secure contexts, whatever the DOM types say.
  void (navigator.clipboard as Clipboard | undefined)
    ?.writeText(link)
    .then(() => successToast('Link copied'))
    .catch(() => errorToast('Copy the link by hand: your browser did not allow it.'));
}
