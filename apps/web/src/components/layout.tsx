import { Link, NavLink, Outlet, ScrollRestoration, useNavigate } from 'react-router';
import { successToast } from '../lib/toasts';
import { useAuthStore } from '../lib/auth-store';
import { Logo } from './logo';
import { NavigationTracker } from './navigation-tracker';

function AccountLinks() {
  const auth = useAuthStore((s) => s.auth);
  const role = useAuthStore((s) => s.user?.role);
  const logout = useAuthStore((s) => s.logout);
  const navigate = useNavigate();
  // Held tokens show a member's links at once (Admin follows the loaded user); a session that
  // cannot be restored turns them back into a visitor's.
  if (auth) {
    return (
      <>
        {role === 'moderator' || role === 'admin' ? (
          <NavLink to="/admin" className="navbar__admin">
            Admin
          </NavLink>
        ) : null}
        <NavLink to="/me">My mirror</NavLink>
        <button
          type="button"
          className="navbar__button"
          onClick={() => {
            void logout().then(() => {
              successToast('Logged out');
              void navigate('/');
            });
          }}
        >
          Log out
        </button>
      </>
    );
  }
  return (
    <>
      <NavLink to="/login">Log in</NavLink>
      <Link to="/signup" className="navbar__cta">
        Sign up
      </Link>
    </>
  );
}

export function Layout() {
  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="navbar">
        <div className="navbar__inner">
          <Link to="/" className="navbar__brand" aria-label="Candor home">
            <Logo />
            <span>Candor</span>
          </Link>
          <nav aria-label="Main" className="navbar__links">
            <NavLink to="/" end className="navbar__surveys">
              Surveys
            </NavLink>
            <AccountLinks />
          </nav>
        </div>
      </header>
      <main id="main" className="main">
        <Outlet />
      </main>
      <footer className="footer">
        <p>
          Candor · answers are anonymous unless you choose otherwise · every signup is verified
          human · <Link to="/privacy">Privacy</Link>
        </p>
      </footer>
      <NavigationTracker />
      <ScrollRestoration />
    </div>
  );
}
