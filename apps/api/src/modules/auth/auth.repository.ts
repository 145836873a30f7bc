import crypto from 'node:crypto';
import DataLoader from 'dataloader';
import { and, asc, count, eq, gt, isNull, lt, min, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { PASSWORD_TOKEN_TTL_SECONDS } from '../../lib/tokens.js';
import { type SessionChanges, createSessionChanges } from './session-changes.js';
import { SESSION_STATUSES } from './session-gate.js';
import {
  identityKeys,
  otpChallenges,
  refreshTokens,
  signupEvents,
  users,
} from '../../db/schema.js';
import type { Identities, Opened } from './identity.js';

/** Signup events (an IP hash and a number prefix) serve the 24-hour risk checks, then go. */
export const SIGNUP_EVENT_RETENTION_MS = 24 * 60 * 60 * 1000;

/** A users row as stored: its number and name sealed (identity.ts). */
export type StoredUser = typeof users.$inferSelect;
/** A users row with its number and name opened. */
export type UserRow = Opened<StoredUser>;
type SealedColumns = 'phoneLookup' | 'identity' | 'legacyPhoneE164' | 'legacyName';
/** A new account: its number and name are sealed on the way in. */
export type NewUser = Omit<typeof users.$inferInsert, SealedColumns | 'uuid'> & {
  phoneE164: string;
  name?: string;
};
export type UserChanges = Partial<
  Omit<typeof users.$inferInsert, SealedColumns | 'uuid' | 'id'>
> & {
  name?: string;
};
export type ChallengeRow = typeof otpChallenges.$inferSelect;
export type RefreshTokenRow = typeof refreshTokens.$inferSelect;
export type OtpPurpose = ChallengeRow['purpose'];
export type UserStatus = UserRow['status'];
export interface Standing {
  role: UserRow['role'];
  status: UserStatus;
  live: boolean;
}

/**
 * Users, one-time-code challenges, refresh tokens and signup events: Drizzle only. Writes that
 * change what a user's tokens may do are announced through `sessionChanges` (the app passes the
 * one that also drops this process's cached sessions; scripts need only the NOTIFY).
 */
export function createAuthRepository(
  db: Db,
  identities: Identities,
  sessionChanges: SessionChanges = createSessionChanges(db),
) {
  const lookup = identities.lookup;
  const standings = new DataLoader<{ uuid: string; familyId: string }, Standing | undefined>(
    async (keys) => {
      const result = await db.execute(sql`
        select v.i::int as i, u.role, u.status,
               exists (select 1 from refresh_tokens r
                 where r.family_id = v.family and r.user_id = u.id and r.revoked_at is null) as live
        from unnest(${sql.param(keys.map((k) => k.uuid))}::text[]::uuid[],
                    ${sql.param(keys.map((k) => k.familyId))}::text[]::uuid[])
          with ordinality as v(uuid, family, i)
        join users u on u.uuid = v.uuid`);
      const rows = (result as { rows: Array<Standing & { i: number }> }).rows;
      const byIndex = new Map(rows.map(({ i, ...standing }) => [i - 1, standing]));
      return keys.map((_, i) => byIndex.get(i));
    },
    // Everything asked in one turn of the event loop (the requests read from the sockets
    // together), not only within one callback.
    { cache: false, batchScheduleFn: (flush) => setImmediate(flush) },
  );

  return {
    /** The account of a number typed (found by its lookup HMAC, never by the number). */
    async findUserByPhone(phoneE164: string): Promise<UserRow | undefined> {
      const [row] = await db
        .select()
        .from(users)
        .where(eq(users.phoneLookup, lookup(phoneE164)));
      const opened = await identities.openOne(row);
      if (opened?.phoneE164 !== '') return opened;
      // The account's key is lost (its folder deleted with no BACKUP_DIR copy): the number
      // typed is this row's number (its lookup matched), so it is sealed again under a key of
      // the account's own. The name is gone for good; the member can enter it again.
      const identity = await identities.reseal(opened.uuid, phoneE164, '');
      await db.update(users).set({ identity }).where(eq(users.id, opened.id));
      return { ...opened, phoneE164, name: '' };
    },

    async findUserById(id: number): Promise<UserRow | undefined> {
      const [row] = await db.select().from(users).where(eq(users.id, id));
      return identities.openOne(row);
    },

    async findUserByUuid(uuid: string): Promise<UserRow | undefined> {
      const [row] = await db.select().from(users).where(eq(users.uuid, uuid));
      return identities.openOne(row);
    },

    /**
     * Inserts a user, its number and name sealed under a new key of its own; undefined when the
     * number was taken meanwhile (the new key is destroyed then).
     */
    async insertUser(values: NewUser): Promise<UserRow | undefined> {
      const { phoneE164, name = '', ...rest } = values;
      const uuid = crypto.randomUUID();
      const sealed = await identities.sealNew(uuid, phoneE164, name);
      const [row] = await db
        .insert(users)
        .values({ ...rest, ...sealed, uuid })
        .onConflictDoNothing({ target: users.phoneLookup })
        .returning();
      if (!row) await identities.store.destroy([uuid]);
      return identities.openOne(row);
    },

    /**
     * Changes a user row; `onlyIfStatus` makes it a compare-and-set. A new role or status is
     * announced with the write (session-changes.ts); one that may take something from the
     * user's tokens (any role change, a status that cannot hold a session) returns only once
     * every process honours it.
     */
    async updateUser(
      id: number,
      changes: UserChanges,
      onlyIfStatus?: UserStatus,
    ): Promise<UserRow | undefined> {
      const { name, ...values } = changes;
      let identity: string | undefined;
      if (name !== undefined) {
        const [stored] = await db.select().from(users).where(eq(users.id, id));
        const current = await identities.openOne(stored);
        if (!current) return undefined;
        identity = await identities.reseal(current.uuid, current.phoneE164, name);
      }
      const update = (tx: Pick<Db, 'update'>) =>
        tx
          .update(users)
          .set({ ...values, ...(identity ? { identity } : {}), updatedAt: sql`now()` })
          .where(and(eq(users.id, id), onlyIfStatus ? eq(users.status, onlyIfStatus) : undefined))
          .returning();
      if (values.role === undefined && values.status === undefined) {
        const [row] = await update(db);
        return identities.openOne(row);
      }
      const narrows =
        values.role !== undefined ||
        (values.status !== undefined && !SESSION_STATUSES.has(values.status));
      const row = await sessionChanges.write(narrows, async (tx) => {
        const [written] = await update(tx);
        return { uuid: written?.uuid, result: written };
      });
      return identities.openOne(row);
    },

    /**
     * The account's role and status, and whether the session (refresh family) has a token not
     * revoked; undefined when the account is gone. The checks of
     * requests that arrive together are read by one statement (every authenticated request asks
     * this when its answer is not cached: a burst of new members would otherwise cost a round trip
     * each).
     */
    sessionStanding: (uuid: string, familyId: string): Promise<Standing | undefined> =>
      standings.load({ uuid, familyId }),

    async listByStatus(status: UserStatus, offset: number, limit: number) {
      const [rows, [total]] = await Promise.all([
        db
          .select()
          .from(users)
          .where(eq(users.status, status))
          .orderBy(asc(users.createdAt), asc(users.id))
          .offset(offset)
          .limit(limit),
        db.select({ n: count() }).from(users).where(eq(users.status, status)),
      ]);
      return { rows: await identities.open(rows), total: total?.n ?? 0 };
    },

    async findChallenge(phoneE164: string, purpose: OtpPurpose): Promise<ChallengeRow | undefined> {
      const [row] = await db
        .select()
        .from(otpChallenges)
        .where(
          and(eq(otpChallenges.phoneLookup, lookup(phoneE164)), eq(otpChallenges.purpose, purpose)),
        );
      return row;
    },

    /**
     * Stores the number's challenge for `purpose`, replacing the last one: a fresh code starts
     * with no wrong tries (decision 022: a resend is how the owner gets out of a locked code;
     * the texts' own limits bound how many codes, and so how many guesses, there are). A decoy
     * never replaces a spent code whose password step may still be pending. Every call clears
     * expired decoys (numbers nobody owns are not kept).
     */
    async issueCode(
      phoneE164: string,
      purpose: OtpPurpose,
      codeHash: string,
      now: Date,
      expiresAt: Date,
      { decoy = false, requester }: { decoy?: boolean; requester: string },
    ): Promise<void> {
      const passwordStepSince = new Date(now.getTime() - PASSWORD_TOKEN_TTL_SECONDS * 1000);
      // On every code, real or decoy: run for decoys only, its work told them apart by time.
      await db
        .delete(otpChallenges)
        .where(and(eq(otpChallenges.decoy, true), lt(otpChallenges.expiresAt, now)));
      await db
        .insert(otpChallenges)
        .values({
          phoneLookup: lookup(phoneE164),
          purpose,
          codeHash,
          expiresAt,
          decoy,
          requester,
          createdAt: now,
          updatedAt: now,
        })
        .onConflictDoUpdate({
          target: [otpChallenges.phoneLookup, otpChallenges.purpose],
          set: {
            codeHash,
            expiresAt,
            decoy,
            requester,
            wrongTries: 0,
            requesterTries: 0,
            usedAt: null,
            tokenUsedAt: null,
            updatedAt: now,
          },
          ...(decoy
            ? {
                setWhere: sql`not (${otpChallenges.usedAt} is not null
                  and ${otpChallenges.tokenUsedAt} is null
                  and ${otpChallenges.usedAt} > ${passwordStepSince})`,
              }
            : {}),
        });
    },

    /**
     * Counts a try on the number's live challenge before its code is compared, in one statement:
     * the requester's in its own count, anyone else's in the shared one; none past `maxTries`.
     */
    async reserveTry(
      phoneE164: string,
      purpose: OtpPurpose,
      now: Date,
      maxTries: number,
      requester: string,
    ): Promise<ChallengeRow | undefined> {
      const own = sql`${otpChallenges.requester} is not distinct from ${requester}`;
      const [row] = await db
        .update(otpChallenges)
        .set({
          wrongTries: sql`case when ${own} then ${otpChallenges.wrongTries} else ${otpChallenges.wrongTries} + 1 end`,
          requesterTries: sql`case when ${own} then ${otpChallenges.requesterTries} + 1 else ${otpChallenges.requesterTries} end`,
        })
        .where(
          and(
            eq(otpChallenges.phoneLookup, lookup(phoneE164)),
            eq(otpChallenges.purpose, purpose),
            isNull(otpChallenges.usedAt),
            gt(otpChallenges.expiresAt, now),
            sql`(case when ${own} then ${otpChallenges.requesterTries} else ${otpChallenges.wrongTries} end) < ${maxTries}`,
          ),
        )
        .returning();
      return row;
    },

    /**
     * Spends the code once (only one concurrent caller gets the row back) and gives back the try
     * reserved for it. `codeHash` pins the code compared: a resend meanwhile replaced it.
     */
    async consumeCode(id: number, codeHash: string, now: Date, requester: string) {
      const own = sql`${otpChallenges.requester} is not distinct from ${requester}`;
      const [row] = await db
        .update(otpChallenges)
        .set({
          usedAt: now,
          updatedAt: now,
          wrongTries: sql`case when ${own} then ${otpChallenges.wrongTries} else greatest(${otpChallenges.wrongTries} - 1, 0) end`,
          requesterTries: sql`case when ${own} then greatest(${otpChallenges.requesterTries} - 1, 0) else ${otpChallenges.requesterTries} end`,
        })
        .where(
          and(
            eq(otpChallenges.id, id),
            eq(otpChallenges.codeHash, codeHash),
            isNull(otpChallenges.usedAt),
            gt(otpChallenges.expiresAt, now),
          ),
        )
        .returning();
      return row;
    },

    /** Spends the set-password token of the verification that happened at `usedAt`. */
    async consumePasswordToken(id: number, usedAt: Date, now: Date): Promise<boolean> {
      const rows = await db
        .update(otpChallenges)
        .set({ tokenUsedAt: now, updatedAt: now })
        .where(
          and(
            eq(otpChallenges.id, id),
            eq(otpChallenges.usedAt, usedAt),
            isNull(otpChallenges.tokenUsedAt),
          ),
        )
        .returning({ id: otpChallenges.id });
      return rows.length === 1;
    },

    async insertRefreshToken(values: typeof refreshTokens.$inferInsert): Promise<RefreshTokenRow> {
      const [row] = await db.insert(refreshTokens).values(values).returning();
      return row!;
    },

    async findRefreshByHash(tokenHash: string): Promise<RefreshTokenRow | undefined> {
      const [row] = await db
        .select()
        .from(refreshTokens)
        .where(eq(refreshTokens.tokenHash, tokenHash));
      return row;
    },

    /** Ends a session (every token of the family); when it returns, on every process. */
    async revokeFamily(familyId: string, now: Date): Promise<void> {
      await sessionChanges.revokeSessions(eq(refreshTokens.familyId, familyId), now);
    },

    /** The user's sessions (refresh tokens) for their export: times only, never the hashes. */
    async listSessions(userId: number) {
      return db
        .select({
          family: refreshTokens.familyId,
          createdAt: refreshTokens.createdAt,
          expiresAt: refreshTokens.expiresAt,
          usedAt: refreshTokens.usedAt,
          revokedAt: refreshTokens.revokedAt,
        })
        .from(refreshTokens)
        .where(eq(refreshTokens.userId, userId))
        .orderBy(asc(refreshTokens.id));
    },

    /**
     * Erases the account in one transaction: what hangs on it (sessions, credential issuances,
     * the vault, staff factors: cascade), its number's code challenges and, where keys are kept
     * in the database, its identity key; then its key file (crypto-shredding: identity.ts). A
     * stop between the two leaves a key file without its account, which the start's sweep
     * destroys. Nothing stored leads from it to an answer (decision 020).
     */
    async deleteUser(user: Pick<UserRow, 'id' | 'uuid' | 'phoneE164'>): Promise<void> {
      await db.transaction(async (tx) => {
        if (user.phoneE164) {
          await tx
            .delete(otpChallenges)
            .where(eq(otpChallenges.phoneLookup, lookup(user.phoneE164)));
        }
        await tx.delete(identityKeys).where(eq(identityKeys.userUuid, user.uuid));
        await tx.delete(users).where(eq(users.id, user.id));
        await sessionChanges.announce(tx, user.uuid);
      });
      await identities.store.destroy([user.uuid]);
      await sessionChanges.committed([user.uuid], true);
    },

    /** The code challenges of a number, for the member's export (never the code hash). */
    async listChallenges(phoneE164: string) {
      return db
        .select({
          purpose: otpChallenges.purpose,
          createdAt: otpChallenges.createdAt,
          expiresAt: otpChallenges.expiresAt,
          wrongTries: otpChallenges.wrongTries,
          usedAt: otpChallenges.usedAt,
        })
        .from(otpChallenges)
        .where(eq(otpChallenges.phoneLookup, lookup(phoneE164)));
    },

    /** Ends every session of the user; when it returns, on every process. */
    async revokeAllOfUser(userId: number, now: Date): Promise<void> {
      await sessionChanges.revokeSessions(eq(refreshTokens.userId, userId), now);
    },

    /**
     * Rotation in one transaction with the presented token's row locked, so two tabs refreshing
     * at once are ordered: the first rotates, the second sees `usedAt` set and the child there.
     */
    async rotate(
      tokenHash: string,
      decide: (
        row: RefreshTokenRow,
        user: StoredUser,
        /** When the session began: its first token's creation (rows are never deleted). */
        start: Date,
      ) => { kind: 'rotate'; child: typeof refreshTokens.$inferInsert } | { kind: 'grace' } | null,
      now: Date,
    ): Promise<
      | { outcome: 'rotated' | 'grace'; row: RefreshTokenRow; user: UserRow }
      | { outcome: 'refused'; row?: RefreshTokenRow }
    > {
      // The identity is opened after the transaction: the key store may need a connection of
      // its own, which a pool full of rotations would never free.
      const result = await db.transaction(async (tx) => {
        const [row] = await tx
          .select()
          .from(refreshTokens)
          .where(eq(refreshTokens.tokenHash, tokenHash))
          .for('update');
        if (!row) return { outcome: 'refused' as const };
        const [user] = await tx.select().from(users).where(eq(users.id, row.userId));
        const [first] = await tx
          .select({ at: min(refreshTokens.createdAt) })
          .from(refreshTokens)
          .where(eq(refreshTokens.familyId, row.familyId));
        const decision = user ? decide(row, user, first?.at ?? row.createdAt) : null;
        if (!decision || !user) return { outcome: 'refused' as const, row };
        if (decision.kind === 'grace') {
          const [child] = await tx
            .select({ id: refreshTokens.id, revokedAt: refreshTokens.revokedAt })
            .from(refreshTokens)
            .where(eq(refreshTokens.parentId, row.id));
          if (!child || child.revokedAt) return { outcome: 'refused' as const, row };
          return { outcome: 'grace' as const, row, user };
        }
        await tx.update(refreshTokens).set({ usedAt: now }).where(eq(refreshTokens.id, row.id));
        await tx.insert(refreshTokens).values(decision.child);
        return { outcome: 'rotated' as const, row, user };
      });
      if (result.outcome === 'refused') return result;
      return { ...result, user: (await identities.openOne(result.user))! };
    },

    /** Records a signup and forgets those older than a day: the privacy page promises it. */
    async insertSignupEvent(ipHash: string, phonePrefix: string, now: Date): Promise<void> {
      await db.insert(signupEvents).values({ ipHash, phonePrefix, createdAt: now });
      await db
        .delete(signupEvents)
        .where(lt(signupEvents.createdAt, new Date(now.getTime() - SIGNUP_EVENT_RETENTION_MS)));
    },

    async countSignupEvents(since: Date, by: { ipHash: string } | { phonePrefix: string }) {
      const [row] = await db
        .select({ n: count() })
        .from(signupEvents)
        .where(
          and(
            gt(signupEvents.createdAt, since),
            'ipHash' in by
              ? eq(signupEvents.ipHash, by.ipHash)
              : eq(signupEvents.phonePrefix, by.phonePrefix),
          ),
        );
      return row?.n ?? 0;
    },
  };
}

export type AuthRepository = ReturnType<typeof createAuthRepository>;
