import { cleanup } from '@testing-library/preact';
import { afterAll, afterEach, beforeEach, vi } from 'vitest';

afterEach(() => cleanup());

// Preact runs effects and their cleanups after paint, on a timer of up to 35 ms: let those of
// the last test run while the DOM still exists. Under load, one fired after the environment was
// torn down ("window is not defined" in a QueryClient's unmount) and failed the whole run.
afterAll(() => new Promise<void>((resolve) => setTimeout(resolve, 50)));

// An unexpected console.error fails the test that caused it.
let errors: unknown[][] = [];
beforeEach(() => {
  errors = [];
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    errors.push(args);
  });
});
afterEach(() => {
  vi.restoreAllMocks();
  if (errors.length) {
    throw new Error(
      `Unexpected console.error:\n${errors.map((a) => a.map(String).join(' ')).join('\n')}`,
    );
  }
});

// jsdom has <dialog> but not its modal methods: the least of them, so a dialog opens and closes
// in unit tests (its focus trapping and backdrop are a browser's, tested end to end).
const dialog: Partial<HTMLDialogElement> = HTMLDialogElement.prototype;
if (!dialog.showModal) {
  dialog.showModal = function showModal(this: HTMLDialogElement) {
    this.open = true;
  };
  dialog.close = function close(this: HTMLDialogElement) {
    if (!this.open) return;
    this.open = false;
    this.dispatchEvent(new Event('close'));
  };
}
