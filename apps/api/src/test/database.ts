import crypto from 'node:crypto';
import pg from 'pg';
import { type Database, openDatabase } from '../db/client.js';

export type Engine = 'pglite' | 'postgres';

const adminUrl = process.env.TEST_DATABASE_URL;

/** Engines the API suite runs on: PGlite always, PostgreSQL too when TEST_DATABASE_URL is set. */
export const engines: Engine[] = adminUrl ? ['pglite', 'postgres'] : ['pglite'];

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
  const name = `candor_test_${crypto.randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ databaseUrl: url.toString(), dataDir: null, poolSize: 4 });
  await database.migrate();
  return {
    ...database,
    async close() {
      await database.close();
      const cleanup = new pg.Client({ connectionString: adminUrl });
      await cleanup.connect();
      await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await cleanup.end();
    },
  };
}
