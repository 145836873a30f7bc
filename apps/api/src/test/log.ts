import { Writable } from 'node:stream';
import { type Level, pino } from 'pino';
import { logOptions } from '../app.js';

/**
 * A logger with the app's own options (redaction, error serializer) that writes into memory:
 * `text` is everything it wrote, for tests that search the log for what must not be there.
 */
export function memoryLog(level: Level = 'info') {
  const out = { text: '' };
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      out.text += chunk.toString();
      done();
    },
  });
  return Object.assign(out, { logger: pino({ level, ...logOptions }, sink) });
}
