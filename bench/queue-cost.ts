// What queueing answers for the results costs (migration 0010): the database's CPU per answer
// row of the batch INSERT, one session, under each way of queueing (the queue row written by a
// row trigger with the queue's foreign keys, as before 0010; by a statement trigger; without the
// keys, as now; and no queueing at all); then the full API, alternating 10 s wrk runs between a
// database queueing as before 0010 and one as now, so that both see the same machine (answers
// redeemed with credentials, decision 020: the queue rows are written when the mixer writes them).
import crypto from 'node:crypto';
import pg from 'pg';
import { SECONDS, prepare } from './answer-ingest';
import { alternate } from './alternate';
import { cpuMicros } from './cpu';
import { createPostgresDatabase, median } from './lib';

const ROWS = 60_000;
const BATCH = 12;
const ROUNDS = 3;

/** The queueing of before migration 0010, put back: a row trigger, and the queue's keys. */
const BEFORE_0010 = `
  DROP TRIGGER answers_queue ON answers;
  CREATE FUNCTION queue_for_results() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    INSERT INTO results_queue (respondent_id, question_id, kind)
    VALUES (NEW.respondent_id, NEW.question_id, TG_ARGV[0]::result_kind) ON CONFLICT DO NOTHING;
    RETURN NULL;
  END $$;
  CREATE TRIGGER answers_queue AFTER INSERT ON answers
    FOR EACH ROW EXECUTE FUNCTION queue_for_results('answer');
  ALTER TABLE results_queue
    ADD FOREIGN KEY (respondent_id) REFERENCES respondents (id) ON DELETE CASCADE ON UPDATE CASCADE,
    ADD FOREIGN KEY (question_id) REFERENCES questions (id) ON DELETE CASCADE;`;

const INSERT = `INSERT INTO answers SELECT (floor(random() * 4503599627370496) + 1)::bigint, *
  FROM unnest($1::int[], $2::int[], $3::int[], $4::text[], $5::boolean[], $6::date[], $7::text[],
              $8::text[]::moderation_status[])
  ON CONFLICT (respondent_id, question_id) DO NOTHING`;

/** The database's CPU per inserted row, in one session, under each way of queueing. */
async function perRow(secret: string): Promise<string[]> {
  const db = await createPostgresDatabase();
  const c = new pg.Client({ connectionString: db.url });
  try {
    await prepare({ databaseUrl: db.url }, secret);
    await c.connect();
    // Random ids: 20,000 of them collide now and then (about 1 run in 10); a few fewer is fine.
    await c.query(`INSERT INTO respondents (pseudonym, profile)
                   SELECT md5(g::text), 'x' FROM generate_series(1, 20000) g
                   ON CONFLICT DO NOTHING`);
    const respondents = (await c.query<{ id: number }>('SELECT id FROM respondents')).rows;
    const targets = (
      await c.query<{ q: number; c: number }>(
        'SELECT q.id AS q, min(c.id) AS c FROM questions q JOIN choices c ON c.question_id = q.id GROUP BY q.id',
      )
    ).rows;
    const pid = (await c.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
    // No commit waits for the disk here: this measures the work, not the flush.
    await c.query('SET synchronous_commit = off');
    let cursor = 0;
    const run = async () => {
      await c.query('TRUNCATE answers CASCADE');
      await c.query('TRUNCATE results_queue');
      await c.query('VACUUM ANALYZE answers, results_queue');
      const before = cpuMicros(pid);
      for (let b = 0; b < ROWS / BATCH; b++) {
        const rows = Array.from({ length: BATCH }, () => {
          const k = cursor++;
          const t = targets[k % targets.length]!;
          return [respondents[Math.floor(k / targets.length) % respondents.length]!.id, t.q, t.c];
        });
        await c.query({
          name: 'insert_batch',
          text: INSERT,
          values: [
            rows.map((r) => r[0]),
            rows.map((r) => r[1]),
            rows.map((r) => r[2]),
            rows.map(() => null),
            rows.map(() => false),
            rows.map(() => '2026-11-24'),
            rows.map(() => null),
            rows.map(() => null),
          ],
        });
      }
      return (cpuMicros(pid) - before) / ROWS;
    };
    const lines: string[] = [];
    const measure = async (label: string) => {
      const runs = [await run(), await run(), await run()];
      lines.push(
        `| ${label} | ${median(runs).toFixed(1)} | ${runs.map((r) => r.toFixed(1)).join(', ')} |`,
      );
    };
    await c.query(BEFORE_0010);
    await measure('row trigger, queue with foreign keys (before 0010)');
    await c.query('ALTER TABLE answers DISABLE TRIGGER answers_queue');
    await measure('no queueing at all');
    await c.query(`DROP TRIGGER answers_queue ON answers;
      CREATE TRIGGER answers_queue AFTER INSERT ON answers REFERENCING NEW TABLE AS inserted
        FOR EACH STATEMENT EXECUTE FUNCTION queue_inserted('answer')`);
    await measure('statement trigger, queue with foreign keys');
    await c.query(`ALTER TABLE results_queue
      DROP CONSTRAINT results_queue_respondent_id_fkey, DROP CONSTRAINT results_queue_question_id_fkey`);
    await measure('statement trigger, queue without keys (0010, now)');
    return lines;
  } finally {
    await c.end();
    await db.drop();
  }
}

export async function queueCostBench(): Promise<string> {
  const secret = crypto.randomBytes(32).toString('hex');
  const rows = await perRow(secret);
  const api = await alternate(
    [
      { label: 'Candor API, queueing as before 0010', sql: BEFORE_0010 },
      { label: 'Candor API, queueing as now (0010)' },
    ],
    ROUNDS,
  );
  const base = api[0]!.rps;
  return [
    `Database CPU per answer row, one session, batches of ${BATCH}, ${ROWS} rows a run, median of 3:`,
    '',
    '| queueing | µs per row | runs |',
    '|---|---|---|',
    ...rows,
    '',
    `The API on PostgreSQL (1 process, wrk 50 connections), ${ROUNDS} rounds of alternating ${SECONDS} s runs:`,
    '',
    '| target | answers/s | ratio to before 0010 | inbox after a run (median) | mixed after (median) | errors (400 and over, socket) | runs |',
    '|---|---|---|---|---|---|---|',
    ...api.map(
      (r) =>
        `| ${r.label} | ${Math.round(r.rps)} | ${(r.rps / base).toFixed(2)} | ${r.inboxLeft} | ${r.mixedAfter.toFixed(1)} s | ${r.non2xx}, ${r.socketErrors} | ${r.runs.join(', ')} |`,
    ),
    '',
    'Answers redeemed with anonymous credentials (asked before the runs, untimed), acknowledged ' +
      'once sealed into the inbox; the mixer writes them into `answers` (and so the queue) in ' +
      'the background, and each run waits until the previous one was mixed and folded.',
  ].join('\n');
}
