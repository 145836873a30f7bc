import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { images } from '../../db/schema.js';

/** Uploaded images: Drizzle only. */
export function createImagesRepository(db: Db) {
  return {
    /** Stores an image unless one of the same name (the same content) is there already. */
    async save(image: typeof images.$inferInsert): Promise<void> {
      await db.insert(images).values(image).onConflictDoNothing({ target: images.name });
    },

    async read(name: string): Promise<Buffer | undefined> {
      const [row] = await db
        .select({ data: images.data })
        .from(images)
        .where(eq(images.name, name));
      return row?.data;
    },
  };
}

export type ImagesRepository = ReturnType<typeof createImagesRepository>;
