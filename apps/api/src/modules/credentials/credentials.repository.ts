import crypto from 'node:crypto';
import { and, count, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import {
  answerInbox,
  answers,
  credentialIssuances,
  credentialKeys,
  credentialWithdrawals,
  questions,
  redemptions,
  respondents,
  resultsQueue,
  users,
} from '../../db/schema.js';
import { groupCommit } from '../../lib/group-commit.js';
import { sqlState } from '../../lib/sql-state.js';

/**
 * A mix and a withdrawal take this transaction lock, so a withdrawal never misses answers a
 * mix is writing at that moment (its respondent not committed yet), and deleting a survey takes it
 * so no mix writes into its questions meanwhile.
 */
export const MIX_LOCK = 727_003;

/** Both drivers answer `{rows}` (node-postgres and PGlite). */
const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

export type StoredKey = typeof credentialKeys.$inferSelect;
export type Issuance = typeof credentialIssuances.$inferInsert;
export type Redemption = typeof redemptions.$inferSelect;

/** A mixed answer, as `answers` stores it, with its credential's tag and sealed profile. */
export interface MixedAnswer {
  tag: string;
  profile: string;
  questionId: number;
  choiceId: number | null;
  text: string | null;
  isBlank: boolean;
  answeredOn: string;
  moderation: 'pending' | null;
  /** How long answering took on the device, or null. */
  durationMs: number | null;
}

/** A credential's rating of a question it answered. */
export interface MixedRating {
  tag: string;
  questionId: number;
  score: number;
}

/**
 * Per survey and country, how many accounts hold a credential for it: a stored profile names
 * a country only when at least k of a survey's credential holders share it (decision 020).
 */
async function holdersByCountry(
  db: Db,
  surveyIds: number[],
): Promise<Map<number, Map<string, number>>> {
  const byS = new Map<number, Map<string, number>>();
  if (!surveyIds.length) return byS;
  const rows = rowsOf<{ survey_id: number; country: string; n: number }>(
    await db.execute(sql`
      select ci.survey_id, u.country, count(*)::int as n
      from ${credentialIssuances} ci join ${users} u on u.id = ci.user_id
      where ci.survey_id = any(${sql.param(surveyIds)}::integer[])
      group by ci.survey_id, u.country`),
  );
  for (const r of rows) {
    const m = byS.get(r.survey_id) ?? new Map<string, number>();
    byS.set(r.survey_id, m.set(r.country, r.n));
  }
  return byS;
}

/** A receipt and its answer (as the inbox keeps it, before sealing), written together or not at all. */
interface Redeemed {
  receipt: Redemption;
  entry: unknown;
}

/**
 * Group commit of redeemed answers (lib/group-commit.ts): the answers that arrive while
 * `inFlight` batches are being written leave together in the next, one transaction and one
 * commit of at most `maxRows`. `maxRows` 1: one transaction per answer.
 */
export interface AnswerBatching {
  maxRows: number;
  inFlight: number;
}

export interface CredentialsRepositoryOptions {
  batching?: AnswerBatching;
  /**
   * Seals the answers (and ratings) of one inbox row: every answer one commit redeemed goes
   * into one row, sealed once, so a copy of the database sees how many rows, not whose.
   */
  sealInbox: (entries: readonly unknown[]) => string;
}

const NO_BATCHING: AnswerBatching = { maxRows: 1, inFlight: 1 };
const NOT_NULL_VIOLATION = '23502';
/**
 * After a batch met a receipt stored before, batches skip the one-statement path for this long:
 * a run of replays costs each batch one transaction, not a statement undone and then one.
 */
const REPLAY_BACKOFF_MS = 1000;

/** The receipts' INSERT, a receipt stored before skipped: returns the keys it stored. */
const insertReceipts = (unique: readonly Redeemed[]) => sql`
  insert into redemptions (key, answer_mac, idempotency_mac, answered_on)
  select * from unnest(
    ${sql.param(unique.map((v) => v.receipt.key))}::text[],
    ${sql.param(unique.map((v) => v.receipt.answerMac))}::text[],
    ${sql.param(unique.map((v) => v.receipt.idempotencyMac))}::text[],
    ${sql.param(unique.map((v) => v.receipt.answeredOn))}::date[])
  on conflict (key) do nothing returning key`;

/** Credential keys, issuances, redemptions and the answer inbox: Drizzle only. */
export function createCredentialsRepository(db: Db, options: CredentialsRepositoryOptions) {
  const batching = options.batching ?? NO_BATCHING;
  /** Until then batches take the transaction path: a receipt stored before was seen lately. */
  let slowUntil = 0;

  /**
   * Answers in one transaction: each receipt is stored unless its credential answered the
   * question already, before or earlier in the batch (the same receipt twice in one batch is a
   * conflict, as it would be a moment later), and the answers of the receipts stored enter the
   * inbox together, as one sealed row. True for each answer stored.
   */
  async function redeemTogether(items: readonly Redeemed[]): Promise<boolean[]> {
    const first = new Map<string, number>();
    items.forEach((v, i) => first.has(v.receipt.key) || first.set(v.receipt.key, i));
    const unique = [...first.values()].map((i) => items[i]!);
    if (performance.now() >= slowUntil) {
      if (await redeemAllNew(unique)) {
        return items.map((_, i) => first.get(items[i]!.receipt.key) === i);
      }
      // Replays come in runs (a client retrying after a lost connection, or someone sending
      // their own answer again and again): while they last, each would undo a whole batch.
      slowUntil = performance.now() + REPLAY_BACKOFF_MS;
    }
    const keys = await db.transaction(async (tx) => {
      const stored = new Set(
        rowsOf<{ key: string }>(await tx.execute(insertReceipts(unique))).map((r) => r.key),
      );
      const entries = unique.filter((v) => stored.has(v.receipt.key)).map((v) => v.entry);
      if (entries.length) {
        await tx.insert(answerInbox).values({ payload: options.sealInbox(entries) });
      }
      return stored;
    });
    return items.map((v, i) => first.get(v.receipt.key) === i && keys.has(v.receipt.key));
  }

  /**
   * The usual case, in one statement (one round trip, no transaction to open and close): every
   * receipt is new, and the inbox row holds every answer. When one of them was stored before,
   * the row's payload is null, which the column refuses (not-null violation, 23502): the whole
   * statement is undone, receipts included, and false says so (`redeemTogether` then writes
   * the receipts first and seals only the answers of those stored).
   */
  async function redeemAllNew(unique: readonly Redeemed[]): Promise<boolean> {
    try {
      await db.execute(sql`
        with r as (${insertReceipts(unique)})
        insert into answer_inbox (payload)
        select case when (select count(*) from r) = ${unique.length}
                    then ${options.sealInbox(unique.map((v) => v.entry))} end`);
      return true;
    } catch (err) {
      if (sqlState(err) === NOT_NULL_VIOLATION) return false;
      throw err;
    }
  }

  /**
   * A batch of answers (`redeemTogether`). When its transaction fails, each answer is written
   * alone, so one bad row fails only its own request.
   */
  async function redeemBatch(batch: readonly Redeemed[]): Promise<Array<boolean | Error>> {
    try {
      return await redeemTogether(batch);
    } catch (err) {
      if (batch.length === 1) throw err;
      return Promise.all(
        batch.map((v) =>
          redeemTogether([v]).then(
            ([stored]) => stored!,
            (e: unknown) => e as Error,
          ),
        ),
      );
    }
  }

  const writer = batching.maxRows > 1 ? groupCommit(redeemBatch, batching) : undefined;

  return {
    async findKey(surveyId: number): Promise<StoredKey | undefined> {
      const [row] = await db
        .select()
        .from(credentialKeys)
        .where(eq(credentialKeys.surveyId, surveyId));
      return row;
    },
    /** Stores a survey's key unless another process stored one first; returns the one kept. */
    async insertKey(key: StoredKey): Promise<StoredKey> {
      await db.insert(credentialKeys).values(key).onConflictDoNothing();
      const [row] = await db
        .select()
        .from(credentialKeys)
        .where(eq(credentialKeys.surveyId, key.surveyId));
      return row!;
    },
    /** The account's standing, for the issuance rule (counting members only). */
    async account(uuid: string) {
      const [row] = await db
        .select({ id: users.id, status: users.status, phoneVerifiedAt: users.phoneVerifiedAt })
        .from(users)
        .where(eq(users.uuid, uuid));
      return row;
    },
    /**
     * Records issuances, one per account and survey (a second for the same pair is not
     * written); returns what is stored for every pair asked, new or earlier.
     */
    async issue(rows: Issuance[]): Promise<Issuance[]> {
      if (!rows.length) return [];
      await db.insert(credentialIssuances).values(rows).onConflictDoNothing();
      return db
        .select()
        .from(credentialIssuances)
        .where(
          and(
            eq(credentialIssuances.userId, rows[0]!.userId),
            inArray(
              credentialIssuances.surveyId,
              rows.map((r) => r.surveyId),
            ),
          ),
        );
    },
    /**
     * Writes the receipt and the answer (sealed into the inbox) together; false (nothing
     * written) when this credential already answered the question. Answers that arrive together
     * share one transaction, one commit and one inbox row (group commit, `batching`); each is
     * acknowledged after its commit.
     */
    redeem: async (receipt: Redemption, entry: unknown): Promise<boolean> =>
      writer ? writer({ receipt, entry }) : (await redeemTogether([{ receipt, entry }]))[0]!,
    /** A rating waiting to be mixed, sealed in an inbox row of its own. */
    async enqueue(entry: unknown): Promise<void> {
      await db.insert(answerInbox).values({ payload: options.sealInbox([entry]) });
    },
    /** How many of these receipts are stored. */
    async countRedemptions(keys: string[]): Promise<number> {
      if (keys.length === 0) return 0;
      const [row] = await db
        .select({ n: count() })
        .from(redemptions)
        .where(inArray(redemptions.key, keys));
      return row?.n ?? 0;
    },
    async findRedemption(key: string): Promise<Redemption | undefined> {
      const [row] = await db.select().from(redemptions).where(eq(redemptions.key, key));
      return row;
    },
    /**
     * One mixing step in a transaction: `mix` gets up to `limit` waiting answers (locked, in the
     * order of their random ids) and returns those to write, already shuffled, or null to leave
     * them waiting. Written: the credentials' respondents first seen, then the answers, in that
     * order; the inbox rows taken are deleted. Returns how many inbox rows were taken (0 when
     * left waiting) and how many answers and ratings were written.
     */
    async mix(
      limit: number,
      mix: (
        waiting: Array<{ id: number; payload: string }>,
        holders: (surveyIds: number[]) => Promise<Map<number, Map<string, number>>>,
        /** Which of these withdrawal keys are stored (their credentials' answers are dropped). */
        withdrawn: (keys: string[]) => Promise<Set<string>>,
        /** Which of these questions still exist (a deleted survey's answers are dropped). */
        asked: (questionIds: number[]) => Promise<Set<number>>,
      ) => Promise<{ answers: MixedAnswer[]; ratings: MixedRating[] } | null>,
    ): Promise<{ taken: number; written: number }> {
      return db.transaction(async (tx) => {
        await tx.execute(sql`select pg_advisory_xact_lock(${MIX_LOCK})`);
        const waiting = rowsOf<{ id: number | string; payload: string }>(
          await tx.execute(sql`
            select id, payload from ${answerInbox} order by id limit ${limit}
            for update skip locked`),
        ).map((r) => ({ id: Number(r.id), payload: r.payload }));
        if (!waiting.length) return { taken: 0, written: 0 };
        const mixed = await mix(
          waiting,
          (surveyIds) => holdersByCountry(tx, surveyIds),
          async (keys) => {
            if (!keys.length) return new Set<string>();
            const rows = await tx
              .select({ key: credentialWithdrawals.key })
              .from(credentialWithdrawals)
              .where(inArray(credentialWithdrawals.key, keys));
            return new Set(rows.map((r) => r.key));
          },
          async (questionIds) => {
            if (!questionIds.length) return new Set<number>();
            const rows = await tx
              .select({ id: questions.id })
              .from(questions)
              .where(inArray(questions.id, questionIds));
            return new Set(rows.map((r) => r.id));
          },
        );
        if (!mixed) return { taken: 0, written: 0 };
        if (mixed.answers.length) {
          const tags: string[] = [];
          const profiles: string[] = [];
          const seen = new Set<string>();
          for (const a of mixed.answers) {
            if (seen.has(a.tag)) continue;
            seen.add(a.tag);
            tags.push(a.tag);
            profiles.push(a.profile);
          }
          await tx.execute(sql`
            insert into respondents (pseudonym, profile, standing)
            select t, p, 'counting' from unnest(${sql.param(tags)}::text[], ${sql.param(profiles)}::text[])
              with ordinality as v(t, p, n)
            order by n
            on conflict (pseudonym) do nothing`);
          await tx.execute(sql`
            insert into answers (respondent_id, question_id, choice_id, text, is_blank,
                                 answered_on, moderation)
            select r.id, v.q, v.c, v.x, v.b, v.d, v.m::moderation_status
            from unnest(${sql.param(mixed.answers.map((a) => a.tag))}::text[],
                        ${sql.param(mixed.answers.map((a) => a.questionId))}::integer[],
                        ${sql.param(mixed.answers.map((a) => a.choiceId))}::integer[],
                        ${sql.param(mixed.answers.map((a) => a.text))}::text[],
                        ${sql.param(mixed.answers.map((a) => a.isBlank))}::boolean[],
                        ${sql.param(mixed.answers.map((a) => a.answeredOn))}::date[],
                        ${sql.param(mixed.answers.map((a) => a.moderation))}::text[])
              with ordinality as v(t, q, c, x, b, d, m, n)
            join respondents r on r.pseudonym = v.t
            order by v.n
            on conflict (respondent_id, question_id) do nothing`);
          const timed = mixed.answers.filter((a) => a.durationMs !== null);
          if (timed.length) {
            await tx.execute(sql`
              insert into timings (respondent_id, question_id, kind, duration_ms, token_hash)
              select r.id, v.q, 'answer', v.ms, v.h
              from unnest(${sql.param(timed.map((a) => a.tag))}::text[],
                          ${sql.param(timed.map((a) => a.questionId))}::integer[],
                          ${sql.param(timed.map((a) => a.durationMs))}::integer[],
                          ${sql.param(timed.map(() => crypto.randomBytes(32).toString('hex')))}::text[])
                with ordinality as v(t, q, ms, h, n)
              join respondents r on r.pseudonym = v.t
              order by v.n
              on conflict do nothing`);
          }
        }
        if (mixed.ratings.length) {
          // Only where the credential's answer is stored (it is, or it came in this batch).
          await tx.execute(sql`
            insert into ratings (respondent_id, question_id, score)
            select r.id, v.q, v.s
            from unnest(${sql.param(mixed.ratings.map((x) => x.tag))}::text[],
                        ${sql.param(mixed.ratings.map((x) => x.questionId))}::integer[],
                        ${sql.param(mixed.ratings.map((x) => x.score))}::smallint[])
              with ordinality as v(t, q, s, n)
            join respondents r on r.pseudonym = v.t
            where exists (select 1 from answers a where a.respondent_id = r.id and a.question_id = v.q)
            order by v.n
            on conflict (respondent_id, question_id) do update set score = excluded.score`);
        }
        await tx.execute(sql`
          delete from ${answerInbox}
          where id = any(${sql.param(waiting.map((w) => w.id))}::bigint[])`);
        return {
          taken: waiting.length,
          written: mixed.answers.length + mixed.ratings.length,
        };
      });
    },
    /**
     * A withdrawal's first step, under the mix's lock: its key is stored (the mixer drops what
     * waits for the credential), each of `receipts` (one per question of the survey) is
     * stored where none is, so the credential answers nothing more, and the credential's
     * respondent, if its answers were mixed already, is returned for stopCounting and
     * deleteRespondent.
     */
    async withdraw(key: string, tag: string, receipts: Redemption[]): Promise<number | undefined> {
      return db.transaction(async (tx) => {
        await tx.execute(sql`select pg_advisory_xact_lock(${MIX_LOCK})`);
        await tx.insert(credentialWithdrawals).values({ key }).onConflictDoNothing();
        // A receipt already stored is marked too: the answer it names is gone, and sending it
        // again must not look like a replay that was kept.
        if (receipts.length) {
          await tx
            .insert(redemptions)
            .values(receipts)
            .onConflictDoUpdate({
              target: redemptions.key,
              set: {
                answerMac: sql`excluded.answer_mac`,
                idempotencyMac: sql`excluded.idempotency_mac`,
              },
            });
        }
        const [row] = await tx
          .select({ id: respondents.id })
          .from(respondents)
          .where(eq(respondents.pseudonym, tag));
        return row?.id;
      });
    },
    /**
     * A withdrawal's last step (after stopCounting): the respondent goes with its answers,
     * ratings and timings; returns the questions where one of its texts was a published sample.
     */
    async deleteRespondent(respondentId: number): Promise<number[]> {
      return db.transaction(async (tx) => {
        const rows = await tx
          .selectDistinct({ questionId: answers.questionId })
          .from(answers)
          .where(and(eq(answers.respondentId, respondentId), eq(answers.moderation, 'approved')));
        await tx.delete(respondents).where(eq(respondents.id, respondentId));
        await tx.delete(resultsQueue).where(eq(resultsQueue.respondentId, respondentId));
        return rows.map((r) => r.questionId);
      });
    },
    /** Dead inbox rows (sealed answers already mixed) are removed at once, not at autovacuum's pace. */
    async vacuumInbox(): Promise<void> {
      await db.execute(sql`vacuum answer_inbox`);
    },
  };
}

export type CredentialsRepository = ReturnType<typeof createCredentialsRepository>;
