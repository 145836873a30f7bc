import crypto from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Database, Db } from '../../db/client.js';
import { SAMPLE_PSEUDONYM_PREFIX } from '../../db/seed/sample-answers.js';
import { hmacHex } from '../../lib/keys.js';
import { legacyProfile, openProfile, sealProfile } from '../../lib/profile-seal.js';
import { COUNTRY_K, shuffled } from '../credentials/credentials.service.js';
import { RESULTS_LOCK } from '../results/results.repository.js';

/** Both drivers answer `{rows}` (node-postgres and PGlite). */
const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

/**
 * What a pseudonym of the old path is not: a credential's tag, one this step gave, or a made-up
 * sample respondent's (SEED_SAMPLE_ANSWERS).
 */
const NOT_OLD = sql`(pseudonym like 'cred:%' or pseudonym like 'old:%'
  or pseudonym like ${`${SAMPLE_PSEUDONYM_PREFIX}%`})`;

/** The tables the step rewrites, vacuumed in full after it (their dead rows held the links). */
export const SEVERED_TABLES = [
  'respondents',
  'answers',
  'ratings',
  'timings',
  'results_queue',
  'credential_issuances',
] as const;

export interface SeverKeys {
  /** derivePseudonymKey(secrets): the last use of it, to find each old respondent's account. */
  pseudonymKey: Buffer;
  /** deriveProfileKey(secrets): each new respondent's class is sealed afresh. */
  profileKey: Buffer;
}

export interface Severed {
  /** Old respondents found (one per account that answered the old way). */
  old: number;
  /** Respondents they became: one per counting old respondent and survey. */
  respondents: number;
  /** Old respondents deleted: not counting (waiting, suspended, rejected), or with no answer. */
  deleted: number;
}

/** A respondent id nobody holds: positive, random, as the column's default draws them. */
function freshIds(count: number, taken: Set<number>): number[] {
  const out: number[] = [];
  while (out.length < count) {
    const id = crypto.randomInt(1, 2_147_483_647);
    if (taken.has(id)) continue;
    taken.add(id);
    out.push(id);
  }
  return out;
}

/**
 * Severs the respondents of the old way of answering (as the logged-in member, under an HMAC of
 * the account's uuid) from their accounts, once, at the primary's start after the migrations
 * (decision 020, slice 5). It is the last thing the pseudonym key is used for: it finds each old
 * respondent's account and records, per survey they answered, an issuance marker (empty digest
 * and signature) so issuance keeps refusing that survey without the key. Then each counting old
 * respondent becomes one respondent per survey, with a random id and a random `old:` pseudonym
 * and its class sealed afresh, so no survey's answers join another's. Their answers keep their
 * day only to the month and lose their idempotency keys; their timings (written with the session,
 * in request order) are deleted; a respondent that does not count (waiting, suspended, rejected)
 * is deleted with its answers, which could never count again and, kept apart, would point at the
 * few accounts in that state. A class's country is kept only as the mixer keeps it (at least
 * COUNTRY_K accounts of the survey's respondents share it). Everything is rewritten in one transaction in a random order, then
 * the tables are vacuumed in full, so neither ids, row placement nor transaction ids follow the
 * order of first answers. `scrub` (the embedded PostgreSQL, whose log is Candor's own) also
 * switches the write-ahead log and checkpoints, as an erasure's scrub does.
 *
 * Returns null when there is nothing of the old way left (every start after the first).
 */
export async function severOldRespondents(
  database: Pick<Database, 'unbounded'>,
  keys: SeverKeys,
  opts: { scrub?: boolean } = {},
): Promise<Severed | null> {
  return database.unbounded(async (db) => {
    const [left] = rowsOf<{ any: boolean }>(
      await db.execute(sql`select exists (select 1 from respondents where not ${NOT_OLD}) as any`),
    );
    if (!left?.any) return null;
    const severed = await db.transaction((tx) => sever(tx, keys));
    const tables = sql.join(
      SEVERED_TABLES.map((t) => sql.identifier(t)),
      sql`, `,
    );
    await db.execute(sql`vacuum full ${tables}`);
    if (opts.scrub) {
      await db.execute(sql`select pg_switch_wal()`);
      await db.execute(sql`checkpoint`);
    }
    return severed;
  });
}

async function sever(tx: Db, keys: SeverKeys): Promise<Severed> {
  // No fold counts, and no standing changes, while respondents are replaced.
  await tx.execute(sql`select pg_advisory_xact_lock(${RESULTS_LOCK})`);
  await tx.execute(sql`lock table respondents in share row exclusive mode`);
  const old = rowsOf<{ id: number; pseudonym: string; profile: string; standing: string }>(
    await tx.execute(
      sql`select id, pseudonym, profile, standing from respondents where not ${NOT_OLD}`,
    ),
  );
  const oldIds = old.map((r) => r.id);
  const counting = old.filter((r) => r.standing === 'counting');

  // Each old respondent's account, through the pseudonym key: its last use.
  const accounts = rowsOf<{ id: number; uuid: string }>(
    await tx.execute(sql`select id, uuid::text as uuid from users`),
  );
  const accountOf = new Map(
    accounts.map((a) => [hmacHex(keys.pseudonymKey, a.uuid.toLowerCase()), a.id]),
  );

  // The surveys each counting respondent answered or rated.
  const pairs = rowsOf<{ respondent_id: number; survey_id: number }>(
    await tx.execute(sql`
      select distinct x.respondent_id, q.survey_id
      from (select respondent_id, question_id from answers
            union select respondent_id, question_id from ratings) x
      join questions q on q.id = x.question_id
      where x.respondent_id = any(${sql.param(counting.map((r) => r.id))}::integer[])`),
  );
  const byId = new Map(counting.map((r) => [r.id, r]));
  const taken = new Set(
    rowsOf<{ id: number }>(await tx.execute(sql`select id from respondents`)).map((r) => r.id),
  );
  const newIds = freshIds(pairs.length, taken);
  const userIds = pairs.map((p) => accountOf.get(byId.get(p.respondent_id)!.pseudonym));
  // A country is kept as the mixer keeps it: where at least COUNTRY_K of the survey's
  // respondents' accounts (credential holders, and these) are of it; else `other`.
  const holders = new Map<string, number>();
  for (const r of rowsOf<{ survey_id: number; country: string; n: number }>(
    await tx.execute(sql`
      select x.survey_id, u.country, count(distinct u.id)::int as n
      from (select user_id, survey_id from credential_issuances
            union select * from unnest(${sql.param(userIds.map((u) => u ?? 0))}::integer[],
                                      ${sql.param(pairs.map((p) => p.survey_id))}::integer[])
            ) as x(user_id, survey_id)
      join users u on u.id = x.user_id
      group by x.survey_id, u.country`),
  )) {
    holders.set(`${r.survey_id}:${r.country}`, r.n);
  }
  const made = shuffled(
    pairs.map((p, i) => {
      const was = byId.get(p.respondent_id)!;
      const profile = legacyProfile(was.profile) ?? openProfile(keys.profileKey, was.profile);
      const { country } = profile;
      if ((holders.get(`${p.survey_id}:${country}`) ?? 0) < COUNTRY_K) profile.country = 'other';
      return {
        oldId: p.respondent_id,
        surveyId: p.survey_id,
        id: newIds[i]!,
        pseudonym: `old:${crypto.randomBytes(16).toString('hex')}`,
        profile: sealProfile(keys.profileKey, profile),
        userId: userIds[i],
      };
    }),
  );

  await tx.execute(sql`
    create temp table sever_map (old_id integer, survey_id integer, new_id integer) on commit drop`);
  await tx.execute(sql`
    insert into sever_map
    select * from unnest(${sql.param(made.map((m) => m.oldId))}::integer[],
                         ${sql.param(made.map((m) => m.surveyId))}::integer[],
                         ${sql.param(made.map((m) => m.id))}::integer[])`);
  // What is kept, under the new ids: answers (day to the month, no idempotency key), ratings,
  // and what waits to be counted of them (timings go: they are deleted below).
  await tx.execute(sql`
    create temp table sever_answers on commit drop as
    select a.id, m.new_id as respondent_id, a.question_id, a.choice_id, a.text, a.is_blank,
           date_trunc('month', a.answered_on)::date as answered_on, a.moderation
    from answers a join questions q on q.id = a.question_id
    join sever_map m on m.old_id = a.respondent_id and m.survey_id = q.survey_id`);
  await tx.execute(sql`
    create temp table sever_ratings on commit drop as
    select m.new_id as respondent_id, r.question_id, r.score, r.counted_score
    from ratings r join questions q on q.id = r.question_id
    join sever_map m on m.old_id = r.respondent_id and m.survey_id = q.survey_id`);
  await tx.execute(sql`
    create temp table sever_queue on commit drop as
    select m.new_id as respondent_id, rq.question_id, rq.kind
    from results_queue rq join questions q on q.id = rq.question_id
    join sever_map m on m.old_id = rq.respondent_id and m.survey_id = q.survey_id
    where rq.kind <> 'timing'`);

  // Gone: every old respondent, with its answers, ratings and timings (the foreign keys
  // cascade) and what of them waited to be counted.
  await tx.execute(
    sql`delete from results_queue where respondent_id = any(${sql.param(oldIds)}::integer[])`,
  );
  await tx.execute(sql`delete from respondents where id = any(${sql.param(oldIds)}::integer[])`);

  // Written anew in a random order, all in this one transaction.
  await tx.execute(sql`
    insert into respondents (id, pseudonym, profile, standing)
    select id, pseudonym, profile, 'counting'
    from unnest(${sql.param(made.map((m) => m.id))}::integer[],
                ${sql.param(made.map((m) => m.pseudonym))}::text[],
                ${sql.param(made.map((m) => m.profile))}::text[]) as v(id, pseudonym, profile)
    order by random()`);
  await tx.execute(sql`
    insert into answers (id, respondent_id, question_id, choice_id, text, is_blank, answered_on,
                         moderation)
    select id, respondent_id, question_id, choice_id, text, is_blank, answered_on, moderation
    from sever_answers order by random()`);
  await tx.execute(sql`
    insert into ratings (respondent_id, question_id, score, counted_score)
    select respondent_id, question_id, score, counted_score from sever_ratings order by random()`);
  // The inserts' triggers queued every row again, counted or not: only what waited before waits.
  const madeIds = sql.param(made.map((m) => m.id));
  await tx.execute(sql`delete from results_queue where respondent_id = any(${madeIds}::integer[])`);
  await tx.execute(sql`
    insert into results_queue (respondent_id, question_id, kind)
    select respondent_id, question_id, kind from sever_queue order by random()`);

  // Issuance refuses these surveys to these accounts from now on (one answer per person).
  const markers = made
    .filter((m) => m.userId !== undefined)
    .map((m) => ({ userId: m.userId!, surveyId: m.surveyId }))
    .sort((a, b) => a.userId - b.userId || a.surveyId - b.surveyId);
  await tx.execute(sql`
    insert into credential_issuances (user_id, survey_id, blinded_digest, blind_sig)
    select user_id, survey_id, '', ''
    from unnest(${sql.param(markers.map((m) => m.userId))}::integer[],
                ${sql.param(markers.map((m) => m.surveyId))}::integer[]) as v(user_id, survey_id)
    on conflict do nothing`);

  const kept = new Set(made.map((m) => m.oldId)).size;
  return { old: old.length, respondents: made.length, deleted: old.length - kept };
}
