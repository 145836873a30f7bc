import { type SQL, and, count, desc, eq, inArray, min, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { auditLog, genres, questions, surveys, users } from '../../db/schema.js';
import type { Identities } from '../auth/identity.js';

export type AuditRow = typeof auditLog.$inferInsert;

/** An entry to append: the actor named by uuid (their id is looked up in the same statement). */
export type AuditInsert = Omit<AuditRow, 'id' | 'actorId' | 'at'> & { actorUuid: string };

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/**
 * Appends an entry through `db` or inside a transaction, so a change and its entry commit (or
 * fail) together.
 */
export async function insertAuditEntry(db: Db | Tx, entry: AuditInsert): Promise<void> {
  await db.insert(auditLog).values({
    actorId: sql`(select ${users.id} from ${users} where ${users.uuid} = ${entry.actorUuid})`,
    actorRole: entry.actorRole,
    action: entry.action,
    target: entry.target,
    details: entry.details,
  });
}

/** Which entries to list: one kind of action, one staff member (by uuid), or all. */
export interface AuditFilter {
  action?: string | undefined;
  actor?: string | undefined;
}

/** The ids an audit page names, by kind (uuids, already checked to be uuids). */
export interface AuditRefs {
  users: string[];
  surveys: string[];
  questions: string[];
  genres: string[];
}

const pairs = <K, V>(rows: Array<{ key: K; value: V }>) =>
  new Map(rows.map((r) => [r.key, r.value]));

/** The audit log: Drizzle only. */
export function createAuditRepository(db: Db, identities: Identities) {
  /** The numbers of these accounts (sealed: opened with each account's key). */
  async function numbersOf(rows: Array<{ uuid: string | null; identity: string | null }>) {
    const known = rows.filter((r): r is { uuid: string; identity: string | null } => !!r.uuid);
    const opened = await identities.open(known);
    return new Map(opened.map((r) => [r.uuid, r.phoneE164]));
  }

  return {
    /** Appends an entry; the actor is found by uuid (null if the account is gone). */
    async insert(entry: AuditInsert) {
      await insertAuditEntry(db, entry);
    },

    /** Newest first, with the actor's public uuid and number (the service masks it). */
    async list(offset: number, limit: number, filter: AuditFilter = {}) {
      const conditions: SQL[] = [];
      if (filter.action) conditions.push(eq(auditLog.action, filter.action));
      if (filter.actor) conditions.push(eq(users.uuid, filter.actor));
      const where = conditions.length ? and(...conditions) : undefined;
      const [rows, [total]] = await Promise.all([
        db
          .select({
            id: auditLog.id,
            actor: users.uuid,
            actorIdentity: users.identity,
            actorRole: auditLog.actorRole,
            action: auditLog.action,
            target: auditLog.target,
            details: auditLog.details,
            at: auditLog.at,
          })
          .from(auditLog)
          .leftJoin(users, eq(users.id, auditLog.actorId))
          .where(where)
          .orderBy(desc(auditLog.id))
          .offset(offset)
          .limit(limit),
        db
          .select({ n: count() })
          .from(auditLog)
          .leftJoin(users, eq(users.id, auditLog.actorId))
          .where(where),
      ]);
      const numbers = await numbersOf(
        rows.map((r) => ({ uuid: r.actor, identity: r.actorIdentity })),
      );
      return {
        rows: rows.map(({ actorIdentity: _sealed, ...r }) => ({
          ...r,
          // '' (a key gone) reads as no number, as a missing actor does.
          actorPhone: (r.actor ? numbers.get(r.actor) : undefined) ?? null,
        })),
        total: total?.n ?? 0,
      };
    },

    /** Names of what a page of entries acted on: numbers of accounts, names, question texts. */
    async namesOf(refs: AuditRefs) {
      const none = Promise.resolve([]);
      const [phones, surveyNames, questionTexts, genreNames] = await Promise.all([
        refs.users.length
          ? db
              .select({ uuid: users.uuid, identity: users.identity })
              .from(users)
              .where(inArray(users.uuid, refs.users))
              .then(numbersOf)
              .then((m) => [...m].map(([key, value]) => ({ key, value })))
          : none,
        refs.surveys.length
          ? db
              .select({ key: surveys.gid, value: surveys.name })
              .from(surveys)
              .where(inArray(surveys.gid, refs.surveys))
          : none,
        refs.questions.length
          ? db
              .select({ key: questions.qid, value: questions.text })
              .from(questions)
              .where(inArray(questions.qid, refs.questions))
          : none,
        refs.genres.length
          ? db
              .select({ key: genres.gid, value: genres.name })
              .from(genres)
              .where(inArray(genres.gid, refs.genres))
          : none,
      ]);
      return {
        phones: pairs(phones),
        surveys: pairs(surveyNames),
        questions: pairs(questionTexts),
        genres: pairs(genreNames),
      };
    },

    /**
     * Everyone who has acted (and still has an account): their number, role now and first
     * action.
     */
    async actors() {
      const rows = await db
        .select({
          uuid: users.uuid,
          identity: users.identity,
          role: users.role,
          firstAt: min(auditLog.at),
        })
        .from(auditLog)
        .innerJoin(users, eq(users.id, auditLog.actorId))
        .groupBy(users.id);
      const numbers = await numbersOf(rows);
      return rows
        .map(({ identity: _sealed, ...r }) => ({ ...r, phone: numbers.get(r.uuid) ?? '' }))
        .sort((a, b) => (a.phone < b.phone ? -1 : a.phone > b.phone ? 1 : 0));
    },
  };
}

export type AuditRepository = ReturnType<typeof createAuditRepository>;
