import { toast } from 'sonner';
import { describe, expect, it } from 'vitest';
import {
  dismissErrorToasts,
  errorToast,
  onToastsWanted,
  successToast,
  toasterMounted,
  toastsWanted,
} from './toasts';

const shown = () =>
  toast.getToasts().map((t) => ('type' in t ? `${t.type ?? ''}:${String(t.title)}` : ''));

describe('toasts before and after the Toaster', () => {
  it('asks for the Toaster, holds toasts until it is on screen, then shows them in order', async () => {
    let asked = 0;
    const off = onToastsWanted(() => asked++);
    expect(toastsWanted()).toBe(false);

    errorToast('Wrong password');
    const id = successToast('Logged In');
    // Known at once, though nothing is on screen yet: the library and the Toaster load first.
    expect(id).toMatch(/^candor-toast-\d+$/);
    expect(asked).toBe(1);
    expect(toastsWanted()).toBe(true);
    await new Promise((r) => setTimeout(r, 50));
    expect(shown()).toEqual([]);

    toasterMounted();
    // The success dismissed the error it came after: only it is left.
    await expect.poll(shown).toEqual(['success:Logged In']);

    // Once ready, a toast shows at once.
    errorToast('Offline');
    expect(shown()).toContain('error:Offline');
    dismissErrorToasts();
    expect(shown()).not.toContain('error:Offline');
    off();
  });
});
