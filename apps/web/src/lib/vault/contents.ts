import { z } from 'zod';
import { VaultError } from './errors';

// What the vault holds: the device's own record of the member (decision 020), which the
// answering feature reads from and applies to its IndexedDB. Not a wire type: the server only
// ever sees it sealed. Parsed on opening all the same, so a vault written by an older or newer
// build fails with a clear error rather than half-applying.

const AnswerSchema = z.object({
  qid: z.string(),
  gid: z.string(),
  /** `YYYY-MM-DD`, the day the answer was given. */
  date: z.string(),
  answer: z.string(),
  isBlank: z.boolean(),
});

const RatingSchema = z.object({
  qid: z.string(),
  score: z.number(),
  /**
   * When the score was given (ISO time). Optional: with it the newer score wins a merge; two
   * scores without it keep the first side's (see mergeVaults).
   */
  at: z.string().optional(),
});

const CredentialSchema = z.object({
  gid: z.string(),
  keyId: z.string(),
  token: z.string(),
  /** The member withdrew this survey's answers with it: they are gone from every device. */
  withdrawn: z.literal(true).optional(),
});

const ProfileSchema = z.object({
  gender: z.string(),
  yearOfBirth: z.number(),
  country: z.string(),
  /** When it was set (ISO time): with it on both sides, the newer profile wins a merge. */
  at: z.string().optional(),
});

export const VaultContentsSchema = z.object({
  v: z.literal(1),
  answers: z.array(AnswerSchema),
  ratings: z.array(RatingSchema),
  credentials: z.array(CredentialSchema),
  profile: ProfileSchema.nullable(),
  /** ISO time of the last change to the contents; the newer side's profile wins a merge. */
  updatedAt: z.string(),
});

export type VaultContents = z.infer<typeof VaultContentsSchema>;
export type VaultAnswer = VaultContents['answers'][number];
export type VaultRating = VaultContents['ratings'][number];
export type VaultCredential = VaultContents['credentials'][number];
export type VaultProfile = NonNullable<VaultContents['profile']>;

/** A vault with nothing in it yet. */
export function emptyVault(updatedAt = new Date(0).toISOString()): VaultContents {
  return { v: 1, answers: [], ratings: [], credentials: [], profile: null, updatedAt };
}

/** Checks opened JSON against the contents' shape (VAULT_FORMAT when it does not match). */
export function parseContents(json: unknown): VaultContents {
  const parsed = VaultContentsSchema.safeParse(json);
  if (!parsed.success) {
    throw new VaultError(
      'VAULT_FORMAT',
      'The vault holds something this version of Candor cannot read.',
    );
  }
  return parsed.data;
}

// A total order on plain values, for ties: the same answer whichever side it came from.
const canonical = (value: unknown) => JSON.stringify(value);
const before = (x: unknown, y: unknown) => canonical(x) <= canonical(y);

/** One entry per key: `keep(a, b)` chooses between two entries with the same key. */
function unionBy<T>(
  first: readonly T[],
  second: readonly T[],
  key: (item: T) => string,
  keep: (a: T, b: T) => T,
): T[] {
  const out = new Map<string, T>();
  for (const item of [...first, ...second]) {
    const k = key(item);
    const held = out.get(k);
    out.set(k, held === undefined ? item : keep(held, item));
  }
  // Sorted by key, so equal merges are equal arrays (and the JSON the same length).
  return [...out.entries()].sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)).map(([, v]) => v);
}

/**
 * Merges two vaults (this device's and the stored one) without losing an item: answers and
 * ratings by qid, credentials by gid. Where both hold the same key:
 * - an answer: the earlier date wins (a question is answered once; a later copy is a replay);
 *   the same day, the first by canonical order, so the merge is commutative;
 * - a rating: the newer `at` wins; without times to compare, `a`'s (callers pass the device's
 *   own contents as `a`);
 * - a credential: `a`'s (the server signs one credential per account and survey, so two
 *   different ones for a survey cannot both be valid), unless `b`'s is withdrawn: a withdrawal
 *   wins, and takes that survey's answers out of the merge;
 * - a rating is kept only with its answer;
 * - the profile: the one set later (its `at`, else its side's `updatedAt`); a missing profile
 *   never erases one; the first by canonical order on a tie.
 * Pure; the result's lists are sorted by key.
 */
export function mergeVaults(a: VaultContents, b: VaultContents): VaultContents {
  const answers = unionBy(
    a.answers,
    b.answers,
    (x) => x.qid,
    (x, y) => {
      if (x.date !== y.date) return x.date < y.date ? x : y;
      return before(x, y) ? x : y;
    },
  );
  const ratings = unionBy(
    a.ratings,
    b.ratings,
    (x) => x.qid,
    (x, y) => {
      if (x.at !== undefined && y.at !== undefined && x.at !== y.at) return x.at > y.at ? x : y;
      if (x.at === undefined && y.at !== undefined) return y;
      return x;
    },
  );
  const credentials = unionBy(
    a.credentials,
    b.credentials,
    (x) => x.gid,
    // A withdrawal wins: it is never undone.
    (x, y) => (y.withdrawn && !x.withdrawn ? y : x),
  );
  // A withdrawn survey's answers go from every side, and a rating goes with its answer (a
  // rating is of an answer: the device keeps it on the answer's record).
  const withdrawn = new Set(credentials.filter((c) => c.withdrawn).map((c) => c.gid));
  const kept = answers.filter((x) => !withdrawn.has(x.gid));
  const answered = new Set(kept.map((x) => x.qid));
  let profile: VaultContents['profile'];
  // When a profile was set: its own time, else (an older vault's) when its side last changed.
  const setAt = (side: VaultContents) => side.profile?.at ?? side.updatedAt;
  // The chosen one keeps that time, so a later merge ranks it the same (associative).
  const dated = (side: VaultContents) => side.profile && { ...side.profile, at: setAt(side) };
  const [pa, pb] = [dated(a), dated(b)];
  if (pa === null || pb === null) profile = pa ?? pb;
  else if (pa.at !== pb.at) profile = pa.at > pb.at ? pa : pb;
  else profile = before(pa, pb) ? pa : pb;
  const updatedAt = a.updatedAt > b.updatedAt ? a.updatedAt : b.updatedAt;
  return {
    v: 1,
    answers: kept,
    ratings: ratings.filter((x) => answered.has(x.qid)),
    credentials,
    profile,
    updatedAt,
  };
}
