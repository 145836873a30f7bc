import { asc, like } from 'drizzle-orm';
import type { Db } from '../client.js';
import { sealProfile } from '../../lib/profile-seal.js';
import { answers, choices, questions, respondents } from '../schema.js';

/** Pseudonyms of sample respondents start with this: no HMAC has it, so they never match a member. */
export const SAMPLE_PSEUDONYM_PREFIX = 'sample-';

/**
 * Made-up people of a demo: enough that breakdowns by gender and age show approximate numbers
 * under the privacy noise (groups of about 60 to 130), as a real survey of a few hundred would.
 */
export const SAMPLE_PEOPLE = 400;

const GENDERS = ['female', 'male', 'female', 'male', 'non_binary', 'undisclosed'] as const;
const AGES = ['18-24', '25-34', '25-34', '35-44', '45-54', '55-64', '65+'] as const;
const COUNTRIES = ['US', 'GB', 'IN', 'NG', 'US', 'GB', 'CA', 'AU', 'DE', 'FR'] as const;
const WORDS = ['honesty', 'trust', 'family', 'freedom', 'fear', 'money', 'time', 'respect'];

/** A small deterministic generator: sample data is the same on every machine. */
function generator(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1_664_525 + 1_013_904_223) >>> 0;
    return s / 2 ** 32;
  };
}

/**
 * Sample answers for a demo or a test deployment: `people` made-up respondents (pseudonyms
 * `sample-N`, never an account; profiles sealed with `profileKey`) answer every question of the
 * sample surveys with skewed choices. They are queued like real answers: the results loop
 * publishes them at its next tick (the trigger's first threshold is far below their number).
 * Off by default (SEED_SAMPLE_ANSWERS): made-up answers must never mix with real ones. Does
 * nothing if sample respondents exist.
 */
export async function seedSampleAnswers(
  db: Db,
  opts: { profileKey: Buffer; people?: number; now?: Date },
) {
  const people = opts.people ?? SAMPLE_PEOPLE;
  const [existing] = await db
    .select({ id: respondents.id })
    .from(respondents)
    .where(like(respondents.pseudonym, `${SAMPLE_PSEUDONYM_PREFIX}%`))
    .limit(1);
  if (existing) return { respondentsAdded: 0 };
  const random = generator(20261122);
  const madeUp = Array.from({ length: people }, (_, i) => ({
    pseudonym: `${SAMPLE_PSEUDONYM_PREFIX}${i}`,
    profile: sealProfile(opts.profileKey, {
      gender: GENDERS[Math.floor(random() * GENDERS.length)]!,
      ageBand: AGES[Math.floor(random() * AGES.length)]!,
      country: COUNTRIES[Math.floor(random() * COUNTRIES.length)]!,
    }),
    standing: 'counting' as const,
  }));
  // A respondent's id is drawn at random (its order tells nothing): one drawn twice is skipped
  // and that person inserted again with a fresh draw, in the people's order.
  const idOf = new Map<string, number>();
  for (let waiting = madeUp; waiting.length > 0;) {
    const added = await db
      .insert(respondents)
      .values(waiting)
      .onConflictDoNothing({ target: respondents.id })
      .returning({ id: respondents.id, pseudonym: respondents.pseudonym });
    for (const r of added) idOf.set(r.pseudonym, r.id);
    waiting = waiting.filter((p) => !idOf.has(p.pseudonym));
  }
  const ids = madeUp.map((p) => ({ id: idOf.get(p.pseudonym)! }));
  const qs = await db.select().from(questions).orderBy(asc(questions.id));
  const all = await db.select().from(choices).orderBy(asc(choices.position));
  const day = (opts.now ?? new Date()).toISOString().slice(0, 10);
  for (const q of qs) {
    const own = all.filter((c) => c.questionId === q.id);
    const real = own.filter((c) => !c.isBlank);
    const blank = own.find((c) => c.isBlank);
    // Each question leans toward one of its answers, as real opinions do.
    const weights = real.map((_, i) => 1 + ((i * 7 + q.id * 3) % 5) ** 2);
    const sum = weights.reduce((a, b) => a + b, 0);
    const rows = ids.map(({ id }) => {
      if (q.type === 'Open') {
        const text = `${WORDS[Math.floor(random() * WORDS.length)]} and ${WORDS[Math.floor(random() * WORDS.length)]}`;
        return {
          respondentId: id,
          questionId: q.id,
          text,
          isBlank: false,
          moderation: 'approved' as const,
        };
      }
      if (blank && random() < 0.06) {
        return { respondentId: id, questionId: q.id, choiceId: blank.id, isBlank: true };
      }
      let pick = random() * sum;
      const i = weights.findIndex((w) => (pick -= w) < 0);
      return {
        respondentId: id,
        questionId: q.id,
        choiceId: real[Math.max(i, 0)]!.id,
        isBlank: false,
      };
    });
    await db.insert(answers).values(rows.map((r) => ({ ...r, answeredOn: day })));
  }
  return { respondentsAdded: ids.length };
}
