import fs from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { TwilioConfig } from '../config.js';

/** Sends one text message. Implementations never log the number or the body. */
export interface SmsSender {
  send(to: string, body: string): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    sms: SmsSender;
  }
}

export const OUTBOX_FILE = 'sms-outbox.jsonl';

/** Development and tests: one JSON line `{to, body, sent_at}` per message in DATA_DIR. */
export function fileSmsSender(dataDir: string, clock: () => Date = () => new Date()): SmsSender {
  const file = path.join(dataDir, OUTBOX_FILE);
  let ready: Promise<unknown> | undefined;
  return {
    async send(to, body) {
      ready ??= fs.mkdir(dataDir, { recursive: true });
      await ready;
      const line = JSON.stringify({ to, body, sent_at: clock().toISOString() });
      await fs.appendFile(file, `${line}\n`, { mode: 0o600 });
    },
  };
}

/** Thrown when Twilio refuses a message; carries Twilio's status and error code, never the body. */
export class SmsDeliveryError extends Error {
  override name = 'SmsDeliveryError';
}

/** Production: Twilio's Messages REST API, with fetch. */
export function twilioSmsSender(twilio: TwilioConfig): SmsSender {
  const url = `${twilio.apiUrl}/2010-04-01/Accounts/${encodeURIComponent(twilio.accountSid)}/Messages.json`;
  const auth = Buffer.from(`${twilio.accountSid}:${twilio.authToken}`).toString('base64');
  return {
    async send(to, body) {
      const res = await fetch(url, {
        method: 'POST',
        headers: {
          Authorization: `Basic ${auth}`,
          'Content-Type': 'application/x-www-form-urlencoded',
          Accept: 'application/json',
        },
        body: new URLSearchParams({ To: to, From: twilio.from, Body: body }).toString(),
        signal: AbortSignal.timeout(10_000),
      });
      if (!res.ok) {
        // Twilio's error body can echo the number: keep only its numeric code.
        const payload = (await res.json().catch(() => ({}))) as { code?: unknown };
        const code = typeof payload.code === 'number' ? ` (Twilio error ${payload.code})` : '';
        throw new SmsDeliveryError(`Twilio answered ${res.status}${code}`);
      }
    },
  };
}

/** The configured sender as `app.sms`; a test may pass its own. */
async function sms(app: FastifyInstance, opts: { sender?: SmsSender; clock?: () => Date }) {
  const { config } = app;
  const sender =
    opts.sender ??
    (config.sms.provider === 'twilio' && config.sms.twilio
      ? twilioSmsSender(config.sms.twilio)
      : fileSmsSender(config.dataDir, opts.clock));
  app.decorate('sms', sender);
}

export default fp(sms, { name: 'sms' });
