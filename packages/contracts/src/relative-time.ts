/** Relative dates as every screen says them; the server draws a survey's intro with it too. */
const MINUTE = 60;
const units: Array<[name: string, seconds: number]> = [
  ['year', 365 * 86_400],
  ['month', 30 * 86_400],
  ['week', 7 * 86_400],
  ['day', 86_400],
  ['hour', 3_600],
  ['minute', MINUTE],
];

/** "just now" under a minute, else "3 days ago" in the largest unit that fits (spec section 9). */
export function timeAgo(date: Date | string, now: Date = new Date()): string {
  const seconds = Math.floor((now.getTime() - new Date(date).getTime()) / 1000);
  if (seconds < MINUTE) return 'just now';
  for (const [name, size] of units) {
    const count = Math.floor(seconds / size);
    if (count >= 1) return `${count} ${name}${count === 1 ? '' : 's'} ago`;
  }
  return 'just now';
}

/** "in under a minute", else "in 3 days" in the largest unit that fits: a time still to come. */
export function timeUntil(date: Date | string, now: Date = new Date()): string {
  const seconds = Math.floor((new Date(date).getTime() - now.getTime()) / 1000);
  for (const [name, size] of units) {
    const count = Math.floor(seconds / size);
    if (count >= 1) return `in ${count} ${name}${count === 1 ? '' : 's'}`;
  }
  return 'in under a minute';
}
