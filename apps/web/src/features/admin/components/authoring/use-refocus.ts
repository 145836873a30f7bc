import { useCallback, useEffect, useRef } from 'react';

/**
 * Keeps the keyboard where the person was after a list moves: `refocus(ids)` focuses, after the
 * next renders, the first of the elements with these ids that exists and is enabled (a row's
 * "Move up" button, else its "Move down" once it reaches the top). It waits through a few
 * renders, for a move that is saved first.
 */
export function useRefocus(): (...ids: string[]) => void {
  const pending = useRef<{ ids: string[]; tries: number } | null>(null);
  useEffect(() => {
    const want = pending.current;
    if (!want) return;
    for (const id of want.ids) {
      const el = document.getElementById(id);
      if (el && !(el as HTMLButtonElement).disabled) {
        el.focus();
        pending.current = null;
        return;
      }
    }
    want.tries += 1;
    if (want.tries > 5) pending.current = null;
  });
  return useCallback((...ids: string[]) => {
    pending.current = { ids, tries: 0 };
  }, []);
}
