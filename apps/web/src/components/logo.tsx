/** The Candor mark: a circle, half lit (a mirror). */
export function Logo({ size = 28 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 64 64" aria-hidden="true" focusable="false">
      <rect width="64" height="64" rx="14" fill="currentColor" />
      <circle cx="32" cy="32" r="17" fill="none" stroke="var(--paper)" strokeWidth="6" />
      <path d="M32 15a17 17 0 0 1 0 34z" fill="var(--violet)" />
    </svg>
  );
}
