import { and, desc, eq, inArray, isNotNull, isNull, lte, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { researchTokens, surveys, users } from '../../db/schema.js';
import { SESSION_STATUSES } from '../auth/session-gate.js';

export type ResearchTokenRow = typeof researchTokens.$inferSelect;

/** A token that may act now, with the admin it acts for. */
export interface UsableToken {
  gid: string;
  name: string;
  surveys: string[] | null;
  creatorUuid: string;
}

/** Researchers' API tokens: Drizzle only. */
export function createResearchRepository(db: Db) {
  return {
    async insert(values: {
      name: string;
      tokenHash: string;
      prefix: string;
      surveys: string[] | null;
      creatorUuid: string;
      expiresAt: Date | null;
    }): Promise<ResearchTokenRow> {
      const [creator] = await db
        .select({ id: users.id })
        .from(users)
        .where(eq(users.uuid, values.creatorUuid));
      const [row] = await db
        .insert(researchTokens)
        .values({
          name: values.name,
          tokenHash: values.tokenHash,
          prefix: values.prefix,
          surveys: values.surveys,
          createdBy: creator?.id ?? null,
          expiresAt: values.expiresAt,
        })
        .returning();
      return row!;
    },

    async list(): Promise<ResearchTokenRow[]> {
      return db.select().from(researchTokens).orderBy(desc(researchTokens.createdAt));
    },

    async find(gid: string): Promise<ResearchTokenRow | undefined> {
      const [row] = await db.select().from(researchTokens).where(eq(researchTokens.gid, gid));
      return row;
    },

    /** Revokes a token not revoked yet; false when it is unknown or was revoked already. */
    async revoke(gid: string, now: Date): Promise<boolean> {
      const done = await db
        .update(researchTokens)
        .set({ revokedAt: now })
        .where(and(eq(researchTokens.gid, gid), isNull(researchTokens.revokedAt)))
        .returning({ id: researchTokens.id });
      return done.length > 0;
    },

    /**
     * The token of `hash` if it may act at `now`: not revoked, not expired, and its maker still
     * an admin who may act (a demotion, suspension or rejection stops it; a reinstatement would
     * restore it; erasure ends it). Read afresh on every request, so a revocation committed before is always
     * seen. Its last use is written at most once a minute (not a write per request).
     */
    async use(hash: string, now: Date): Promise<UsableToken | undefined> {
      const [row] = await db
        .select({
          id: researchTokens.id,
          gid: researchTokens.gid,
          name: researchTokens.name,
          surveys: researchTokens.surveys,
          lastUsedAt: researchTokens.lastUsedAt,
          creatorUuid: users.uuid,
        })
        .from(researchTokens)
        .innerJoin(users, eq(users.id, researchTokens.createdBy))
        .where(
          and(
            eq(researchTokens.tokenHash, hash),
            isNull(researchTokens.revokedAt),
            sql`(${researchTokens.expiresAt} is null or ${researchTokens.expiresAt} > ${now.toISOString()}::timestamptz)`,
            eq(users.role, 'admin'),
            // Exactly when its maker could still act as staff (a signup under review may).
            inArray(users.status, [...SESSION_STATUSES]),
          ),
        );
      if (!row) return undefined;
      if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() >= 60_000) {
        await db
          .update(researchTokens)
          .set({ lastUsedAt: now })
          .where(eq(researchTokens.id, row.id));
      }
      return { gid: row.gid, name: row.name, surveys: row.surveys, creatorUuid: row.creatorUuid };
    },

    /**
     * Published surveys by gid (all of them when `gids` is null), in their home-page order;
     * with `releasedBy`, only those released by then (what strangers can see).
     */
    async published(gids: string[] | null, releasedBy?: Date) {
      if (gids !== null && !gids.length) return [];
      return db
        .select({
          gid: surveys.gid,
          name: surveys.name,
          releaseDate: surveys.releaseDate,
          closedAt: surveys.closedAt,
        })
        .from(surveys)
        .where(
          and(
            isNotNull(surveys.publishedAt),
            gids === null ? undefined : inArray(surveys.gid, gids),
            releasedBy === undefined ? undefined : lte(surveys.releaseDate, releasedBy),
          ),
        )
        .orderBy(surveys.slot);
    },
  };
}

export type ResearchRepository = ReturnType<typeof createResearchRepository>;
