import type { ReviewReason } from '@candor/contracts';
import type { PhoneNumberType } from 'libphonenumber-js/max';

/** Verified signups from one IP in 24 h above which an account goes to review. */
export const MAX_SIGNUPS_PER_IP_PER_DAY = 3;
/** Verified signups sharing the first 8 digits of E.164 in 24 h above which: review. */
export const MAX_SIGNUPS_PER_PREFIX_PER_DAY = 5;
export const PHONE_PREFIX_DIGITS = 8;

const RISKY_TYPES: Partial<Record<PhoneNumberType, string>> = {
  VOIP: 'a VoIP number',
  PREMIUM_RATE: 'a premium-rate number',
  SHARED_COST: 'a shared-cost number',
  PERSONAL_NUMBER: 'a personal (forwarding) number',
  PAGER: 'a pager number',
  UAN: 'a universal access number',
};

/** Reasons, in words for moderators, to review a signup before its answers count. */
export function riskReasons(input: {
  type: PhoneNumberType | undefined;
  signupsFromIp: number;
  signupsFromPrefix: number;
  reviewAll: boolean;
}): string[] {
  const reasons: string[] = [];
  if (input.type === undefined) reasons.push('The phone number is of an unknown type.');
  else if (RISKY_TYPES[input.type]) {
    reasons.push(`The phone number is ${RISKY_TYPES[input.type]}.`);
  }
  if (input.signupsFromIp > MAX_SIGNUPS_PER_IP_PER_DAY) {
    reasons.push(`${input.signupsFromIp} signups from the same IP address in 24 hours.`);
  }
  if (input.signupsFromPrefix > MAX_SIGNUPS_PER_PREFIX_PER_DAY) {
    reasons.push(`${input.signupsFromPrefix} signups from the same number range in 24 hours.`);
  }
  if (input.reviewAll) reasons.push('Every signup is reviewed (REVIEW_ALL_SIGNUPS).');
  return reasons;
}

// The kind of each reason riskReasons writes, told by its words (the reasons are stored as text).
const KINDS: ReadonlyArray<[RegExp, ReviewReason]> = [
  [/^The phone number is /, 'number_type'],
  [/ signups from the same IP address /, 'shared_network'],
  [/ signups from the same number range /, 'number_range'],
  [/^Every signup is reviewed/, 'all'],
];

/** The kinds of a held signup's reasons, for its owner (who is not shown the counts). */
export function reviewReasonKinds(reasons: readonly string[]): ReviewReason[] {
  const kinds = new Set<ReviewReason>();
  for (const reason of reasons) {
    const kind = KINDS.find(([words]) => words.test(reason))?.[1];
    if (kind) kinds.add(kind);
  }
  return [...kinds];
}
