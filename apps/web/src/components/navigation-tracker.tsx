import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router';
import { recordNavigation } from '../lib/survey-storage';

/**
 * Records completed client-side navigations (not the page load itself, so a reload keeps the
 * survey position) for the spec's currentPath / prevPath rule.
 */
export function NavigationTracker() {
  const location = useLocation();
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    recordNavigation(location.pathname);
  }, [location.key, location.pathname]);
  return null;
}
