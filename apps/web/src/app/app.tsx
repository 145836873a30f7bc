import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode, Suspense, lazy, useSyncExternalStore } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { useAuthStore } from '../lib/auth-store';
import { provideLocalAnswers } from '../lib/local-answers';
import { mirrorKey } from '../lib/query-keys';
import { keepVisitorSessionLive } from '../lib/visitor-session';
import { errorToast, onToastsWanted, toastsWanted, wantToasts } from '../lib/toasts';
import { tokenSubject } from '../lib/tokens';
import { router } from './router';

const Toaster = lazy(() => import('./toaster'));

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // A 404 will not turn into a 200 by asking again; network hiccups might.
      retry: (count, error) => count < 2 && !('status' in error && error.status === 404),
      refetchOnWindowFocus: false,
    },
  },
});

// Restore the session once at start when both tokens are stored (spec section 4).
void useAuthStore.getState().restore();

// Answers wait in the browser's outbox until a session (and a network) can send them; on login
// a visitor's answers wait for the person to say they are theirs (the claim question, issue
// 28). The outbox (and the browser database behind it) loads with the first session, the first
// survey screen or a "this is not my device", not on a first visit.
provideLocalAnswers(() => import('../features/answering/api/outbox'));
// A reloaded tab's visitor answers stay its own: another tab must not take them for ended.
keepVisitorSessionLive();
let outboxWired = false;
function wireOutbox() {
  if (outboxWired) return;
  outboxWired = true;
  void import('../features/answering/api/outbox').then((outbox) => {
    const syncOwner = () => {
      const { auth, user } = useAuthStore.getState();
      void outbox.setOutboxOwner(auth ? tokenSubject() : null);
      // The breakdown class answers carry with their credential (decision 020).
      outbox.setOutboxProfile(auth ? user : null);
    };
    syncOwner();
    useAuthStore.subscribe(syncOwner);
    // The member's vault reads and applies the records the outbox keeps (decision 020).
    void import('../lib/vault').then((v) =>
      v.provideVaultData({ read: outbox.vaultContents, apply: outbox.applyVault }),
    );
    outbox.startOutbox();
    outbox.onOutbox((event) => {
      // Answers the vault brought from another device, or the account's of before credentials:
      // the mirror and the outro read again.
      if (event.type === 'restored') {
        void queryClient.invalidateQueries({ queryKey: mirrorKey });
      }
      if (event.type === 'dropped' && event.item.kind === 'answer') {
        errorToast(
          event.error.code === 'ALREADY_ANSWERED'
            ? 'You had already answered one of these questions; your first answer is the one counted.'
            : event.error.message,
        );
      }
    });
  });
}
if (useAuthStore.getState().auth) wireOutbox();
useAuthStore.subscribe((state) => {
  if (state.auth) wireOutbox();
});

// The Toaster loads with the first toast (lib/toasts.ts) or the first screen other than the
// home page: every other screen may show toasts of its own (and loads the library anyway).
const wantToastsAt = (pathname: string) => {
  if (pathname !== '/') wantToasts();
};
wantToastsAt(router.state.location.pathname);
router.subscribe((state) => wantToastsAt(state.location.pathname));

function Toasts() {
  const wanted = useSyncExternalStore(onToastsWanted, toastsWanted);
  return wanted ? (
    <Suspense fallback={null}>
      <Toaster />
    </Suspense>
  ) : null;
}

export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
      <Toasts />
    </QueryClientProvider>
  );
}

/**
 * Renders the app into `container`, replacing what the server drew there (the home page, a
 * survey's intro) in one commit. Not before the router has the first screen's module: until
 * then it would render its loading placeholder over the drawing. Not in a transition: a
 * time-sliced first render lets a lazy route finish loading before RouterProvider subscribes to
 * the router, and that update would be lost (the page would stay on its loading placeholder).
 */
export function start(container: HTMLElement): void {
  const render = () =>
    createRoot(container).render(
      <StrictMode>
        <App />
      </StrictMode>,
    );
  if (router.state.initialized) {
    render();
    return;
  }
  const stop = router.subscribe((state) => {
    if (!state.initialized) return;
    stop();
    render();
  });
}
