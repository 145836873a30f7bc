import { and, eq, sql } from 'drizzle-orm';
import type { App } from '../app.js';
import { answers, choices, questions, ratings, respondents, users } from '../db/schema.js';
import { derivePseudonymKey, deriveProfileKey, hmacHex } from '../lib/keys.js';
import { sealProfile } from '../lib/profile-seal.js';
import type { Secrets } from '../lib/secrets.js';
import { countsInResults } from '../modules/respondents/respondents.service.js';

/** One answer as the old path took it: a closed question's choice (by label) or a text. */
export interface OldAnswer {
  qid: string;
  choice?: string;
  text?: string;
  /** The request's Idempotency-Key, stored beside the answer as the old path stored it. */
  key?: string;
  /** A rating of the question, written right after its answer. */
  rating?: number;
}

/**
 * Writes answers (and ratings) as the logged-in member gave them before credentials (decision
 * 020), which no route takes any more: under the account's respondent, pseudonym HMAC(pseudonym
 * key, uuid), created on first use with the class the old path gave a client that sent none
 * (undisclosed, the account's country), counting if the account counts. One statement per row
 * in the order given, so write order follows answering order as it did. For tests of what deals
 * with such rows (the severing at start, issuance's ALREADY_ANSWERED after it). Returns the
 * respondent's id.
 */
export async function writeOldWay(
  app: App,
  secrets: Pick<Secrets, 'pseudonymSecret'>,
  uuid: string,
  rows: OldAnswer[],
  opts: { answeredOn?: string } = {},
): Promise<number> {
  const db = app.db;
  const pseudonym = hmacHex(derivePseudonymKey(secrets), uuid.toLowerCase());
  const [account] = await db
    .select({
      country: users.country,
      status: users.status,
      phoneVerifiedAt: users.phoneVerifiedAt,
    })
    .from(users)
    .where(eq(users.uuid, uuid.toLowerCase()));
  if (!account) throw new Error(`no account ${uuid}`);
  let [respondent] = await db
    .select({ id: respondents.id })
    .from(respondents)
    .where(eq(respondents.pseudonym, pseudonym));
  if (!respondent) {
    [respondent] = await db
      .insert(respondents)
      .values({
        pseudonym,
        profile: sealProfile(deriveProfileKey(secrets), {
          gender: 'undisclosed',
          ageBand: 'undisclosed',
          country: account.country,
        }),
        standing: countsInResults(account.status, account.phoneVerifiedAt) ? 'counting' : 'waiting',
      })
      .returning({ id: respondents.id });
  }
  const respondentId = respondent!.id;
  const answeredOn = opts.answeredOn ?? new Date().toISOString().slice(0, 10);
  for (const row of rows) {
    const [q] = await db
      .select({ id: questions.id })
      .from(questions)
      .where(eq(questions.qid, row.qid));
    if (!q) throw new Error(`no question ${row.qid}`);
    let answer: Pick<typeof answers.$inferInsert, 'choiceId' | 'text' | 'isBlank' | 'moderation'>;
    if (row.choice !== undefined) {
      const [choice] = await db
        .select({ id: choices.id, isBlank: choices.isBlank })
        .from(choices)
        .where(and(eq(choices.questionId, q.id), eq(choices.label, row.choice)));
      if (!choice) throw new Error(`no choice ${row.choice} of ${row.qid}`);
      answer = { choiceId: choice.id, text: null, isBlank: choice.isBlank, moderation: null };
    } else {
      const text = (row.text ?? '').trim();
      answer = text
        ? { choiceId: null, text, isBlank: false, moderation: 'pending' }
        : { choiceId: null, text: null, isBlank: true, moderation: null };
    }
    await db
      .insert(answers)
      .values({
        respondentId,
        questionId: q.id,
        ...answer,
        answeredOn,
        idempotencyKey: row.key ?? null,
      })
      .onConflictDoNothing({ target: [answers.respondentId, answers.questionId] });
    if (row.rating !== undefined) {
      await db
        .insert(ratings)
        .values({ respondentId, questionId: q.id, score: row.rating })
        .onConflictDoUpdate({
          target: [ratings.respondentId, ratings.questionId],
          set: { score: sql`excluded.score` },
        });
    }
  }
  return respondentId;
}
