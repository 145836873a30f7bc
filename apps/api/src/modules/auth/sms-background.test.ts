import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../app.js';
import type { Database } from '../../db/client.js';
import { SmsDeliveryError, type SmsSender } from '../../plugins/sms.js';
import { createMember, freshIp, freshPhone, post } from '../../test/accounts.js';
import { createTestApp } from '../../test/app.js';
import { closeAll, createTestDatabase, engines } from '../../test/database.js';
import { memoryLog } from '../../test/log.js';

// Decision 005: a request that texts a code must not take longer than one for a number that gets
// none, or its timing tells who has an account. So texts go out after the reply. The sender here
// holds each text until the test lets it go, which shows the reply never waited for it.
describe.each(engines)('texts go out after the reply, on %s', (engine) => {
  let database: Database;
  let app: App;
  const log = memoryLog();
  const sent: Array<{ to: string; body: string }> = [];
  const refused: Array<{ to: string; body: string }> = [];
  let release = () => {
    // nothing held yet
  };
  let held = Promise.resolve();
  let refuse = false;
  const hold = () => {
    held = new Promise<void>((resolve) => (release = resolve));
  };
  const sender: SmsSender = {
    async send(to, body) {
      await held;
      if (refuse) {
        refused.push({ to, body });
        throw new SmsDeliveryError('Twilio answered 503');
      }
      sent.push({ to, body });
    },
  };

  beforeAll(async () => {
    database = await createTestDatabase(engine);
    app = await createTestApp(database, {}, { smsSender: sender, logger: log.logger });
  });

  afterAll(async () => {
    release();
    await closeAll(app, database);
  });

  it('answers a reset for a registered number before its code is sent, then sends it', async () => {
    const { phone } = await createMember(app);
    hold();
    const reply = await post(app, '/api/v1/user/forgot-password/', { phone_number: phone });
    expect(reply.statusCode).toBe(202);
    expect(sent).toEqual([]); // the reply came while the text was held
    // The same reply, as soon, for a number with no account.
    const stranger = await post(app, '/api/v1/user/forgot-password/', {
      phone_number: freshPhone(),
    });
    expect([stranger.statusCode, stranger.body]).toEqual([reply.statusCode, reply.body]);
    release();
    await app.sms.settled();
    // eslint-disable-next-line @typescript-eslint/no-unsafe-assignment -- vitest types its asymmetric matchers as any
    expect(sent).toEqual([{ to: phone, body: expect.stringMatching(/\b\d{6}\b/) }]);
  });

  it('logs a text the provider refused, without the number or the code, after a 202', async () => {
    const { phone } = await createMember(app);
    refuse = true;
    hold();
    const ip = freshIp();
    const reply = await post(app, '/api/v1/user/forgot-password/', { phone_number: phone }, { ip });
    expect(reply.statusCode).toBe(202);
    release();
    await app.sms.settled();
    refuse = false;
    const line = log.text.split('\n').find((l) => l.includes('a text message was not sent'));
    expect(JSON.parse(line!)).toMatchObject({
      level: 50,
      err: { type: 'SmsDeliveryError', message: 'Twilio answered 503' },
    });
    // The refused text carried a code; neither it nor the number reached the log.
    const code = /\b(\d{6})\b/.exec(refused.at(-1)!.body)![1]!;
    for (const secret of [phone, phone.slice(1), phone.slice(2)]) {
      expect(log.text).not.toContain(secret);
    }
    // As a whole token: a random 6 digits may occur inside a timestamp.
    expect(log.text).not.toMatch(new RegExp(`\\b${code}\\b`));
    // The member asks again and gets a code.
    const again = await post(
      app,
      '/api/v1/user/resend-otp/',
      { phone_number: phone, purpose: 'reset' },
      { ip },
    );
    expect(again.statusCode).toBe(202);
    await app.sms.settled();
    // eslint-disable-next-line @typescript-eslint/no-unsafe-assignment -- vitest types its asymmetric matchers as any
    expect(sent.at(-1)).toEqual({ to: phone, body: expect.stringMatching(/\b\d{6}\b/) });
  });
});
