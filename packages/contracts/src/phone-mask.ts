// Staff see numbers masked (PRODUCT.md): the country code and the last three digits, never more.
// The API masks before anything leaves it; this is the one place the form is decided.

/** The mask character, a bullet: what staff read in place of a hidden digit. */
export const MASK_DOT = '•';

/** How many of a number's last digits the mask keeps. */
export const MASK_KEPT_DIGITS = 3;

/**
 * Country calling codes of one and two digits (ITU E.164); every other one has three. The codes
 * are prefix-free, so the first one to match a number is its own.
 */
const SHORT_CODES = new Set([
  '1',
  '7',
  '20',
  '27',
  '30',
  '31',
  '32',
  '33',
  '34',
  '36',
  '39',
  '40',
  '41',
  '43',
  '44',
  '45',
  '46',
  '47',
  '48',
  '49',
  '51',
  '52',
  '53',
  '54',
  '55',
  '56',
  '57',
  '58',
  '60',
  '61',
  '62',
  '63',
  '64',
  '65',
  '66',
  '81',
  '82',
  '84',
  '86',
  '90',
  '91',
  '92',
  '93',
  '94',
  '95',
  '98',
]);

/** The country calling code of an E.164 number's digits ("447700900123" -> "44"). */
function callingCode(digits: string): string {
  for (const length of [1, 2]) {
    const code = digits.slice(0, length);
    if (SHORT_CODES.has(code)) return code;
  }
  return digits.slice(0, 3);
}

/** Sizes of `n` dots in groups of 2 or 3, larger first, as evenly as they go (7 -> 3, 2, 2). */
function groupSizes(n: number): number[] {
  if (n <= 0) return [];
  const groups = Math.ceil(n / 3);
  const small = Math.floor(n / groups);
  const larger = n - small * groups;
  return Array.from({ length: groups }, (_, i) => small + (i < larger ? 1 : 0));
}

/**
 * An E.164 number as staff see it: its country code and its last three digits, dots for the
 * rest ("+447700900123" -> "+44 ••• ••• •123"). A short number keeps fewer digits, so at least
 * four always stay hidden; anything that is not E.164 is all dots.
 */
export function maskPhoneNumber(e164: string): string {
  const digits = /^\+(\d{4,20})$/.exec(e164)?.[1];
  if (!digits) return `+${MASK_DOT.repeat(3)}`;
  const code = callingCode(digits);
  const national = digits.slice(code.length);
  const kept = Math.min(MASK_KEPT_DIGITS, Math.max(0, national.length - 4));
  // The last group is one dot and the kept digits ("•123"); the dots before it go in threes.
  const lead = Math.max(0, national.length - kept - 1);
  let at = 0;
  const groups = groupSizes(lead).map((size) => {
    at += size;
    return MASK_DOT.repeat(size);
  });
  const tail =
    MASK_DOT.repeat(national.length - at - kept) + national.slice(national.length - kept);
  return `+${code} ${[...groups, tail].filter(Boolean).join(' ')}`;
}

/** Whether `shown` is a masked number (staff were sent no whole one). */
export function isMaskedPhoneNumber(shown: string): boolean {
  return shown.includes(MASK_DOT);
}
