// `npm run create-admin -- --phone +447700900123`: creates the first admin, or promotes an account.
// The password comes from CANDOR_ADMIN_PASSWORD, or is asked for (hidden) on a terminal.
import readline from 'node:readline';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.js';
import { identitiesFor } from '../modules/auth/identity.js';
import { resolveSecrets } from '../lib/secrets.js';
import { openDatabase } from '../db/client.js';
import {
  AdminInputError,
  checkAdminInput,
  createOrPromoteAdmin,
} from '../modules/auth/admin-account.js';

const USAGE =
  'Usage: npm run create-admin -- --phone <number> [--name <name>] [--country <XX>]\n' +
  'The password is read from CANDOR_ADMIN_PASSWORD, or asked for on a terminal.';

function fail(message: string): never {
  console.error(`\n${message}\n`);
  process.exit(1);
}

/** Reads a line without echoing it (the characters typed are not shown). */
function askHidden(question: string): Promise<string> {
  return new Promise((resolve) => {
    const rl = readline.createInterface({
      input: process.stdin,
      output: process.stdout,
      terminal: true,
    });
    const out = rl as unknown as { _writeToOutput: (s: string) => void };
    let prompted = false;
    out._writeToOutput = (s: string) => {
      if (!prompted) {
        process.stdout.write(s);
        prompted = true;
      }
    };
    rl.question(question, (answer) => {
      rl.close();
      process.stdout.write('\n');
      resolve(answer);
    });
  });
}

let args;
try {
  args = parseArgs({
    options: {
      phone: { type: 'string' },
      name: { type: 'string' },
      country: { type: 'string' },
      help: { type: 'boolean' },
    },
  }).values;
} catch (err) {
  fail(`${(err as Error).message}\n${USAGE}`);
}
if (args.help) {
  console.log(USAGE);
  process.exit(0);
}
if (!args.phone) fail(`--phone is required.\n${USAGE}`);
if (args.country !== undefined && !/^[A-Za-z]{2}$/.test(args.country)) {
  fail('--country: a two-letter country code.');
}

const config = loadConfig();
let password = process.env.CANDOR_ADMIN_PASSWORD;
if (!password) {
  if (!process.stdin.isTTY) {
    fail('Set CANDOR_ADMIN_PASSWORD, or run this on a terminal to be asked for the password.');
  }
  password = await askHidden('Password for the admin (not shown): ');
  const again = await askHidden('The same password again: ');
  if (password !== again) fail('The two passwords differ. Nothing was changed.');
}

// Refuse a bad number or password before touching the database.
try {
  checkAdminInput({ phone: args.phone, password, defaultRegion: config.auth.defaultPhoneRegion });
} catch (err) {
  if (err instanceof AdminInputError) fail(err.message);
  throw err;
}

const database = await openDatabase({
  databaseUrl: config.databaseUrl,
  dataDir: config.dataDir,
  embedded: config.embeddedDatabase,
  poolSize: 2,
  onNote: (message) => console.warn(message),
});
try {
  await database.migrate();
  const identities = identitiesFor(
    config,
    database.db,
    resolveSecrets(config.secrets, config.dataDir),
  );
  const result = await createOrPromoteAdmin(database.db, identities, {
    phone: args.phone,
    password,
    defaultRegion: config.auth.defaultPhoneRegion,
    ...(args.name !== undefined ? { name: args.name } : {}),
    ...(args.country !== undefined ? { country: args.country.toUpperCase() } : {}),
  });
  console.log(
    result.outcome === 'created'
      ? `Created admin ${result.phone}. Log in with this number and the password, then set up ` +
          'an authenticator app (the first login asks for it).'
      : `${result.phone} is now an admin with the new password; its other sessions and its ` +
          'second factor were ended: the next login sets up an authenticator app.',
  );
} catch (err) {
  if (err instanceof AdminInputError) {
    await database.close();
    fail(err.message);
  }
  throw err;
} finally {
  await database.close().catch(() => {
    // The outcome is decided above; a database that fails to close changes nothing.
  });
}
