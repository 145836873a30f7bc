// How much of the demo's results is hidden: the share of mirror cards (a choice's overall share)
// and of breakdown cells (a choice's share in a group) published as null, with the sample
// answers of SEED_SAMPLE_ANSWERS (made-up people), after one update of the private mechanism.
// Usage: npx tsx bench/hidden-cells.ts [people...]   (default 60 400)
import crypto from 'node:crypto';
import { openDatabase } from '../apps/api/src/db/client';
import { seedSampleAnswers } from '../apps/api/src/db/seed/sample-answers';
import { seedSampleContent } from '../apps/api/src/db/seed/seed';
import { createResultsRepository } from '../apps/api/src/modules/results/results.repository';
import { createResultsService, toResults } from '../apps/api/src/modules/results/results.service';
import { createSurveysRepository } from '../apps/api/src/modules/surveys/surveys.repository';
import { createSurveysService } from '../apps/api/src/modules/surveys/surveys.service';
import { questions } from '../apps/api/src/db/schema';

const sizes = process.argv.slice(2).map(Number);
for (const people of sizes.length ? sizes : [60, 400]) {
  const database = await openDatabase({ dataDir: null });
  await database.migrate();
  await seedSampleContent(database.db);
  const profileKey = crypto.randomBytes(32);
  await seedSampleAnswers(database.db, { profileKey, people });
  const repo = createResultsRepository(database.db);
  const surveys = createSurveysService(createSurveysRepository(database.db), {
    cacheSeconds: 0,
    visitorQuestions: 3,
  });
  const results = createResultsService(repo, {
    surveys,
    profileKey,
    refreshSeconds: 0,
  });
  await results.tick();
  let cards = 0;
  let hiddenCards = 0;
  let cells = 0;
  let hiddenCells = 0;
  let groups = 0;
  let hiddenGroups = 0;
  for (const { qid } of await database.db.select({ qid: questions.qid }).from(questions)) {
    const q = await surveys.findQuestion(qid);
    if (q?.type !== 'Closed') continue;
    const stored = await repo.readSnapshot(q.id);
    const overall = toResults(q, stored, undefined);
    for (const c of overall.choices.filter((x) => !x.is_blank)) {
      cards++;
      if (c.percent === null) hiddenCards++;
    }
    for (const d of ['gender', 'age', 'country'] as const) {
      for (const g of toResults(q, stored, d).breakdown!.groups) {
        groups++;
        if (g.suppressed) hiddenGroups++;
        for (const c of g.choices.filter((x) => !x.is_blank)) {
          cells++;
          if (c.percent === null) hiddenCells++;
        }
      }
    }
  }
  const pct = (a: number, b: number) => `${a} of ${b} (${((a / b) * 100).toFixed(0)}%)`;
  console.log(
    `${people} people: mirror cards hidden ${pct(hiddenCards, cards)}; ` +
      `breakdown groups hidden ${pct(hiddenGroups, groups)}; breakdown cells hidden ${pct(hiddenCells, cells)}`,
  );
  await database.close();
}
