import { useEffect, useRef } from 'react';
import { useLocation, useMatches } from 'react-router';
import { referrerHost, routePattern, sendPageView } from '../lib/analytics';
import { recordNavigation } from '../lib/survey-storage';

/**
 * Records completed navigations to a page: a first-party page view for each (the page load
 * included; not a survey's steps, which are history entries of one page), and,
 * for client-side ones only (so a reload keeps the survey position), the spec's
 * currentPath / prevPath rule.
 */
export function NavigationTracker() {
  const location = useLocation();
  const matches = useMatches();
  const params = matches[matches.length - 1]?.params ?? {};
  const shown = useRef<string | null>(null);
  const pattern = routePattern(location.pathname, params);
  useEffect(() => {
    const first = shown.current === null;
    // A step within a page (a survey's screens are history entries, for Back) is no new page.
    if (shown.current === location.pathname) return;
    shown.current = location.pathname;
    if (first) {
      sendPageView(pattern, referrerHost(document.referrer, window.location.host));
      return;
    }
    sendPageView(pattern, null);
    recordNavigation(location.pathname);
    // Once per completed navigation to another page: the key changes with each one.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [location.key]);
  return null;
}
