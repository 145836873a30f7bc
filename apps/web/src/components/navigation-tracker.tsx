import { useEffect, useRef } from 'react';
import { useLocation, useMatches } from 'react-router';
import { referrerHost, routePattern, sendPageView } from '../lib/analytics';
import { recordNavigation } from '../lib/survey-storage';

/**
 * Records completed navigations: a first-party page view for each (the page load included), and,
 * for client-side ones only (so a reload keeps the survey position), the spec's
 * currentPath / prevPath rule.
 */
export function NavigationTracker() {
  const location = useLocation();
  const matches = useMatches();
  const params = matches[matches.length - 1]?.params ?? {};
  const first = useRef(true);
  const pattern = routePattern(location.pathname, params);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      sendPageView(pattern, referrerHost(document.referrer, window.location.host));
      return;
    }
    sendPageView(pattern, null);
    recordNavigation(location.pathname);
    // Once per completed navigation: the key changes with each one.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [location.key]);
  return null;
}
