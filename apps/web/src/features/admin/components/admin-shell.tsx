import { NavLink, Outlet } from 'react-router';
import { useAuthStore } from '../../../lib/auth-store';
import { ROLE_LABELS, isStaff } from '../lib/wording';
import { StaffOnly } from './staff-only';
// The staff area's styles, in the cascade's order: what the whole area shares, then each area's
// own, in the order their sections had in the one file they were (a later rule wins a tie). Imported
// here, in one place, so that order does not depend on which panel's module is loaded first.
import '../styles/admin.css';
import './insights/insights.css';
import './authoring/authoring.css';
import './moderation/moderation.css';
import './account/account.css';

interface Tab {
  to: string;
  label: string;
  adminOnly: boolean;
}

const TABS: Tab[] = [
  { to: '/admin/signups', label: 'Signups', adminOnly: false },
  { to: '/admin/answers', label: 'Written answers', adminOnly: false },
  { to: '/admin/surveys', label: 'Surveys', adminOnly: true },
  { to: '/admin/genres', label: 'Genres', adminOnly: true },
  { to: '/admin/users', label: 'Users', adminOnly: true },
  { to: '/admin/audit-log', label: 'Audit log', adminOnly: true },
  { to: '/admin/results', label: 'Results', adminOnly: true },
  { to: '/admin/analytics', label: 'Analytics', adminOnly: true },
  { to: '/admin/api-tokens', label: 'API tokens', adminOnly: true },
  { to: '/admin/webhooks', label: 'Webhooks', adminOnly: true },
  { to: '/admin/passkeys', label: 'Passkeys', adminOnly: false },
];

/**
 * The staff area's frame: only moderators and admins get past it; the tabs an admin sees,
 * a moderator does not (the API refuses those lists to moderators anyway).
 */
export function AdminShell() {
  const auth = useAuthStore((s) => s.auth);
  const user = useAuthStore((s) => s.user);
  const initialLoading = useAuthStore((s) => s.initialLoading);

  if (initialLoading || (auth && !user)) {
    return <div className="page-loading" aria-busy="true" aria-label="Loading" />;
  }
  if (!auth || !user) return <StaffOnly loggedIn={false} />;
  if (!isStaff(user.role)) return <StaffOnly loggedIn />;

  const tabs = TABS.filter((t) => !t.adminOnly || user.role === 'admin');
  return (
    <div className="admin">
      <header className="admin__head">
        <p className="admin__eyebrow">
          Staff area <span className="role-badge">{ROLE_LABELS[user.role]}</span>
        </p>
        <nav aria-label="Staff" className="admin__tabs">
          {tabs.map((t) => (
            <NavLink key={t.to} to={t.to} className="admin__tab">
              {t.label}
            </NavLink>
          ))}
        </nav>
      </header>
      <Outlet />
    </div>
  );
}

/** True for admins: their tabs show; a moderator who types such an address is told why not. */
export function useIsAdmin(): boolean {
  return useAuthStore((s) => s.user?.role === 'admin');
}
