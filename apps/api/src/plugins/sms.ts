import fs from 'node:fs';
import path from 'node:path';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { TwilioConfig } from '../config.js';

/** Sends one text message. Implementations never log the number or the body. */
export interface SmsSender {
  send(to: string, body: string): Promise<void>;
}

/** `app.sms`: sends in the background; `settled()` waits for the texts still going out. */
export interface SmsQueue extends SmsSender {
  settled(): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    sms: SmsQueue;
  }
}

export const OUTBOX_FILE = 'sms-outbox.jsonl';

/**
 * Development and tests: one JSON line `{to, body, sent_at}` per message in DATA_DIR. Written at
 * once (a line of a hundred bytes), so a text is in the file when `send` returns, even from the
 * background queue: a test reads it right after its request.
 */
export function fileSmsSender(dataDir: string, clock: () => Date = () => new Date()): SmsSender {
  const file = path.join(dataDir, OUTBOX_FILE);
  return {
    async send(to, body) {
      fs.mkdirSync(dataDir, { recursive: true });
      const line = JSON.stringify({ to, body, sent_at: clock().toISOString() });
      fs.appendFileSync(file, `${line}\n`, { mode: 0o600 });
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

/**
 * Texts go out after the reply, not within it: a request that texts a code then takes as long as
 * one for a number that gets none (no account enumeration by timing, decision 005), and a slow
 * provider never holds a request. A text that fails is logged as an error (the app's serializer
 * keeps its type, message and stack; no sender puts the number or the body in its errors, and
 * SmsDeliveryError keeps only Twilio's status and code), and the member asks for another code.
 */
export function backgroundSms(sender: SmsSender, log: FastifyBaseLogger): SmsQueue {
  const pending = new Set<Promise<void>>();
  return {
    send(to, body) {
      // Started in a microtask: a sender that throws at once fails here, not in the request.
      // (It still runs before the caller's `await` resumes: the file sender's line is written.)
      const sending: Promise<void> = Promise.resolve()
        .then(() => sender.send(to, body))
        .catch((err: unknown) => {
          try {
            log.error({ err }, 'a text message was not sent');
          } catch {
            // Nothing else to do: a failing logger must not become an unhandled rejection.
          }
        })
        .finally(() => pending.delete(sending));
      pending.add(sending);
      return Promise.resolve();
    },
    async settled() {
      while (pending.size) await Promise.all(pending);
    },
  };
}

/** The configured sender, in the background, as `app.sms`; a test may pass its own sender. */
async function sms(app: FastifyInstance, opts: { sender?: SmsSender; clock?: () => Date }) {
  const { config } = app;
  const sender =
    opts.sender ??
    (config.sms.provider === 'twilio' && config.sms.twilio
      ? twilioSmsSender(config.sms.twilio)
      : fileSmsSender(config.dataDir, opts.clock));
  app.decorate('sms', backgroundSms(sender, app.log));
  // Texts still going out are sent before the process ends (Twilio's calls time out at 10 s).
  app.addHook('onClose', () => app.sms.settled());
}

export default fp(sms, { name: 'sms' });
