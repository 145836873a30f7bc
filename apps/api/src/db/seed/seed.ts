import { LEAVE_BLANK_CHOICE } from '@candor/contracts';
import { count, inArray } from 'drizzle-orm';
import type { Db } from '../client.js';
import { choices, genres, questions, surveyGenres, surveys } from '../schema.js';
import { sampleGenres, sampleSurveys } from './content.js';
import type { SeedSurvey } from './types.js';

const HOUR_MS = 3_600_000;

const coverOf = (slug: string) => `/sample/covers/${slug}.webp`;
const introOf = (slug: string) => `/sample/intro/${slug}.webp`;

/** Loads the sample content; idempotent: surveys already present (by slug) are left alone. */
export async function seedSampleContent(
  db: Db,
  opts: { now?: Date; surveys?: SeedSurvey[] } = {},
): Promise<{ surveysAdded: number }> {
  const now = opts.now ?? new Date();
  const content = opts.surveys ?? sampleSurveys;
  return db.transaction(async (tx) => {
    await tx
      .insert(genres)
      .values(sampleGenres.map((name) => ({ name })))
      .onConflictDoNothing({ target: genres.name });
    const genreRows = await tx.select({ id: genres.id, name: genres.name }).from(genres);
    const genreId = new Map(genreRows.map((g) => [g.name, g.id]));

    const existing = await tx
      .select({ slug: surveys.slug })
      .from(surveys)
      .where(
        inArray(
          surveys.slug,
          content.map((s) => s.slug),
        ),
      );
    const present = new Set(existing.map((s) => s.slug));

    let surveysAdded = 0;
    for (const s of content) {
      if (present.has(s.slug)) continue;
      const releaseDate = new Date(now.getTime() + s.releaseOffsetHours * HOUR_MS);
      const [row] = await tx
        .insert(surveys)
        .values({
          slug: s.slug,
          name: s.name,
          author: s.author,
          coverImage: coverOf(s.slug),
          coverHeadline: s.coverHeadline,
          introImage: introOf(s.slug),
          introText: s.introText,
          outroText: s.outroText,
          variant: s.variant,
          slot: s.slot,
          releaseDate,
          publishedAt: releaseDate < now ? releaseDate : now,
          closedAt:
            s.closedOffsetHours === undefined
              ? null
              : new Date(now.getTime() - s.closedOffsetHours * HOUR_MS),
        })
        .returning({ id: surveys.id });
      const surveyId = row!.id;
      const genreIds = s.genres.map((name) => {
        const id = genreId.get(name);
        if (id === undefined) throw new Error(`Sample survey ${s.slug} uses unknown genre ${name}`);
        return { surveyId, genreId: id };
      });
      if (genreIds.length) await tx.insert(surveyGenres).values(genreIds);

      for (const [index, q] of s.questions.entries()) {
        const [qRow] = await tx
          .insert(questions)
          .values({
            surveyId,
            position: index + 1,
            type: q.type,
            text: q.text,
            timerSeconds: q.timerSeconds ?? 0,
            videoLink1: q.video?.link1 ?? null,
            videoLink2: q.video?.link2 ?? null,
            videoCaptions1: q.video?.captions1 ?? null,
            videoCaptions2: q.video?.captions2 ?? null,
            randomiseAnswers: q.type === 'Closed' ? (q.randomise ?? true) : false,
            maxLength: q.type === 'Open' ? (q.maxLength ?? 280) : null,
            submittedAt: releaseDate,
          })
          .returning({ id: questions.id });
        if (q.type === 'Closed') {
          const labels = [...q.choices, LEAVE_BLANK_CHOICE];
          await tx.insert(choices).values(
            labels.map((label, i) => ({
              questionId: qRow!.id,
              position: i + 1,
              label,
              isBlank: label === LEAVE_BLANK_CHOICE,
            })),
          );
        }
      }
      surveysAdded++;
    }
    return { surveysAdded };
  });
}

/** True when no survey exists yet: the first start of a new database. */
export async function isDatabaseEmpty(db: Db): Promise<boolean> {
  const [row] = await db.select({ n: count() }).from(surveys);
  return (row?.n ?? 0) === 0;
}
