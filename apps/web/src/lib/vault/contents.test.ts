import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { emptyVault, mergeVaults, parseContents, type VaultContents } from './contents';

// Few keys, so that two vaults often hold the same question or survey.
const qid = fc.constantFrom('q1', 'q2', 'q3', 'q4', 'q5');
const gid = fc.constantFrom('g1', 'g2', 'g3');
const day = fc.constantFrom('2026-11-01', '2026-11-02', '2026-11-03');
const time = fc.constantFrom(
  '2026-11-01T00:00:00.000Z',
  '2026-11-02T00:00:00.000Z',
  '2026-11-03T00:00:00.000Z',
);

// A question belongs to one survey, as on the server: q1 and q4 to g1, q2 and q5 to g2, q3 to g3.
const surveyOf = (q: string) => `g${((Number(q.slice(1)) - 1) % 3) + 1}`;
const answer = fc
  .record({
    qid,
    date: day,
    answer: fc.constantFrom('Yes', 'No', 'a written answer', ''),
    isBlank: fc.boolean(),
  })
  .map(({ qid: q, ...rest }) => ({ qid: q, gid: surveyOf(q), ...rest }));
const rating = fc.record({
  qid,
  score: fc.integer({ min: 1, max: 5 }),
  at: fc.option(time, { nil: undefined }),
});
const credential = fc.record(
  {
    gid,
    keyId: fc.constantFrom('k1', 'k2'),
    token: fc.string({ maxLength: 6 }),
    withdrawn: fc.constant(true as const),
  },
  { requiredKeys: ['gid', 'keyId', 'token'] },
);
const profile = fc.option(
  fc.record({
    gender: fc.constantFrom('female', 'male'),
    yearOfBirth: fc.integer({ min: 1950, max: 2005 }),
    country: fc.constantFrom('FR', 'US'),
    at: fc.option(time, { nil: undefined }),
  }),
  { nil: null },
);

const vault: fc.Arbitrary<VaultContents> = fc
  .record({
    answers: fc.array(answer, { maxLength: 6 }),
    ratings: fc.array(rating, { maxLength: 6 }),
    credentials: fc.array(credential, { maxLength: 4 }),
    profile,
    updatedAt: time,
  })
  .map((v) => {
    // JSON's view (an absent `at`, not `at: undefined`), as a vault opens.
    return parseContents(JSON.parse(JSON.stringify({ v: 1, ...v })));
  });

const keysOf = (v: VaultContents) => ({
  answers: new Set(v.answers.map((a) => a.qid)),
  ratings: new Set(v.ratings.map((r) => r.qid)),
  credentials: new Set(v.credentials.map((c) => c.gid)),
});

/** Two vaults hold different credentials or undated different ratings for one key. */
function conflictsThatPreferA(a: VaultContents, b: VaultContents): boolean {
  const same = <T>(xs: T[], ys: T[], key: (t: T) => string, differ: (x: T, y: T) => boolean) =>
    xs.some((x) => ys.some((y) => key(x) === key(y) && differ(x, y)));
  return (
    same(
      a.credentials,
      b.credentials,
      (c) => c.gid,
      (x, y) => JSON.stringify(x) !== JSON.stringify(y),
    ) ||
    same(
      a.ratings,
      b.ratings,
      (r) => r.qid,
      (x, y) => x.score !== y.score && x.at === y.at,
    ) ||
    // Duplicates inside one side resolve in the order given, so they count as conflicts too.
    new Set(a.credentials.map((c) => c.gid)).size !== a.credentials.length ||
    new Set(b.credentials.map((c) => c.gid)).size !== b.credentials.length ||
    new Set(a.ratings.map((c) => c.qid)).size !== a.ratings.length ||
    new Set(b.ratings.map((c) => c.qid)).size !== b.ratings.length
  );
}

describe('mergeVaults', () => {
  it('never loses an item: every key of either side is in the merge, with one of their values', () => {
    fc.assert(
      fc.property(vault, vault, (a, b) => {
        const m = mergeVaults(a, b);
        const [ka, kb, km] = [keysOf(a), keysOf(b), keysOf(m)];
        // All but a withdrawn survey's answers, and the ratings of answers no longer held.
        const withdrawn = new Set(
          [...a.credentials, ...b.credentials].filter((c) => c.withdrawn).map((c) => c.gid),
        );
        const answered = new Set(
          [...a.answers, ...b.answers].filter((x) => !withdrawn.has(x.gid)).map((x) => x.qid),
        );
        const kept = (keys: Set<string>, part: string) =>
          new Set([...keys].filter((k) => part === 'credentials' || answered.has(k)));
        for (const part of ['answers', 'ratings', 'credentials'] as const) {
          expect(km[part]).toEqual(kept(new Set([...ka[part], ...kb[part]]), part));
        }
        expect(
          m.credentials
            .filter((c) => c.withdrawn)
            .map((c) => c.gid)
            .sort(),
        ).toEqual([...withdrawn].sort());
        const all = (v: VaultContents[]) =>
          v.flatMap((x) => [...x.answers, ...x.ratings, ...x.credentials]);
        for (const item of all([m])) expect(all([a, b])).toContainEqual(item);
        expect(m.answers).toHaveLength(km.answers.size);
        expect(m.credentials).toHaveLength(km.credentials.size);
        if (a.profile || b.profile) expect(m.profile).not.toBeNull();
        // One side's profile, dated (an older vault's gets its side's time).
        const facts = (p: VaultContents['profile']) => p && { ...p, at: undefined };
        expect([facts(a.profile), facts(b.profile)]).toContainEqual(facts(m.profile));
      }),
    );
  });

  it('is idempotent: merging a vault with itself, or a merge with either side again, changes nothing', () => {
    fc.assert(
      fc.property(vault, vault, (a, b) => {
        const self = mergeVaults(a, emptyVault(a.updatedAt));
        expect(mergeVaults(a, a)).toEqual(self);
        expect(mergeVaults(self, self)).toEqual(self);
        const m = mergeVaults(a, b);
        expect(mergeVaults(m, b)).toEqual(m);
        expect(mergeVaults(m, a)).toEqual(m);
        expect(mergeVaults(m, m)).toEqual(m);
      }),
    );
  });

  it('is commutative for answers and the profile always, and whole where no credential or undated rating conflicts', () => {
    fc.assert(
      fc.property(vault, vault, (a, b) => {
        const ab = mergeVaults(a, b);
        const ba = mergeVaults(b, a);
        expect(ab.answers).toEqual(ba.answers);
        expect(ab.profile).toEqual(ba.profile);
        expect(ab.updatedAt).toEqual(ba.updatedAt);
        if (!conflictsThatPreferA(a, b)) expect(ab).toEqual(ba);
      }),
    );
  });

  it('is associative for answers, and for profiles when every side has one', () => {
    fc.assert(
      fc.property(vault, vault, vault, (a, b, c) => {
        const left = mergeVaults(mergeVaults(a, b), c);
        const right = mergeVaults(a, mergeVaults(b, c));
        expect(left.answers).toEqual(right.answers);
        expect(left.updatedAt).toEqual(right.updatedAt);
        // A side without a profile still moves updatedAt, so with one the order can matter (a
        // race between devices that both changed it; the vault's single line of writes settles it).
        if (a.profile && b.profile && c.profile) expect(left.profile).toEqual(right.profile);
      }),
    );
  });

  it('keeps the earlier answer, the newer rating, the first credential and the newer profile', () => {
    const a: VaultContents = {
      v: 1,
      answers: [
        { qid: 'q1', gid: 'g', date: '2026-11-02', answer: 'later', isBlank: false },
        { qid: 'q2', gid: 'g', date: '2026-11-02', answer: 'Yes', isBlank: false },
      ],
      ratings: [
        { qid: 'q1', score: 2, at: '2026-11-03T00:00:00.000Z' },
        { qid: 'q2', score: 1 },
      ],
      credentials: [{ gid: 'g', keyId: 'k', token: 'mine' }],
      profile: { gender: 'female', yearOfBirth: 1990, country: 'FR' },
      updatedAt: '2026-11-01T00:00:00.000Z',
    };
    const b: VaultContents = {
      v: 1,
      answers: [{ qid: 'q1', gid: 'g', date: '2026-11-01', answer: 'first', isBlank: false }],
      ratings: [
        { qid: 'q1', score: 5, at: '2026-11-01T00:00:00.000Z' },
        { qid: 'q2', score: 4 },
      ],
      credentials: [{ gid: 'g', keyId: 'k', token: 'theirs' }],
      profile: { gender: 'female', yearOfBirth: 1991, country: 'FR' },
      updatedAt: '2026-11-05T00:00:00.000Z',
    };
    const m = mergeVaults(a, b);
    expect(m.answers.map((x) => x.answer)).toEqual(['first', 'Yes']);
    expect(m.ratings).toEqual([
      { qid: 'q1', score: 2, at: '2026-11-03T00:00:00.000Z' },
      { qid: 'q2', score: 1 },
    ]);
    expect(m.credentials.map((c) => c.token)).toEqual(['mine']);
    expect(m.profile?.yearOfBirth).toBe(1991);
    expect(m.updatedAt).toBe('2026-11-05T00:00:00.000Z');
    // A side without a profile never erases the other's, however new it is.
    expect(mergeVaults({ ...b, profile: null }, a).profile).toEqual({
      ...a.profile,
      at: a.updatedAt,
    });
    // Set later on a device whose vault changed earlier: its time is the profile's own.
    const set = { ...a, profile: { ...a.profile!, at: '2026-11-06T00:00:00.000Z' } };
    expect(mergeVaults(b, set).profile?.yearOfBirth).toBe(1990);
  });

  it("lets a withdrawal win: the survey's answers and their ratings go, whichever side is newer", () => {
    const answered: VaultContents = {
      ...emptyVault('2026-11-09T00:00:00.000Z'),
      answers: [
        { qid: 'q1', gid: 'g', date: '2026-11-01', answer: 'Yes', isBlank: false },
        { qid: 'q9', gid: 'other', date: '2026-11-01', answer: 'No', isBlank: false },
      ],
      ratings: [{ qid: 'q1', score: 3 }],
      credentials: [{ gid: 'g', keyId: 'k', token: 't' }],
    };
    const withdrawnThere: VaultContents = {
      ...emptyVault('2026-11-02T00:00:00.000Z'),
      credentials: [{ gid: 'g', keyId: 'k', token: 't', withdrawn: true }],
    };
    for (const m of [
      mergeVaults(answered, withdrawnThere),
      mergeVaults(withdrawnThere, answered),
    ]) {
      expect(m.answers.map((x) => x.qid)).toEqual(['q9']);
      expect(m.ratings).toEqual([]);
      expect(m.credentials).toEqual([{ gid: 'g', keyId: 'k', token: 't', withdrawn: true }]);
      // A device that still holds the answers does not bring them back.
      expect(mergeVaults(answered, m)).toEqual({ ...m, updatedAt: answered.updatedAt });
    }
  });
});
