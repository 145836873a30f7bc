// `npm run seed`: loads the sample content into the configured database (idempotent).
import { loadConfig } from '../../config.js';
import { openDatabase } from '../client.js';
import { seedSampleContent } from './seed.js';

const config = loadConfig();
const database = await openDatabase({
  databaseUrl: config.databaseUrl,
  dataDir: config.dataDir,
  embedded: config.embeddedDatabase,
  poolSize: 2,
  onNote: (message) => console.warn(message),
});
try {
  await database.migrate();
  const { surveysAdded } = await seedSampleContent(database.db);
  console.log(`Seeded ${surveysAdded} sample survey(s) into ${database.location}.`);
} finally {
  await database.close();
}
