import { timeAgo } from '@candor/contracts';

const absolute = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short' });

/** "3 hours ago", with the exact date and time on hover and for assistive technology. */
export function When({ at }: { at: string }) {
  const exact = absolute.format(new Date(at));
  return (
    <time dateTime={at} title={exact} className="when">
      {timeAgo(at)}
    </time>
  );
}
