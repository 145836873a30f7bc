import crypto from 'node:crypto';
import pg from 'pg';
import { type Database, openDatabase } from '../db/client.js';

export type Engine = 'pglite' | 'postgres';

const adminUrl = process.env.TEST_DATABASE_URL;

/** Engines the API suite runs on: PGlite always, PostgreSQL too when TEST_DATABASE_URL is set. */
export const engines: Engine[] = adminUrl ? ['pglite', 'postgres'] : ['pglite'];

/**
 * An empty PostgreSQL database created beside `admin` (a server URL the role may create
 * databases on), and `drop()` to remove it, even with sessions still open. The API suite, the
 * durability soak and the benchmarks each make theirs with it.
 */
export async function createScratchPostgres(
  admin: string,
  prefix = 'candor_test',
): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `${prefix}_${crypto.randomBytes(4).toString('hex')}`;
  const query = async (statement: string) => {
    const client = new pg.Client({ connectionString: admin });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await query(`CREATE DATABASE ${name}`);
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

/**
 * A fresh, migrated, empty database: in-memory PGlite, or a throwaway PostgreSQL database
 * created beside TEST_DATABASE_URL and dropped by `close()`.
 */
export async function createTestDatabase(engine: Engine): Promise<Database> {
  if (engine === 'pglite') {
    const database = await openDatabase({ dataDir: null });
    await database.migrate();
    return database;
  }
  if (!adminUrl) throw new Error('TEST_DATABASE_URL is not set');
  const scratch = await createScratchPostgres(adminUrl);
  const database = await openDatabase({ databaseUrl: scratch.url, dataDir: null, poolSize: 4 });
  await database.migrate();
  return {
    ...database,
    async close() {
      await database.close();
      await scratch.drop();
    },
  };
}

/**
 * Closes what a test file opened (apps, databases), in order: for `afterAll`. When `beforeAll`
 * failed, some were never assigned; they are skipped, so that failure is reported, not a TypeError.
 */
export async function closeAll(
  ...opened: Array<{ close(): Promise<unknown> } | undefined>
): Promise<void> {
  for (const thing of opened) await thing?.close();
}
