import type { PasskeyList } from '@candor/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen } from '@testing-library/preact';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { PasskeysPanel } from './passkeys-panel';

const list: PasskeyList = {
  results: [
    {
      id: '00000000-0000-4000-8000-000000000001',
      name: 'Laptop',
      created_at: '2026-11-20T10:00:00Z',
      last_used_at: null,
      transports: ['internal'],
    },
  ],
  totp: true,
};

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

beforeEach(() => {
  // jsdom has no modal dialogs: the native methods just toggle "open".
  HTMLDialogElement.prototype.showModal ??= function (this: HTMLDialogElement) {
    this.open = true;
  };
  HTMLDialogElement.prototype.close ??= function (this: HTMLDialogElement) {
    this.open = false;
  };
  vi.stubGlobal(
    'fetch',
    vi.fn((url: string, init?: RequestInit) =>
      Promise.resolve(
        init?.method === 'DELETE'
          ? json(403, {
              code: 'REAUTH_REQUIRED',
              detail: 'For your safety this needs a login from the last 10 minutes.',
            })
          : url.endsWith('/v1/admin/passkeys/')
            ? json(200, list)
            : json(404, {}),
      ),
    ),
  );
});
afterEach(() => vi.unstubAllGlobals());

it('says in place that changing passkeys needs a fresh login, with the way to one', async () => {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <PasskeysPanel />
    </QueryClientProvider>,
  );
  fireEvent.click(await screen.findByRole('button', { name: /Remove Laptop/ }));
  fireEvent.click(await screen.findByRole('button', { name: 'Remove passkey' }));
  const alert = await screen.findByRole('alert');
  expect(alert.textContent).toContain('needs a login from the last 10 minutes');
  expect(screen.getByRole('button', { name: 'Log out to log in again' })).toBeTruthy();
  // Still listed: nothing was removed.
  expect(screen.getByText('Laptop')).toBeTruthy();
});
