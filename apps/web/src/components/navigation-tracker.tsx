import { useEffect, useRef } from 'react';
import { useLocation, useMatches } from 'react-router';
import { referrerHost, routePattern, sendPageView } from '../lib/analytics';
import { useAuthStore } from '../lib/auth-store';
import { recordNavigation } from '../lib/survey-storage';

/**
 * Records completed navigations to a page: a first-party page view for each (the page load
 * included; not a survey's steps, which are history entries of one page), and,
 * for client-side ones only (so a reload keeps the survey position), the spec's
 * currentPath / prevPath rule. Staff's views are not traffic: none is sent from the staff area,
 * nor by a signed-in moderator or admin anywhere (the API drops /admin views too).
 */
export function NavigationTracker() {
  const location = useLocation();
  const matches = useMatches();
  const params = matches[matches.length - 1]?.params ?? {};
  const shown = useRef<string | null>(null);
  const pattern = routePattern(location.pathname, params);
  const role = useAuthStore((s) => s.user?.role);
  const counted = role !== 'moderator' && role !== 'admin' && !/^\/admin(\/|$)/.test(pattern);
  useEffect(() => {
    const first = shown.current === null;
    // A step within a page (a survey's screens are history entries, for Back) is no new page.
    if (shown.current === location.pathname) return;
    shown.current = location.pathname;
    if (first) {
      if (counted) sendPageView(pattern, referrerHost(document.referrer, window.location.host));
      return;
    }
    if (counted) sendPageView(pattern, null);
    recordNavigation(location.pathname);
    // Once per completed navigation to another page: the key changes with each one.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [location.key]);
  return null;
}
