// The anonymous credentials the answer-ingest load redeems (decision 020): asked over HTTP from a
// running server before the timed runs (untimed, as a device asks at login), in one child process
// per core (the device's blinding costs ~30 ms of JavaScript per credential), and shared by every database
// of one bench run: the surveys' keys (and the issuance rows) of the first database are copied
// into the others before their servers start, so one set of credentials is valid everywhere.
import { fork } from 'node:child_process';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import type { Db } from '../apps/api/src/db/client';
import { credentialIssuances, credentialKeys } from '../apps/api/src/db/schema';

export type KeyRow = typeof credentialKeys.$inferSelect;
export type IssuanceRow = typeof credentialIssuances.$inferSelect;

/** What makes credentials issued by one database valid in another seeded the same way. */
export interface CredentialState {
  keys: KeyRow[];
  /** Who holds a credential for which survey: the mixer's country rule counts them. */
  issuances: IssuanceRow[];
}

/**
 * Member m's credentials for `gids`, in that order, for members [0, members): one
 * `POST /api/v1/credentials/` each, spread over one child process per core (worker threads do
 * not take tsx's loader on Node 20).
 */
export async function issueCredentials(
  origin: string,
  tokens: string[],
  members: number,
  gids: string[],
): Promise<string[][]> {
  if (members > tokens.length) throw new Error(`${members} members wanted, ${tokens.length} made`);
  const workers = Math.max(1, os.cpus().length);
  const share = Math.ceil(members / workers);
  const parts = await Promise.all(
    Array.from({ length: workers }, (_, w) => {
      const mine = tokens.slice(w * share, Math.min(members, (w + 1) * share));
      if (!mine.length) return Promise.resolve([] as string[][]);
      return new Promise<string[][]>((resolve, reject) => {
        const child = fork(fileURLToPath(new URL('./credential-worker.ts', import.meta.url)), {
          // tsx's loader, as bench/lib.ts starts the bare server.
          execArgv: ['--import', 'tsx'],
          stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
        });
        let got: string[][] | undefined;
        child.once('message', (m) => (got = m as string[][]));
        child.once('error', reject);
        child.once('exit', (code) =>
          got && code === 0
            ? resolve(got)
            : reject(new Error(`credential process exited with ${code}`)),
        );
        child.send({ origin, tokens: mine, gids });
      });
    }),
  );
  return parts.flat();
}

/** The keys and issuance rows of a PostgreSQL database, to copy into the run's other ones. */
export async function readCredentialState(databaseUrl: string): Promise<CredentialState> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const keys = await client.query<KeyRow>(
      `select survey_id as "surveyId", key_id as "keyId", public_key as "publicKey",
              private_key as "privateKey" from credential_keys order by survey_id`,
    );
    const issuances = await client.query<IssuanceRow>(
      `select user_id as "userId", survey_id as "surveyId", blinded_digest as "blindedDigest",
              blind_sig as "blindSig" from credential_issuances`,
    );
    return { keys: keys.rows, issuances: issuances.rows };
  } finally {
    await client.end();
  }
}

/** Writes `state` into a freshly prepared database, before its server starts. */
export async function writeCredentialState(db: Db, state: CredentialState): Promise<void> {
  if (state.keys.length) await db.insert(credentialKeys).values(state.keys);
  for (let i = 0; i < state.issuances.length; i += 2000) {
    await db.insert(credentialIssuances).values(state.issuances.slice(i, i + 2000));
  }
}
