/** Below this window height (px) a touch device is told to use landscape (spec section 9). */
export const LANDSCAPE_MIN_HEIGHT = 560;

/** Touch devices see the landscape alert in portrait, or when the window is lower than 560 px. */
export function shouldShowLandscapeAlert(view: {
  isTouch: boolean;
  width: number;
  height: number;
}): boolean {
  if (!view.isTouch) return false;
  const portrait = view.height > view.width;
  return portrait || view.height < LANDSCAPE_MIN_HEIGHT;
}
