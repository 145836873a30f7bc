import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../app.js';
import type { Database } from '../../db/client.js';
import { get, json, post, signupBody } from '../../test/accounts.js';
import { createTestApp } from '../../test/app.js';
import { closeAll, createTestDatabase, engines } from '../../test/database.js';
import { memoryLog } from '../../test/log.js';
import { lastCodeFor } from '../../test/outbox.js';

const PHONE = '+14155550147';
const NATIONAL = '(415) 555-0147';
const PASSWORD = 'canary passphrase 7f3a';

describe.each(engines)('personal data stays out of the logs on %s', (engine) => {
  let database: Database;
  let app: App;
  const log = memoryLog('trace');

  beforeAll(async () => {
    database = await createTestDatabase(engine);
    app = await createTestApp(database, { logLevel: 'trace' }, { logger: log.logger });
  });

  afterAll(async () => {
    await closeAll(app, database);
  });

  it('logs a whole signup, login, refresh and logout without a number, code, password or token', async () => {
    const canaries: string[] = [PHONE, PHONE.slice(1), NATIONAL, '4155550147', PASSWORD];
    const call = { headers: { 'x-forwarded-for': '203.0.113.9' } };

    expect((await post(app, '/api/v1/user/create/', signupBody(NATIONAL), call)).statusCode).toBe(
      202,
    );
    const otp = lastCodeFor(app.config.dataDir, PHONE)!;
    canaries.push(otp);
    // A wrong code first: errors must not echo anything either.
    const wrongOtp = otp === '000000' ? '111111' : '000000';
    const wrong = await post(app, '/api/v1/user/verify/', { phone_number: PHONE, otp: wrongOtp });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.body).not.toContain(PHONE);
    const verified = await post(app, '/api/v1/user/verify/', { phone_number: NATIONAL, otp });
    const { password_token } = json<{ password_token: string }>(verified);
    canaries.push(password_token);
    const set = await post(app, '/api/v1/user/set-password/', {
      password_token,
      password: PASSWORD,
    });
    const first = json<{ access: string; refresh: string }>(set);
    const failed = await post(app, '/api/token/', { phone_number: PHONE, password: 'nope nope' });
    expect(failed.body).not.toContain(PHONE);
    const login = json<{ access: string; refresh: string }>(
      await post(app, '/api/token/', { phone_number: NATIONAL, password: PASSWORD }),
    );
    const me = await get(app, '/api/v1/user/detail/', { token: login.access });
    expect(me.statusCode).toBe(200);
    const rotated = json<{ access: string; refresh: string }>(
      await post(app, '/api/token/refresh/', { refresh: login.refresh }),
    );
    expect(
      (
        await post(
          app,
          '/api/v1/user/logout/',
          { refresh: rotated.refresh },
          { token: rotated.access },
        )
      ).statusCode,
    ).toBe(204);
    canaries.push(first.access, first.refresh, login.access, login.refresh);
    canaries.push(rotated.access, rotated.refresh);

    // The log did record the requests (so the assertion below is about content, not silence).
    expect(log.text).toContain('/api/v1/user/create/');
    expect(log.text).toContain('/api/token/refresh/');
    expect(log.text.match(/incoming request/g)).toHaveLength(9);
    for (const canary of canaries) expect(log.text).not.toContain(canary);
  });

  it('redacts the secrets even when a body or a header is logged on purpose', () => {
    const out = memoryLog();
    out.logger.info(
      {
        req: {
          headers: { authorization: 'Bearer secret-token' },
          body: { phone_number: PHONE, password: PASSWORD, otp: '123456', refresh: 'r-token' },
        },
      },
      'request',
    );
    out.logger.info(
      { body: { phone_number: PHONE, password_token: 'p-token', access: 'a-token' } },
      'x',
    );
    for (const secret of [
      PHONE,
      PASSWORD,
      '123456',
      'secret-token',
      'r-token',
      'p-token',
      'a-token',
    ]) {
      expect(out.text).not.toContain(secret);
    }
    expect(out.text).toContain('[Redacted]');
  });
});
