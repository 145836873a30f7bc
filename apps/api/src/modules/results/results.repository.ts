import { eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { answerCounts, questionTallies, respondents } from '../../db/schema.js';

/** Changes (answers counted or withdrawn) that make a new snapshot due. */
export const SNAPSHOT_MIN_CHANGES = 10;
/** Age after which any change makes a new snapshot due. */
export const SNAPSHOT_MAX_AGE_SECONDS = 300;
/** Most common words published per open question, and sample answers shown. */
const TOP_WORDS = 12;
const SAMPLES = 5;

/**
 * Words too common to say anything about an answer. Constants only: they are inlined into SQL.
 * Words are split on anything that is not a letter or digit, so "don't" gives "don".
 */
const STOPWORDS = (
  'the and for are but not you your yours all any can had her was one our out has him his how ' +
  'its who did get may way use she they them their there then than that this these those what ' +
  'when where which while with would could should will just about into over from have been ' +
  'being were does doing don isn aren wasn didn doesn won very too also some such only own same ' +
  'more most other much many each few both here why because until again further once off nor ' +
  'after before above below between through during under itself myself yourself ourselves ' +
  'themselves himself herself what whom really think know like thing things'
)
  .split(' ')
  .filter((w) => /^[a-z]+$/.test(w));
const stopwordsSql = sql.raw(`array[${STOPWORDS.map((w) => `'${w}'`).join(',')}]::text[]`);

// The breakdowns every answer is counted in: `all` (bucket ''), gender, age band and country.
const dimensionsOf = (r: string) =>
  sql.raw(`(values ('all', ''), ('gender', ${r}.gender::text), ('age', ${r}.age_band),
    ('country', ${r}.country)) as d(dimension, bucket)`);

// Each word of a counted written answer once per answer (`id, question_id, word` rows), without
// stopwords and odd lengths: the same in the fold and in a withdrawal, so counts stay exact.
const wordsOf = (r: string) =>
  sql`(
    select distinct ${sql.raw(r)}.id, ${sql.raw(r)}.question_id, word
    from ${sql.raw(r)}, regexp_split_to_table(lower(${sql.raw(r)}.text), '[^[:alnum:]]+') as word
    where ${sql.raw(r)}.text is not null
  ) words
  where length(word) between 3 and 30 and not (word = any(${stopwordsSql}))`;

// Folds take this advisory lock shared; a respondent starting or stopping to count takes it
// exclusively, so its answers are never counted twice or half-withdrawn by a fold in between.
const RESULTS_LOCK = 727_001;

/** A snapshot is due: none yet, 10 changes since the last, or any change after 5 minutes. */
const isDue = (now: Date) => sql`(
  ${questionTallies.snapshot} is null
  or ${questionTallies.changes} - ${questionTallies.publishedChanges} >= ${SNAPSHOT_MIN_CHANGES}
  or (${questionTallies.changes} <> ${questionTallies.publishedChanges}
      and ${questionTallies.publishedAt} <= ${now.toISOString()}::timestamptz
                                          - make_interval(secs => ${SNAPSHOT_MAX_AGE_SECONDS})))`;

/**
 * Inside a transaction: takes the results lock exclusively (no fold runs meanwhile) and locks
 * the respondent's row; whether it counts now, or undefined when it is gone.
 */
async function lockRespondent(tx: Db, respondentId: number): Promise<boolean | undefined> {
  await tx.execute(sql`select pg_advisory_xact_lock(${RESULTS_LOCK})`);
  const [r] = await tx
    .select({ counts: respondents.counts })
    .from(respondents)
    .where(eq(respondents.id, respondentId))
    .for('update');
  return r?.counts;
}

/** A published snapshot as stored in question_tallies.snapshot. */
export interface StoredSnapshot {
  counts: Array<[dimension: string, bucket: string, choiceId: number, isBlank: boolean, n: number]>;
  words: Array<[word: string, n: number]>;
  samples: string[];
}

/** answer_counts, answer_words and question_tallies: the fold, publication and withdrawal. */
export function createResultsRepository(db: Db) {
  const readSnapshot = db
    .select({ snapshot: questionTallies.snapshot, publishedAt: questionTallies.publishedAt })
    .from(questionTallies)
    .where(eq(questionTallies.questionId, sql.placeholder('questionId')))
    .prepare('read_snapshot');

  return {
    /**
     * Adds the answers not folded yet (of one question, or of all) to answer_counts and
     * answer_words, and their number to their questions' changes, in one statement. The UPDATE
     * locks the rows it marks, so concurrent folds (other processes) each count a row exactly
     * once; answers of respondents who do not count are marked and left out (they are unmarked
     * again if the respondent starts to count). Upserts go in key order: no deadlocks.
     */
    async fold(questionId?: number): Promise<void> {
      const which = questionId === undefined ? sql`true` : sql`question_id = ${questionId}`;
      await db.transaction(async (tx) => {
        await tx.execute(sql`select pg_advisory_xact_lock_shared(${RESULTS_LOCK})`);
        await tx.execute(sql`
          with f as (
            update answers set folded = true
            where not folded and ${which}
            returning id, question_id, respondent_id, choice_id, is_blank, text
          ), counted as (
            select f.*, r.gender, r.age_band, r.country
            from f join respondents r on r.id = f.respondent_id
            where r.counts
          ), c as (
            insert into answer_counts (question_id, dimension, bucket, choice_id, is_blank, n)
            select counted.question_id, d.dimension, d.bucket, coalesce(counted.choice_id, 0),
                   counted.is_blank, count(*)::int
            from counted cross join lateral ${dimensionsOf('counted')}
            group by 1, 2, 3, 4, 5
            order by 1, 2, 3, 4, 5
            on conflict (question_id, dimension, bucket, choice_id, is_blank)
            do update set n = answer_counts.n + excluded.n
          ), w as (
            insert into answer_words (question_id, word, n)
            select question_id, word, count(*)::int
            from ${wordsOf('counted')}
            group by 1, 2
            order by 1, 2
            on conflict (question_id, word) do update set n = answer_words.n + excluded.n
          )
          insert into question_tallies (question_id, changes)
          select question_id, count(*) from counted
          group by 1
          order by 1
          on conflict (question_id)
          do update set changes = question_tallies.changes + excluded.changes`);
      });
    },

    /**
     * Takes a new snapshot of every question whose snapshot is due (or of `questionId`, due or
     * not, with `force`): its counts, the words used in 10 answers or more and the newest
     * approved sample answers, in one statement. The condition is in the UPDATE, so two
     * processes publish a step once. Returns the questions published.
     */
    async publish(now: Date, only?: { questionId: number; force?: boolean }): Promise<number[]> {
      if (only) {
        await db.execute(sql`
          insert into question_tallies (question_id) values (${only.questionId})
          on conflict (question_id) do nothing`);
      }
      const which = only
        ? sql`${questionTallies.questionId} = ${only.questionId} and (${only.force ?? false} or ${isDue(now)})`
        : isDue(now);
      return db.transaction(async (tx) => {
        // Lock the due rows first; the snapshot is then taken by a second statement, which
        // sees every change committed up to the lock, so published_changes never claims a
        // change the snapshot does not hold.
        const due = await tx
          .select({ questionId: questionTallies.questionId })
          .from(questionTallies)
          .where(which)
          .orderBy(questionTallies.questionId)
          .for('update');
        if (due.length === 0) return [];
        const ids = due.map((r) => r.questionId);
        await tx
          .update(questionTallies)
          .set({
            snapshot: sql`jsonb_build_object(
              'counts', (select coalesce(jsonb_agg(jsonb_build_array(
                            c.dimension, c.bucket, c.choice_id, c.is_blank, c.n)
                          order by c.dimension, c.bucket, c.choice_id, c.is_blank), '[]'::jsonb)
                         from answer_counts c
                         where c.question_id = ${questionTallies.questionId} and c.n > 0),
              'words', (select coalesce(jsonb_agg(jsonb_build_array(w.word, w.n)
                          order by w.n desc, w.word), '[]'::jsonb)
                        from (select word, n from answer_words
                              where question_id = ${questionTallies.questionId} and n >= 10
                              order by n desc, word limit ${TOP_WORDS}) w),
              'samples', (select coalesce(jsonb_agg(s.text order by s.id desc), '[]'::jsonb)
                          from (select a.id, a.text from answers a
                                join respondents r on r.id = a.respondent_id
                                where a.question_id = ${questionTallies.questionId}
                                  and a.moderation = 'approved' and r.counts
                                order by a.id desc limit ${SAMPLES}) s))`,
            publishedChanges: sql`${questionTallies.changes}`,
            publishedAt: now,
          })
          .where(inArray(questionTallies.questionId, ids));
        return ids;
      });
    },

    /** The question's published snapshot, if any: one row by primary key. */
    async readSnapshot(
      questionId: number,
    ): Promise<{ snapshot: StoredSnapshot; publishedAt: Date } | undefined> {
      const [row] = await readSnapshot.execute({ questionId });
      if (!row?.snapshot || !row.publishedAt) return undefined;
      return { snapshot: row.snapshot as StoredSnapshot, publishedAt: row.publishedAt };
    },

    /** The live (unpublished) counts of everyone: for tests and operators, never for members. */
    async liveCounts(questionId: number) {
      return db
        .select({
          dimension: answerCounts.dimension,
          bucket: answerCounts.bucket,
          choiceId: answerCounts.choiceId,
          isBlank: answerCounts.isBlank,
          n: answerCounts.n,
        })
        .from(answerCounts)
        .where(eq(answerCounts.questionId, questionId));
    },

    /**
     * A respondent stops counting (suspended, rejected, or erased next): their folded answers
     * leave answer_counts and answer_words, and count as changes of their questions.
     */
    async stopCounting(respondentId: number): Promise<void> {
      await db.transaction(async (tx) => {
        if ((await lockRespondent(tx, respondentId)) !== true) return;
        await tx.execute(sql`
          with mine as (
            select a.id, a.question_id, a.choice_id, a.is_blank, a.text,
                   r.gender, r.age_band, r.country
            from answers a join respondents r on r.id = a.respondent_id
            where a.respondent_id = ${respondentId} and a.folded
          ), c as (
            update answer_counts ac set n = ac.n - x.n
            from (
              select mine.question_id, d.dimension, d.bucket,
                     coalesce(mine.choice_id, 0) as choice_id, mine.is_blank, count(*)::int as n
              from mine cross join lateral ${dimensionsOf('mine')}
              group by 1, 2, 3, 4, 5
            ) x
            where ac.question_id = x.question_id and ac.dimension = x.dimension
              and ac.bucket = x.bucket and ac.choice_id = x.choice_id
              and ac.is_blank = x.is_blank
          ), w as (
            update answer_words aw set n = aw.n - x.n
            from (
              select question_id, word, count(*)::int as n
                from ${wordsOf('mine')}
              group by 1, 2
            ) x
            where aw.question_id = x.question_id and aw.word = x.word
          ), s as (
            update respondents set counts = false where id = ${respondentId}
          )
          insert into question_tallies (question_id, changes)
          select question_id, count(*) from mine group by question_id
          on conflict (question_id)
          do update set changes = question_tallies.changes + excluded.changes`);
      });
    },

    /** A respondent starts counting: their answers are unmarked so the next fold counts them. */
    async startCounting(respondentId: number): Promise<void> {
      await db.transaction(async (tx) => {
        if ((await lockRespondent(tx, respondentId)) !== false) return;
        await tx.execute(sql`update respondents set counts = true where id = ${respondentId}`);
        await tx.execute(
          sql`update answers set folded = false where respondent_id = ${respondentId} and folded`,
        );
      });
    },
  };
}

export type ResultsRepository = ReturnType<typeof createResultsRepository>;
