import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../app.js';
import type { Database } from '../../db/client.js';
import { passwordHashCount } from '../../lib/passwords.js';
import { freshIp, freshPhone, post, signUp, signupBody } from '../../test/accounts.js';
import { createTestApp } from '../../test/app.js';
import { closeAll, createTestDatabase, engines } from '../../test/database.js';

// A signup must cost the same whatever the number is (new, waiting for its code, or registered):
// otherwise the time of the reply says which (found 2026-11-23: a pending number answered in
// ~200-250 ms, the others in ~110-125 ms, one password hash more). Counted, never timed.

const CREATE = '/api/v1/user/create/';
const PASSWORD = 'correct horse battery staple';
const OTHER_PASSWORD = 'a different long passphrase';

describe.each(engines)('signup work per kind of number on %s', (engine) => {
  let database: Database;
  let app: App;

  beforeAll(async () => {
    database = await createTestDatabase(engine);
    app = await createTestApp(database);
  });
  afterAll(async () => {
    await closeAll(app, database);
  });

  /** Password hashes (scrypt runs) one signup of `phone` costs, and its status code. */
  async function hashesOfSignup(phone: string, password?: string) {
    const before = passwordHashCount();
    const res = await post(
      app,
      CREATE,
      signupBody(phone, password === undefined ? {} : { password }),
      { ip: freshIp() },
    );
    expect(res.statusCode).toBe(202);
    return passwordHashCount() - before;
  }

  const kinds: Array<[string, () => Promise<string>]> = [
    ['a new number', async () => freshPhone()],
    [
      'a number waiting for its code, signed up with a password',
      async () => {
        const phone = freshPhone();
        await post(app, CREATE, signupBody(phone, { password: PASSWORD }), { ip: freshIp() });
        return phone;
      },
    ],
    [
      'a number waiting for its code, signed up without one',
      async () => {
        const phone = freshPhone();
        await post(app, CREATE, signupBody(phone), { ip: freshIp() });
        return phone;
      },
    ],
    [
      'a registered number',
      async () => {
        const phone = freshPhone();
        await signUp(app, phone, { password: PASSWORD });
        return phone;
      },
    ],
  ];

  it.each(kinds)('hashes a password exactly once for %s', async (_kind, numberOf) => {
    expect(await hashesOfSignup(await numberOf(), PASSWORD)).toBe(1);
    expect(await hashesOfSignup(await numberOf(), OTHER_PASSWORD)).toBe(1);
  });

  it.each(kinds)('hashes nothing without a password for %s', async (_kind, numberOf) => {
    expect(await hashesOfSignup(await numberOf())).toBe(0);
  });
});
