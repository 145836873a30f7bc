import { z } from 'zod';

/** Query of every paged list: 1-based `page`, `page_size` up to 100. */
export const PageQuerySchema = z.object({
  page: z.coerce
    .number({ error: 'Must be a whole number.' })
    .int('Must be a whole number.')
    .min(1, 'Must be 1 or more.')
    .max(100_000, 'Must be 100000 or less.')
    .default(1),
  page_size: z.coerce
    .number({ error: 'Must be a whole number.' })
    .int('Must be a whole number.')
    .min(1, 'Must be 1 or more.')
    .max(100, 'Must be 100 or less.')
    .default(20),
});
export type PageQuery = z.infer<typeof PageQuerySchema>;

/** Wraps an item schema into the paged list shape `{count, next, previous, results}`. */
export function pagedSchema<T extends z.ZodType>(item: T) {
  return z.object({
    count: z.number().int().min(0),
    next: z.string().nullable(),
    previous: z.string().nullable(),
    results: z.array(item),
  });
}
