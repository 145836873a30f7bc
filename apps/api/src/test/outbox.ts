import fs from 'node:fs';
import path from 'node:path';
import { OUTBOX_FILE } from '../plugins/sms.js';

export interface OutboxMessage {
  to: string;
  body: string;
  sent_at: string;
}

/** Every text the file SMS sender wrote to `dataDir`, oldest first. */
export function readOutbox(dataDir: string): OutboxMessage[] {
  const file = path.join(dataDir, OUTBOX_FILE);
  if (!fs.existsSync(file)) return [];
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as OutboxMessage);
}

/** The texts sent to `phone` (E.164). */
export function messagesTo(dataDir: string, phone: string): OutboxMessage[] {
  return readOutbox(dataDir).filter((m) => m.to === phone);
}

/** The 6-digit code of the last text to `phone`, or undefined when none carried one. */
export function lastCodeFor(dataDir: string, phone: string): string | undefined {
  const last = messagesTo(dataDir, phone).at(-1);
  return last ? /\b(\d{6})\b/.exec(last.body)?.[1] : undefined;
}
