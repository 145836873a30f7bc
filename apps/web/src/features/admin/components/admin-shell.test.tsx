import type { User } from '@candor/contracts';
import { render, screen } from '@testing-library/preact';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { useAuthStore } from '../../../lib/auth-store';
import { AdminShell } from './admin-shell';

const person: User = {
  uuid: '00000000-0000-4000-8000-000000000001',
  name: '',
  phone_number: '+12025550101',
  country: 'US',
  role: 'member',
  status: 'active',
};

function show(user: User | null) {
  useAuthStore.setState({ auth: user !== null, user, initialLoading: false });
  render(
    <MemoryRouter initialEntries={['/admin/signups']}>
      <Routes>
        <Route path="/admin" element={<AdminShell />}>
          <Route path="signups" element={<p>the signups queue</p>} />
        </Route>
      </Routes>
    </MemoryRouter>,
  );
}

const tabs = () =>
  screen
    .queryAllByRole('navigation', { name: 'Staff' })
    .flatMap((nav) => Array.from(nav.querySelectorAll('a')).map((a) => a.textContent));

afterEach(() => useAuthStore.setState({ auth: false, user: null, initialLoading: true }));

describe('AdminShell (the staff-only guard)', () => {
  it('tells a visitor the area is for staff and offers to log in', () => {
    show(null);
    expect(screen.getByRole('heading', { name: 'This area is for Candor staff' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Log in' }).getAttribute('href')).toBe('/login');
    expect(screen.queryByText('the signups queue')).toBeNull();
  });

  it('tells a member the same, without a login link, and shows nothing of the queue', () => {
    show(person);
    expect(screen.getByRole('heading', { name: 'This area is for Candor staff' })).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Log in' })).toBeNull();
    expect(screen.queryByText('the signups queue')).toBeNull();
    expect(tabs()).toEqual([]);
  });

  it("shows a moderator the moderation tabs only, not the admins' tabs", () => {
    show({ ...person, role: 'moderator' });
    expect(screen.getByText('the signups queue')).toBeTruthy();
    // Their own passkeys too (decision 024).
    expect(tabs()).toEqual(['Signups', 'Written answers', 'Passkeys']);
  });

  it('shows an admin every tab', () => {
    show({ ...person, role: 'admin' });
    expect(tabs()).toEqual([
      'Signups',
      'Written answers',
      'Surveys',
      'Genres',
      'Users',
      'Audit log',
      'Results',
      'Analytics',
      'API tokens',
      'Webhooks',
      'Passkeys',
    ]);
  });
});
