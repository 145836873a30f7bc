import { Navigate } from 'react-router';
import { AdminShell, useIsAdmin } from '../../features/admin/components/admin-shell';
import { AnalyticsPanel } from '../../features/admin/components/analytics-panel';
import { AnswersPanel } from '../../features/admin/components/answers-panel';
import { AuditLogPanel } from '../../features/admin/components/audit-log-panel';
import { ResultsPanel } from '../../features/admin/components/results-panel';
import { SignupsPanel } from '../../features/admin/components/signups-panel';
import { AdminsOnly } from '../../features/admin/components/staff-only';
import { UsersPanel } from '../../features/admin/components/users-panel';

/** `/admin`: the staff area's frame (the role guard and the tabs). */
export const AdminRoute = AdminShell;

/** `/admin` itself opens the first tab every staff member has. */
export function AdminIndexRoute() {
  return <Navigate to="/admin/signups" replace />;
}

export const AdminSignupsRoute = SignupsPanel;
export const AdminAnswersRoute = AnswersPanel;

export function AdminUsersRoute() {
  return useIsAdmin() ? <UsersPanel /> : <AdminsOnly />;
}

export function AdminAuditLogRoute() {
  return useIsAdmin() ? <AuditLogPanel /> : <AdminsOnly />;
}

export function AdminResultsRoute() {
  return useIsAdmin() ? <ResultsPanel /> : <AdminsOnly />;
}

export function AdminAnalyticsRoute() {
  return useIsAdmin() ? <AnalyticsPanel /> : <AdminsOnly />;
}
