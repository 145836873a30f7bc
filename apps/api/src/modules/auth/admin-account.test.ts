import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { passwordSecrets } from '@candor/contracts';
import type { App } from '../../app.js';
import type { Database } from '../../db/client.js';
import { get, json, post } from '../../test/accounts.js';
import { createTestApp } from '../../test/app.js';
import { SoftAuthenticator } from '../../test/passkey.js';
import { staffLogin, totpCode } from '../../test/second-factor.js';
import { closeAll, createTestDatabase, engines } from '../../test/database.js';
import { DEMO_ADMIN_PHONE, createOrPromoteAdmin, ensureDemoAdmin } from './admin-account.js';

describe.each(engines)('admin accounts on %s', (engine) => {
  let database: Database;
  let app: App;

  beforeAll(async () => {
    database = await createTestDatabase(engine);
    app = await createTestApp(database);
  });
  afterAll(async () => {
    await closeAll(app, database);
  });

  it('creates the demo admin once, with a random password returned only then', async () => {
    const first = await ensureDemoAdmin(database.db, app.identities);
    expect(first.phone).toBe(DEMO_ADMIN_PHONE);
    expect(first.password).toMatch(/^[\w-]{16}$/);
    expect(await ensureDemoAdmin(database.db, app.identities)).toEqual({ phone: DEMO_ADMIN_PHONE });

    // The password, then an authenticator app set up at this first login (decision 024).
    const { access, secret } = await staffLogin(app, {
      phone: DEMO_ADMIN_PHONE,
      // The web app sends the password's login secret, made on the device (decision 020).
      password: (await passwordSecrets(first.password!, DEMO_ADMIN_PHONE)).login,
    });
    expect(json(await get(app, '/api/v1/user/detail/', { token: access }))).toMatchObject({
      role: 'admin',
      status: 'active',
    });
    // Admins reach the moderation scope.
    expect((await get(app, '/api/v1/admin/signups/', { token: access })).statusCode).toBe(200);
    // And add a passkey there.
    const options = await post(app, '/api/v1/admin/passkeys/options/', {}, { token: access });
    const added = await post(
      app,
      '/api/v1/admin/passkeys/',
      { response: new SoftAuthenticator().register(json(options)) },
      { token: access },
    );
    expect(added.statusCode, added.body).toBe(201);

    // Promoting the account again (the operator's recovery) ends its second factor with its
    // sessions: the next login enrols a new authenticator, and the old one's codes are refused.
    await createOrPromoteAdmin(database.db, app.identities, {
      phone: DEMO_ADMIN_PHONE,
      password: 'a recovered passphrase',
      defaultRegion: 'US',
    });
    expect((await get(app, '/api/v1/admin/signups/', { token: access })).statusCode).toBe(401);
    const again = await post(app, '/api/token/', {
      phone_number: DEMO_ADMIN_PHONE,
      password: (await passwordSecrets('a recovered passphrase', DEMO_ADMIN_PHONE)).login,
    });
    // Its passkeys went with the authenticator app: only an enrolment is offered.
    expect(json(again)).toMatchObject({
      status: 'second_factor_required',
      enrol: true,
      methods: ['totp'],
    });
    const old = await post(app, '/api/token/totp/', {
      challenge: json<{ challenge: string }>(again).challenge,
      code: totpCode(secret, Date.now()),
    });
    expect(old.statusCode).toBe(400);
  });

  it('refuses a bad number or a common password', async () => {
    await expect(
      createOrPromoteAdmin(database.db, app.identities, {
        phone: '12',
        password: 'fine passphrase',
        defaultRegion: 'US',
      }),
    ).rejects.toThrow('"12" is not a valid phone number.');
    await expect(
      createOrPromoteAdmin(database.db, app.identities, {
        phone: '+12025550199',
        password: 'iloveyou',
        defaultRegion: 'US',
      }),
    ).rejects.toThrow(/Password refused: This password is too common/);
  });
});
