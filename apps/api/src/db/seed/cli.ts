// `npm run seed`: loads the sample content into the configured database (idempotent).
import { loadConfig } from '../../config.js';
import { openDatabase } from '../client.js';
import { seedSampleContent } from './seed.js';

const config = loadConfig();
const database = await openDatabase({
  databaseUrl: config.databaseUrl,
  dataDir: config.dataDir,
  poolSize: 2,
});
try {
  await database.migrate();
  const { surveysAdded } = await seedSampleContent(database.db);
  console.log(`Seeded ${surveysAdded} sample survey(s) into ${database.location}.`);
} finally {
  await database.close();
}
