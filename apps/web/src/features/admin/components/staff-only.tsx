import { Link } from 'react-router';
import { PageHead } from '../../../components/page-head';
import { StatusMessage } from '../../../components/status';

/** What a visitor or a member sees at /admin: whose area this is, and a way on. */
export function StaffOnly({ loggedIn }: { loggedIn: boolean }) {
  return (
    <>
      <PageHead title="Staff only" />
      <StatusMessage
        title="This area is for Candor staff"
        action={
          loggedIn ? undefined : (
            <Link to="/login" className="button button--primary">
              Log in
            </Link>
          )
        }
      >
        {loggedIn ? (
          <p>
            Your account is a member account. Moderators and admins review signups and written
            answers here.
          </p>
        ) : (
          <p>
            Moderators and admins log in with their staff account to review signups and answers.
          </p>
        )}
      </StatusMessage>
    </>
  );
}

/** A moderator opened an admins' tab (by its address): say so inside the staff area. */
export function AdminsOnly() {
  return (
    <div className="admin-empty" role="status">
      <h1 className="admin-panel__title">Admins only</h1>
      <p>
        Only admins write surveys, manage genres and accounts, and read the audit log, results and
        analytics. Ask an admin if you need something.
      </p>
    </div>
  );
}
