/** Below this window height (px) a touch device is told to use landscape (spec section 9). */
export const LANDSCAPE_MIN_HEIGHT = 560;

export interface View {
  isTouch: boolean;
  width: number;
  height: number;
}

/**
 * Why a touch device sees the landscape alert (spec section 2): `portrait`, or `low` (landscape,
 * lower than 560 px); null when it sees none.
 */
export function landscapeAlertReason(view: View): 'portrait' | 'low' | null {
  if (!view.isTouch) return null;
  if (view.height > view.width) return 'portrait';
  return view.height < LANDSCAPE_MIN_HEIGHT ? 'low' : null;
}

/** Touch devices see the landscape alert in portrait, or when the window is lower than 560 px. */
export function shouldShowLandscapeAlert(view: View): boolean {
  return landscapeAlertReason(view) !== null;
}

/** What the alert says on a screen with a video or a graph: never "turn" to a phone on its side. */
export function landscapeAdvice(reason: 'portrait' | 'low', topic: 'video' | 'graph'): string {
  if (reason === 'portrait') {
    return topic === 'video'
      ? 'Turn your phone sideways to watch the video bigger.'
      : 'Turn your phone sideways to see the graph wider.';
  }
  return topic === 'video'
    ? 'Little room on this screen: the player’s full screen button gives the video all of it.'
    : 'Little room on this screen: scroll to see the whole graph.';
}
