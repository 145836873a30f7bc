import { useEffect, useEffectEvent, useRef, type RefObject } from 'react';

/**
 * Keyboard answering, as on Typeform: `1`-`9` or `A`-`Z` pick a question's nth choice, digits
 * rate, Enter goes on. The rules of when a key counts live here, apart from the screens, so
 * they are the same on every screen (docs/decisions/016-answering-keys.md).
 */

/** How long a pick stays on screen, marked, before the flow goes on by itself (ms). */
export const ADVANCE_MS = 350;

const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** The index of the choice a key picks (`1` or `a` → 0), or null for any other key. */
export function choiceIndexForKey(key: string): number | null {
  if (/^[1-9]$/.test(key)) return Number(key) - 1;
  if (key.length === 1) {
    const i = LETTERS.indexOf(key.toUpperCase());
    if (i >= 0) return i;
  }
  return null;
}

/** The letter shown on the nth choice (`A` for 0), or null past `Z`. */
export const choiceLetter = (index: number): string | null => LETTERS[index] ?? null;

/** The keys that pick the nth choice, for `aria-keyshortcuts` (`"A 1"`, or `"J"` past 9). */
export function choiceShortcuts(index: number): string | undefined {
  const letter = choiceLetter(index);
  if (!letter) return undefined;
  return index < 9 ? `${letter} ${index + 1}` : letter;
}

const TEXT_INPUT_TYPES = new Set([
  'text',
  'search',
  'email',
  'tel',
  'url',
  'password',
  'number',
  'date',
  'datetime-local',
  'month',
  'time',
  'week',
]);

/** A field that takes typed characters: a key there is text, never a shortcut. */
export function isTextEntry(el: Element | null): boolean {
  if (!el) return false;
  if (el instanceof HTMLTextAreaElement || el instanceof HTMLSelectElement) return true;
  if (el instanceof HTMLInputElement) return TEXT_INPUT_TYPES.has(el.type);
  return (
    (el instanceof HTMLElement && el.isContentEditable) ||
    el.closest('[contenteditable]:not([contenteditable="false"])') !== null
  );
}

/**
 * A control Enter already activates (a button, a link, a video's controls): Enter there is that
 * control's, not the screen's. A radio is not: Enter on a rating goes on.
 */
export function activatesOnEnter(el: Element | null): boolean {
  if (!el || el === document.body) return false;
  if (el instanceof HTMLInputElement) return el.type !== 'radio' && el.type !== 'checkbox';
  return (
    el.closest(
      'a[href], button, select, textarea, summary, video, audio, iframe, [role="button"], [role="link"], [role="tab"], [role="menuitem"], [contenteditable="true"]',
    ) !== null
  );
}

/**
 * Whether a key press may act as a shortcut on the screen `scope`: not a repeat, not typed into
 * a field, no Ctrl, Alt or Meta (the browser's and the system's), not in a dialog, and focus in
 * the screen (or nowhere, on the page's body). Focus elsewhere (the navbar, a toast) means the
 * person is doing something else. Shift is allowed: capitals, and digits on some layouts.
 */
export function shortcutAllowed(event: KeyboardEvent, scope: Element | null): boolean {
  if (event.defaultPrevented || event.repeat || event.isComposing) return false;
  if (event.ctrlKey || event.altKey || event.metaKey || event.getModifierState('AltGraph')) {
    return false;
  }
  if (!scope?.isConnected) return false;
  const target = event.target instanceof Element ? event.target : null;
  if (isTextEntry(target)) return false;
  const focus = document.activeElement;
  if (focus && focus !== document.body && !scope.contains(focus)) return false;
  return !target?.closest('dialog, [role="dialog"], [role="alertdialog"], [role="menu"]');
}

/**
 * Calls `onKey` for each key press allowed as a shortcut on the screen in `scope` (see
 * `shortcutAllowed`), while `enabled`. It calls `preventDefault()` for a key it used.
 */
export function useScreenKeys(
  scope: RefObject<Element | null>,
  onKey: (event: KeyboardEvent) => void,
  enabled = true,
) {
  const handle = useEffectEvent((event: KeyboardEvent) => {
    if (shortcutAllowed(event, scope.current)) onKey(event);
  });
  useEffect(() => {
    if (!enabled) return;
    window.addEventListener('keydown', handle);
    return () => window.removeEventListener('keydown', handle);
  }, [enabled]);
}

/**
 * An Enter this soon after a screen appears (ms) is the last screen's Enter pressed twice, not
 * a decision about this one: the double press must not skip a screen unseen.
 */
export const ENTER_ARMS_AFTER_MS = 300;

/**
 * Enter goes on: calls `action` once, however often Enter is pressed or held (a screen goes on
 * once; the next screen has its own), and not in the first moment of the screen. Enter on a
 * button or link is left to that control.
 */
export function useEnterToGoOn(
  scope: RefObject<Element | null>,
  action: () => void,
  enabled = true,
) {
  const done = useRef(false);
  const shownAt = useRef(0);
  useEffect(() => {
    if (enabled) shownAt.current = performance.now();
  }, [enabled]);
  useScreenKeys(
    scope,
    (event) => {
      if (event.key !== 'Enter' || event.shiftKey) return;
      if (activatesOnEnter(event.target instanceof Element ? event.target : null)) return;
      event.preventDefault();
      if (done.current || performance.now() - shownAt.current < ENTER_ARMS_AFTER_MS) return;
      done.current = true;
      action();
    },
    enabled,
  );
}
