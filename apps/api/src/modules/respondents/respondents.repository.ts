import DataLoader from 'dataloader';
import { and, asc, desc, eq, gt, like, sql } from 'drizzle-orm';
import { sqlConstraint } from '../../lib/sql-state.js';
import type { Db } from '../../db/client.js';
import type { users } from '../../db/schema.js';
import {
  answers,
  choices,
  questions,
  ratings,
  respondents,
  surveys,
  timings,
} from '../../db/schema.js';

/** Respondents (pseudonymous answerers) and the account facts they are made from: Drizzle only. */
export function createRespondentsRepository(db: Db) {
  const byPseudonym = db
    .select({ id: respondents.id })
    .from(respondents)
    .where(eq(respondents.pseudonym, sql.placeholder('pseudonym')))
    .prepare('respondent_by_pseudonym');
  type Account = Pick<typeof users.$inferSelect, 'country'> & { id: number | null };
  const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;
  // A member's first answer: their respondent if any and the account's country, in one
  // statement, shared by the first answers that arrive together (a burst of new members would
  // otherwise cost a round trip each; on the embedded engine one costs ~0.2 ms alone).
  const accounts = new DataLoader<{ uuid: string; pseudonym: string }, Account | undefined>(
    async (keys) => {
      const rows = rowsOf<Account & { i: number }>(
        await db.execute(sql`
          select v.i::int as i, r.id, u.country
          from unnest(${sql.param(keys.map((k) => k.uuid))}::text[]::uuid[],
                      ${sql.param(keys.map((k) => k.pseudonym))}::text[])
            with ordinality as v(uuid, pseudonym, i)
          join users u on u.uuid = v.uuid
          left join respondents r on r.pseudonym = v.pseudonym`),
      );
      const byIndex = new Map(rows.map(({ i, ...account }) => [i - 1, account]));
      return keys.map((_, i) => byIndex.get(i));
    },
    { cache: false, batchScheduleFn: (flush) => setImmediate(flush) },
  );
  // Their creation, likewise one statement for the new members of one turn of the event loop.
  // Each account row is share-locked, so an erasure or a review decision in progress is waited
  // for; a member counts in results when active and verified, as countsInResults() says.
  const creations = new DataLoader<
    { uuid: string; pseudonym: string; profile: string },
    number | undefined
  >(
    async (keys) => {
      const rows = rowsOf<{ id: number; pseudonym: string }>(
        await db.execute(sql`
          insert into respondents (pseudonym, profile, standing)
          select v.pseudonym, v.profile,
                 (case when u.status = 'active' and u.phone_verified_at is not null
                       then 'counting' else 'waiting' end)::respondent_standing
          from unnest(${sql.param(keys.map((k) => k.uuid))}::text[]::uuid[],
                      ${sql.param(keys.map((k) => k.pseudonym))}::text[],
                      ${sql.param(keys.map((k) => k.profile))}::text[]) as v(uuid, pseudonym, profile)
          join users u on u.uuid = v.uuid
          for share of u
          on conflict (pseudonym) do nothing
          returning id, pseudonym`),
      );
      const byPseudonymMade = new Map(rows.map((r) => [r.pseudonym, r.id]));
      return keys.map((k) => byPseudonymMade.get(k.pseudonym));
    },
    { cache: false, batchScheduleFn: (flush) => setImmediate(flush) },
  );

  return {
    async findIdByPseudonym(pseudonym: string): Promise<number | undefined> {
      const [row] = await byPseudonym.execute({ pseudonym });
      return row?.id;
    },

    /**
     * The respondent of the account `uuid` (filed under `pseudonym`), created on first use with
     * the sealed profile `seal` makes (from the device's class and the account's country), and
     * its standing;
     * undefined when the account does not exist (any more). Race-safe: a concurrent creation wins and its
     * id is returned; the account row is share-locked, so an erasure or a review decision in
     * progress is waited for (and then no account, or the new standing, is found). Ids are
     * random: a rare collision is tried again with another.
     */
    async getOrCreate(
      uuid: string,
      pseudonym: string,
      seal: (account: Pick<typeof users.$inferSelect, 'country'>) => string,
    ): Promise<number | undefined> {
      const account = await accounts.load({ uuid, pseudonym });
      if (!account) return undefined;
      if (account.id !== null) return account.id;
      const profile = seal(account);
      for (let attempt = 0; ; attempt++) {
        try {
          const id = await creations.load({ uuid, pseudonym, profile });
          if (id !== undefined) return id;
          break;
        } catch (err) {
          // Ids are random: a rare collision fails the statement, and each tries again.
          if (attempt >= 3 || sqlConstraint(err) !== 'respondents_pkey') throw err;
        }
      }
      // Created meanwhile by another request or process (a new statement sees its commit), or
      // no such account.
      const [existing] = await byPseudonym.execute({ pseudonym });
      return existing?.id;
    },

    /**
     * Profiles the 0007 migration left unsealed (`plain:...`) with ids above `after`, a batch at
     * a time in id order (by the primary key: each batch starts where the last ended, instead of
     * scanning again past every row already sealed).
     */
    async unsealedProfiles(after: number, limit: number) {
      return db
        .select({ id: respondents.id, profile: respondents.profile })
        .from(respondents)
        .where(and(gt(respondents.id, after), like(respondents.profile, 'plain:%')))
        .orderBy(asc(respondents.id))
        .limit(limit);
    },

    /** Replaces the profiles of the respondents given, in one statement. */
    async setProfiles(rows: Array<{ id: number; profile: string }>): Promise<void> {
      if (!rows.length) return;
      await db.execute(sql`
        update respondents r set profile = v.profile
        from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as v(id int, profile text)
        where r.id = v.id`);
    },

    /** Everything stored under a respondent, with public ids and labels, for the member's export. */
    async exportOf(id: number) {
      const [profile] = await db
        .select({ profile: respondents.profile, standing: respondents.standing })
        .from(respondents)
        .where(eq(respondents.id, id));
      const [answered, rated, timed] = await Promise.all([
        db
          .select({
            qid: questions.qid,
            question: questions.text,
            gid: surveys.gid,
            survey: surveys.name,
            choice: choices.label,
            text: answers.text,
            isBlank: answers.isBlank,
            answeredOn: answers.answeredOn,
            moderation: answers.moderation,
            idempotencyKey: answers.idempotencyKey,
          })
          .from(answers)
          .innerJoin(questions, eq(questions.id, answers.questionId))
          .innerJoin(surveys, eq(surveys.id, questions.surveyId))
          .leftJoin(choices, eq(choices.id, answers.choiceId))
          .where(eq(answers.respondentId, id))
          .orderBy(desc(answers.answeredOn), answers.id),
        db
          .select({ qid: questions.qid, score: ratings.score })
          .from(ratings)
          .innerJoin(questions, eq(questions.id, ratings.questionId))
          .where(eq(ratings.respondentId, id)),
        db
          .select({ qid: questions.qid, kind: timings.kind, durationMs: timings.durationMs })
          .from(timings)
          .innerJoin(questions, eq(questions.id, timings.questionId))
          .where(eq(timings.respondentId, id))
          .orderBy(timings.id),
      ]);
      return { profile, answered, rated, timed };
    },
  };
}

export type RespondentsRepository = ReturnType<typeof createRespondentsRepository>;
