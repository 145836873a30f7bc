import crypto from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';

/** A pg client or pool. */
export interface Queryable {
  query(text: string, values: unknown[]): Promise<unknown>;
}

/**
 * A live session (refresh-token family) for each user, written straight into the database, for
 * access tokens made outside a login (every token must name one): the session ids and their
 * refresh tokens (what a login would have handed out, a staff one after its second factor;
 * logging out with one ends that session),
 * in the order of `uuids`.
 */
export async function openSessionsWithRefresh(
  db: Db | Queryable,
  uuids: readonly string[],
): Promise<Array<{ sid: string; refresh: string }>> {
  const families = uuids.map(() => crypto.randomUUID());
  const refreshes = uuids.map(() => crypto.randomBytes(32).toString('base64url'));
  // As TokenService.hashRefresh stores them.
  const hashes = refreshes.map((r) => crypto.createHash('sha256').update(r).digest('hex'));
  if ('execute' in db) {
    await db.execute(sql`
      insert into refresh_tokens (user_id, family_id, token_hash, expires_at, second_factor)
      select u.id, v.family::uuid, v.hash, now() + interval '30 days', u.role <> 'member'
      from unnest(${sql.param(uuids)}::text[], ${sql.param(families)}::text[],
                  ${sql.param(hashes)}::text[]) as v(uuid, family, hash)
      join users u on u.uuid = v.uuid::uuid`);
  } else {
    await db.query(
      `insert into refresh_tokens (user_id, family_id, token_hash, expires_at, second_factor)
       select u.id, v.family::uuid, v.hash, now() + interval '30 days', u.role <> 'member'
       from unnest($1::text[], $2::text[], $3::text[]) as v(uuid, family, hash)
       join users u on u.uuid = v.uuid::uuid`,
      [uuids, families, hashes],
    );
  }
  return families.map((sid, i) => ({ sid, refresh: refreshes[i]! }));
}

/** The session ids of `openSessionsWithRefresh`, for tokens that are never logged out. */
export async function openSessions(
  db: Db | Queryable,
  uuids: readonly string[],
): Promise<string[]> {
  return (await openSessionsWithRefresh(db, uuids)).map((s) => s.sid);
}
