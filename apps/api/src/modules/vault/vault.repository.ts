import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { users, vaults } from '../../db/schema.js';

/** Members' sealed vaults: Drizzle only. */
export function createVaultRepository(db: Db) {
  const userId = (uuid: string) =>
    sql`(select ${users.id} from ${users} where ${users.uuid} = ${uuid})`;
  return {
    async read(uuid: string) {
      const [row] = await db
        .select({ version: vaults.version, blob: vaults.blob })
        .from(vaults)
        .innerJoin(users, eq(users.id, vaults.userId))
        .where(eq(users.uuid, uuid));
      return row;
    },
    /**
     * Writes the vault if it is still at `version` (0: none yet); the new version, or undefined
     * when another write came first.
     */
    async write(uuid: string, version: number, blob: string): Promise<number | undefined> {
      const [row] =
        version === 0
          ? await db
              .insert(vaults)
              .values({ userId: userId(uuid), version: 1, blob })
              .onConflictDoNothing()
              .returning({ version: vaults.version })
          : await db
              .update(vaults)
              .set({ version: version + 1, blob })
              .where(and(eq(vaults.userId, userId(uuid)), eq(vaults.version, version)))
              .returning({ version: vaults.version });
      return row?.version;
    },
  };
}

export type VaultRepository = ReturnType<typeof createVaultRepository>;
