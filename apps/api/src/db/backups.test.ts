// The parts of the embedded database's backups (decision 025) that need no server: the restore's
// time, and retention. Base backups, archiving and a restore end to end, with the real server:
// reliability/backup-restore.test.ts.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  listBackups,
  parseRestoreTarget,
  pruneBackups,
  RestoreError,
  restoreTo,
} from './backups.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe('the time a restore is asked for', () => {
  const now = new Date('2026-11-27T03:00:00Z');

  it('takes ISO 8601 with a zone, to the second or finer', () => {
    expect(parseRestoreTarget('2026-11-27T02:14:15Z', now).toISOString()).toBe(
      '2026-11-27T02:14:15.000Z',
    );
    expect(parseRestoreTarget('2026-11-27T03:14:15.250+01:00', now).toISOString()).toBe(
      '2026-11-27T02:14:15.250Z',
    );
    expect(parseRestoreTarget('2026-11-27 01:14:15-0100', now).toISOString()).toBe(
      '2026-11-27T02:14:15.000Z',
    );
  });

  it('refuses a time without a zone, a malformed one, and one in the future, saying why', () => {
    for (const text of [
      '2026-11-27T02:14:15',
      'yesterday',
      '2026-11-27',
      '2026-13-40T99:00:00Z',
      '',
    ])
      expect(() => parseRestoreTarget(text, now), text).toThrow(/not an ISO 8601 time with a zone/);
    expect(() => parseRestoreTarget('2026-11-27T03:00:01Z', now)).toThrow(RestoreError);
    expect(() => parseRestoreTarget('2026-11-27T03:00:01Z', now)).toThrow(/is in the future/);
  });
});

describe('retention', () => {
  /** A backup folder with base backups finished at the given hours (whose first segment is its index + 2) and segments 1-9. */
  function fixture(hours: number[]): string {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'candor-backups-'));
    dirs.push(dir);
    fs.mkdirSync(path.join(dir, 'wal'));
    hours.forEach((h, i) => {
      const at = `2026-11-2${h}T00:00:00.000Z`;
      const folder = path.join(dir, 'base', at.replace(/[:.]/g, '-'));
      fs.mkdirSync(path.join(folder, 'data'), { recursive: true });
      const seg = (n: number) => `00000001000000000000000${n}`;
      fs.writeFileSync(
        path.join(folder, 'backup.json'),
        JSON.stringify({
          startedAt: at,
          finishedAt: at,
          startWal: seg(i + 2),
          stopWal: seg(i + 2),
          bytes: 1,
        }),
      );
    });
    for (let n = 1; n <= 9; n++)
      fs.writeFileSync(path.join(dir, 'wal', `00000001000000000000000${n}`), '');
    fs.writeFileSync(path.join(dir, 'wal', '000000010000000000000003.00000028.backup'), '');
    fs.writeFileSync(path.join(dir, 'wal', '00000002.history'), '');
    fs.mkdirSync(path.join(dir, 'base', 'left-by-a-crash.partial'));
    return dir;
  }

  it('keeps the newest base backups and the log from the oldest kept one on', () => {
    const dir = fixture([1, 2, 3, 4]);
    const pruned = pruneBackups(dir, 2);
    expect(pruned.backups).toHaveLength(2);
    expect(listBackups(dir).map((b) => b.finishedAt)).toEqual([
      '2026-11-23T00:00:00.000Z',
      '2026-11-24T00:00:00.000Z',
    ]);
    // The oldest kept starts at segment 4: 1-3 and the older backup's history file go.
    expect(fs.readdirSync(path.join(dir, 'wal')).sort()).toEqual([
      '000000010000000000000004',
      '000000010000000000000005',
      '000000010000000000000006',
      '000000010000000000000007',
      '000000010000000000000008',
      '000000010000000000000009',
      '00000002.history',
    ]);
    expect(pruned.segments).toBe(4);
    expect(fs.existsSync(path.join(dir, 'base', 'left-by-a-crash.partial'))).toBe(false);
  });

  it('removes nothing while there are no more backups than kept', () => {
    const dir = fixture([1, 2]);
    expect(pruneBackups(dir, 7)).toEqual({ backups: [], segments: 1 });
    // Segment 1 predates the oldest backup (it starts at 2): no backup can use it.
    expect(fs.readdirSync(path.join(dir, 'wal'))).toHaveLength(10);
  });
});

describe('a restore with no backup to start from', () => {
  it('is refused before anything is touched, naming the oldest backup kept', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'candor-backups-'));
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'candor-data-'));
    dirs.push(dir, dataDir);
    await expect(
      restoreTo({ dataDir, backupDir: dir, target: new Date('2026-11-27T00:00:00Z') }),
    ).rejects.toThrow(/No base backups in/);
    const at = '2026-11-26T12:00:00.000Z';
    const folder = path.join(dir, 'base', 'one');
    fs.mkdirSync(folder, { recursive: true });
    fs.writeFileSync(
      path.join(folder, 'backup.json'),
      JSON.stringify({ startedAt: at, finishedAt: at, startWal: 'x', stopWal: 'x', bytes: 1 }),
    );
    await expect(
      restoreTo({ dataDir, backupDir: dir, target: new Date('2026-11-26T11:59:59Z') }),
    ).rejects.toThrow(
      'No base backup had finished by 2026-11-26T11:59:59.000Z: the oldest kept finished at 2026-11-26T12:00:00.000Z',
    );
    expect(fs.readdirSync(dataDir)).toEqual([]);
  });
});
