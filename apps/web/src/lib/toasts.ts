import type * as SonnerModule from 'sonner';
import type { ExternalToast } from 'sonner';

// The toast library (sonner, 10 KB gzip) is not part of a first visit: it loads with the first
// toast, or with any screen that imports it itself (every screen but the home page), and the
// app mounts its Toaster then (app/toaster.tsx). Toasts asked for meanwhile are shown in order
// once it is there.

type Sonner = typeof SonnerModule;

let sonner: Sonner | undefined;
let loading: Promise<Sonner> | undefined;
let markShown: () => void = () => undefined;
const toasterShown = new Promise<void>((resolve) => {
  markShown = resolve;
});
const queue: Array<(s: Sonner) => void> = [];
const wantedListeners = new Set<() => void>();
let wanted = false;

/** Whether the app should mount the Toaster (something asked for toasts). */
export const toastsWanted = () => wanted;

/** Calls `listener` when the Toaster should be mounted. */
export function onToastsWanted(listener: () => void): () => void {
  wantedListeners.add(listener);
  return () => wantedListeners.delete(listener);
}

/** The app mounts the Toaster: from now on, and after the next paint, toasts can show. */
export function wantToasts(): void {
  if (wanted) return;
  wanted = true;
  for (const listener of wantedListeners) listener();
}

/**
 * The Toaster reports itself on screen: queued toasts go out a moment later, so a screen reader
 * has met its live region before the first message lands in it.
 */
export function toasterMounted(): void {
  setTimeout(markShown, 100);
}

function load(): Promise<Sonner> {
  if (!loading) {
    loading = Promise.all([import('sonner'), toasterShown]).then(([module]) => {
      sonner = module;
      for (const run of queue.splice(0)) run(module);
      return module;
    });
    wantToasts();
  }
  return loading;
}

/** Runs `op` with sonner now if it is ready, else in order once it is. */
function withSonner(op: (s: Sonner) => void): void {
  if (sonner && !queue.length) {
    op(sonner);
    return;
  }
  queue.push(op);
  void load();
}

let nextId = 0;
/** The id a toast will have: known at once, though the toast may show a moment later. */
const idFor = (options?: ExternalToast) => options?.id ?? `candor-toast-${++nextId}`;

/**
 * Dismisses the error toasts on screen: they were about a try that has now worked (a wrong
 * password must not stay beside "Logged In").
 */
export function dismissErrorToasts(): void {
  withSonner(({ toast }) => {
    for (const shown of toast.getToasts()) {
      if ('type' in shown && shown.type === 'error') toast.dismiss(shown.id);
    }
  });
}

/** A success toast; the errors of earlier tries leave first. */
export function successToast(message: string, options?: ExternalToast): string | number {
  const id = idFor(options);
  dismissErrorToasts();
  withSonner(({ toast }) => toast.success(message, { ...options, id }));
  return id;
}

/** An error toast. */
export function errorToast(message: string, options?: ExternalToast): string | number {
  const id = idFor(options);
  withSonner(({ toast }) => toast.error(message, { ...options, id }));
  return id;
}
