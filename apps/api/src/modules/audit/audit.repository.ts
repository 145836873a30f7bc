import { count, desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { auditLog, users } from '../../db/schema.js';

export type AuditRow = typeof auditLog.$inferInsert;

/** The audit log: Drizzle only. */
export function createAuditRepository(db: Db) {
  return {
    /** Appends an entry; the actor is found by uuid (null if the account is gone). */
    async insert(entry: Omit<AuditRow, 'id' | 'actorId' | 'at'> & { actorUuid: string }) {
      await db.insert(auditLog).values({
        actorId: sql`(select ${users.id} from ${users} where ${users.uuid} = ${entry.actorUuid})`,
        actorRole: entry.actorRole,
        action: entry.action,
        target: entry.target,
        details: entry.details,
      });
    },

    /** Newest first, with the actor's public uuid. */
    async list(offset: number, limit: number) {
      const [rows, [total]] = await Promise.all([
        db
          .select({
            id: auditLog.id,
            actor: users.uuid,
            actorRole: auditLog.actorRole,
            action: auditLog.action,
            target: auditLog.target,
            details: auditLog.details,
            at: auditLog.at,
          })
          .from(auditLog)
          .leftJoin(users, eq(users.id, auditLog.actorId))
          .orderBy(desc(auditLog.id))
          .offset(offset)
          .limit(limit),
        db.select({ n: count() }).from(auditLog),
      ]);
      return { rows, total: total?.n ?? 0 };
    },
  };
}

export type AuditRepository = ReturnType<typeof createAuditRepository>;
