import { afterEach, describe, expect, it } from 'vitest';
import { activatesOnEnter, choiceIndexForKey, choiceShortcuts, shortcutAllowed } from './keys';

afterEach(() => document.body.replaceChildren());

/** A screen with a heading, a text box, a radio and a button, and a link outside it. */
function page() {
  document.body.innerHTML = `
    <a href="/">Home</a>
    <section id="screen">
      <h1 tabindex="-1">Q</h1>
      <input id="text" type="text" /><textarea id="area"></textarea>
      <div contenteditable="true" id="editable"></div>
      <input id="radio" type="radio" /><button id="button">Go</button>
      <div role="dialog"><button id="in-dialog">Close</button></div>
    </section>`;
  const el = (selector: string) => document.querySelector<HTMLElement>(selector)!;
  return { screen: el('#screen'), el };
}

/** Dispatches a key press on `target` (focused first) and says whether it may be a shortcut. */
function allowed(target: HTMLElement, scope: Element, init: KeyboardEventInit = {}) {
  target.focus();
  let result = false;
  target.addEventListener('keydown', (e) => (result = shortcutAllowed(e, scope)), { once: true });
  target.dispatchEvent(new KeyboardEvent('keydown', { key: 'a', bubbles: true, ...init }));
  return result;
}

describe('choice keys', () => {
  it('maps 1-9 and A-Z to the nth choice, and nothing else', () => {
    expect(['1', '9', 'a', 'A', 'z', 'Z'].map(choiceIndexForKey)).toEqual([0, 8, 0, 0, 25, 25]);
    expect(['0', 'Enter', ' ', 'é', '-', 'F1'].map(choiceIndexForKey)).toEqual([
      null,
      null,
      null,
      null,
      null,
      null,
    ]);
    expect([0, 8, 9, 25, 26].map(choiceShortcuts)).toEqual(['A 1', 'I 9', 'J', 'Z', undefined]);
  });
});

describe('shortcutAllowed', () => {
  it('allows a key on the screen, or with nothing focused', () => {
    const { screen, el } = page();
    expect(allowed(el('h1'), screen)).toBe(true);
    expect(allowed(el('#radio'), screen)).toBe(true);
    expect(allowed(document.body, screen)).toBe(true);
    expect(allowed(el('h1'), screen, { shiftKey: true, key: 'A' })).toBe(true);
  });

  it('refuses keys typed into a field, even on the screen', () => {
    const { screen, el } = page();
    expect(allowed(el('#text'), screen)).toBe(false);
    expect(allowed(el('#area'), screen)).toBe(false);
    expect(allowed(el('#editable'), screen)).toBe(false);
  });

  it('refuses modifiers, held keys, keys in a dialog, and focus off the screen', () => {
    const { screen, el } = page();
    expect(allowed(el('h1'), screen, { ctrlKey: true })).toBe(false);
    expect(allowed(el('h1'), screen, { metaKey: true })).toBe(false);
    expect(allowed(el('h1'), screen, { altKey: true })).toBe(false);
    expect(allowed(el('h1'), screen, { repeat: true })).toBe(false);
    expect(allowed(el('#in-dialog'), screen)).toBe(false);
    expect(allowed(el('a'), screen)).toBe(false);
    // A screen that is gone takes no keys.
    screen.remove();
    expect(allowed(document.body, screen)).toBe(false);
  });
});

describe('activatesOnEnter', () => {
  it('leaves Enter to buttons, links and fields, not to a heading, a radio or the page', () => {
    const { el } = page();
    expect([el('#button'), el('a'), el('#text'), el('#area')].map(activatesOnEnter)).toEqual([
      true,
      true,
      true,
      true,
    ]);
    expect([el('h1'), el('#radio'), document.body].map(activatesOnEnter)).toEqual([
      false,
      false,
      false,
    ]);
  });
});
