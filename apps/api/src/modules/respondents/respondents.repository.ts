import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { respondents, users } from '../../db/schema.js';

export type NewRespondent = typeof respondents.$inferInsert;

/** Respondents (pseudonymous answerers) and the account facts they are made from: Drizzle only. */
export function createRespondentsRepository(db: Db) {
  const byPseudonym = db
    .select({ id: respondents.id })
    .from(respondents)
    .where(eq(respondents.pseudonym, sql.placeholder('pseudonym')))
    .prepare('respondent_by_pseudonym');

  return {
    async findIdByPseudonym(pseudonym: string): Promise<number | undefined> {
      const [row] = await byPseudonym.execute({ pseudonym });
      return row?.id;
    },

    /** What a respondent row copies from the account: its breakdown fields and standing. */
    async findProfile(uuid: string) {
      const [row] = await db
        .select({
          gender: users.gender,
          yearOfBirth: users.yearOfBirth,
          country: users.country,
          status: users.status,
          phoneVerifiedAt: users.phoneVerifiedAt,
        })
        .from(users)
        .where(eq(users.uuid, uuid));
      return row;
    },

    /** Inserts the respondent unless its pseudonym exists; the id either way. */
    async getOrCreate(values: NewRespondent): Promise<number> {
      const [inserted] = await db
        .insert(respondents)
        .values(values)
        .onConflictDoNothing({ target: respondents.pseudonym })
        .returning({ id: respondents.id });
      if (inserted) return inserted.id;
      // Created meanwhile by another request or process: a new statement sees its commit.
      const [existing] = await byPseudonym.execute({ pseudonym: values.pseudonym });
      if (!existing) throw new Error('respondent vanished during get-or-create');
      return existing.id;
    },

    async setCounts(pseudonym: string, counts: boolean): Promise<void> {
      await db.update(respondents).set({ counts }).where(eq(respondents.pseudonym, pseudonym));
    },
  };
}

export type RespondentsRepository = ReturnType<typeof createRespondentsRepository>;
