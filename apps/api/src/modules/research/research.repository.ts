import { and, desc, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { researchTokens, surveys, users } from '../../db/schema.js';

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
     * The token of `hash` if it may act at `now` (not revoked, not expired, and its maker still
     * an active admin: a token never outlives its maker's rights), marked as used. One
     * statement, so a revocation committed before it is always seen.
     */
    async use(hash: string, now: Date): Promise<UsableToken | undefined> {
      const rows = await db
        .update(researchTokens)
        .set({ lastUsedAt: now })
        .from(users)
        .where(
          and(
            eq(researchTokens.tokenHash, hash),
            isNull(researchTokens.revokedAt),
            sql`(${researchTokens.expiresAt} is null or ${researchTokens.expiresAt} > ${now.toISOString()}::timestamptz)`,
            eq(users.id, researchTokens.createdBy),
            eq(users.role, 'admin'),
            eq(users.status, 'active'),
          ),
        )
        .returning({
          gid: researchTokens.gid,
          name: researchTokens.name,
          surveys: researchTokens.surveys,
          creatorUuid: users.uuid,
        });
      return rows[0];
    },

    /** Published surveys by gid (all of them when `gids` is null), in their home-page order. */
    async published(gids: string[] | null) {
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
          ),
        )
        .orderBy(surveys.slot);
    },
  };
}

export type ResearchRepository = ReturnType<typeof createResearchRepository>;
