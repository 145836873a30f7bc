// A server stand-in for embedded-postgres.test.ts: opens the embedded database of the folder it
// is given, writes a row, says "ready" and waits to be killed.
import { sql } from 'drizzle-orm';
import { openDatabase } from '../db/client.js';

const database = await openDatabase({ dataDir: process.argv[2]!, poolSize: 1 });
await database.db.execute(sql`create table holder_notes (note text)`);
await database.db.execute(sql`insert into holder_notes values ('written before the kill')`);
process.stdout.write('ready\n');
setInterval(() => undefined, 1 << 30);
