import { fireEvent } from '@testing-library/dom';
import { act } from '@testing-library/preact';

/**
 * Picks a file or a select's option as a browser does: an `input` event, then a `change`.
 * (Testing Library's Preact `fireEvent.change` sends an `input` alone, which suits text fields,
 * whose `onChange` Preact listens to as `input`, but not a select or a file input, which keep
 * listening to `change`.)
 */
export function pick(element: Element, init: object) {
  void act(() => {
    fireEvent.input(element, init);
    fireEvent.change(element, init);
  });
}

/** Leaves a field as a browser does: `blur`, then `focusout` (which Preact listens to). */
export function leave(element: Element) {
  void act(() => {
    fireEvent.blur(element);
    fireEvent.focusOut(element);
  });
}
