import { useEffect } from 'react';
import { useBlocker } from 'react-router';
import { ConfirmDialog } from '../confirm-dialog';

/**
 * Asks before leaving a screen with changes that are not saved: a link inside the app opens a
 * dialog; closing or reloading the tab gets the browser's own question. One per screen (the
 * router keeps one blocker at a time).
 */
export function UnsavedGuard({ when, what }: { when: boolean; what: string }) {
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      when && currentLocation.pathname !== nextLocation.pathname,
  );

  useEffect(() => {
    if (!when) return;
    const ask = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener('beforeunload', ask);
    return () => window.removeEventListener('beforeunload', ask);
  }, [when]);

  return (
    <ConfirmDialog
      open={blocker.state === 'blocked'}
      title="Leave without saving?"
      confirmLabel="Leave"
      cancelLabel="Stay"
      danger
      onCancel={() => blocker.reset?.()}
      onConfirm={() => blocker.proceed?.()}
    >
      <p>{what} will be lost.</p>
    </ConfirmDialog>
  );
}
