/**
 * "Enter ↵" beside a screen's primary button, as Typeform shows it: for keyboard users, hidden
 * on touch screens (`.key-only`) and from screen readers (the button's name stays its words).
 */
export function EnterHint() {
  return (
    <kbd className="key-hint key-only" aria-hidden="true">
      Enter ↵
    </kbd>
  );
}
