import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readOutbox } from '../test/outbox.js';
import { SmsDeliveryError, fileSmsSender, twilioSmsSender } from './sms.js';

describe('file SMS sender', () => {
  it('appends one JSON line per text to DATA_DIR/sms-outbox.jsonl, creating the folder', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'candor-sms-'));
    const dataDir = path.join(root, 'nested', 'data');
    const sender = fileSmsSender(dataDir, () => new Date('2026-03-01T12:00:00Z'));
    await sender.send('+447700900123', 'Your Candor code is 123456.');
    await sender.send('+12025550123', 'Second "quoted"\nline');
    const raw = fs.readFileSync(path.join(dataDir, 'sms-outbox.jsonl'), 'utf8');
    expect(raw.trim().split('\n')).toHaveLength(2);
    expect(readOutbox(dataDir)).toEqual([
      {
        to: '+447700900123',
        body: 'Your Candor code is 123456.',
        sent_at: '2026-03-01T12:00:00.000Z',
      },
      { to: '+12025550123', body: 'Second "quoted"\nline', sent_at: '2026-03-01T12:00:00.000Z' },
    ]);
    fs.rmSync(root, { recursive: true, force: true });
  });
});

describe('Twilio SMS sender', () => {
  const received: Array<{
    method: string;
    url: string;
    headers: http.IncomingHttpHeaders;
    body: string;
  }> = [];
  let status = 201;
  let server: http.Server;
  let apiUrl: string;

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        received.push({ method: req.method!, url: req.url!, headers: req.headers, body });
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(
          status < 300
            ? JSON.stringify({ sid: 'SM123', status: 'queued' })
            : JSON.stringify({
                code: 21211,
                message: "The 'To' number +15005550001 is not valid.",
              }),
        );
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    apiUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const twilio = () =>
    twilioSmsSender({ accountSid: 'AC0123', authToken: 'tok3n', from: '+15005550006', apiUrl });

  it('posts the message to the Messages API with basic auth, as a form', async () => {
    received.length = 0;
    status = 201;
    await twilio().send('+447700900123', "Your Candor code is 123456. Don't share it.");
    expect(received).toHaveLength(1);
    const [request] = received;
    expect(request!.method).toBe('POST');
    expect(request!.url).toBe('/2010-04-01/Accounts/AC0123/Messages.json');
    expect(request!.headers.authorization).toBe(
      `Basic ${Buffer.from('AC0123:tok3n').toString('base64')}`,
    );
    expect(request!.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(Object.fromEntries(new URLSearchParams(request!.body))).toEqual({
      To: '+447700900123',
      From: '+15005550006',
      Body: "Your Candor code is 123456. Don't share it.",
    });
  });

  it('fails with Twilio status and code only (never the number) when refused', async () => {
    status = 400;
    const err = await twilio()
      .send('+15005550001', 'Your Candor code is 654321.')
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SmsDeliveryError);
    expect((err as Error).message).toBe('Twilio answered 400 (Twilio error 21211)');
    expect((err as Error).message).not.toContain('15005550001');
  });
});
