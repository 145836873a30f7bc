import { describe, expect, it } from 'vitest';
import type { Standing } from './auth.repository.js';
import { createSessionGate } from './session-gate.js';

const SUB = '2b1f3c2e-8a31-4c0e-9d55-6f1f0f8b8c11';
const SID = '7d0c8f5e-3b1a-4f6e-9a2b-1c3d5e7f9a0b';

/** A gate over a standing the test sets (what the database would answer), counting the reads. */
function gate(now = { t: 0 }) {
  const db = { standing: { role: 'member', status: 'active', live: true } as Standing, reads: 0 };
  const sessions = createSessionGate(
    {
      sessionStanding: async () => {
        db.reads += 1;
        return db.standing;
      },
    },
    { cacheMs: 60_000, now: () => now.t },
  );
  return { sessions, db, now };
}

describe('the session gate without waiting (admitsKnown)', () => {
  const claims = { sub: SUB, role: 'member' as const, sid: SID };

  it('admits only what a read admitted, while notifications arrive and the entry is fresh', async () => {
    const { sessions, db, now } = gate();
    sessions.setListening(true);
    expect(sessions.admitsKnown(claims)).toBe(false);
    expect(await sessions.admits(claims)).toBe(true);
    expect(sessions.admitsKnown(claims)).toBe(true);
    expect(await sessions.admits(claims)).toBe(true);
    expect(db.reads).toBe(1);
    // Another session of the same member, or another role, was never read.
    expect(sessions.admitsKnown({ ...claims, sid: undefined })).toBe(false);
    expect(sessions.admitsKnown({ ...claims, role: 'admin' })).toBe(false);
    now.t += 60_000;
    expect(sessions.admitsKnown(claims)).toBe(false);
  });

  it('knows nothing after a change to the member, or while deaf to changes', async () => {
    const { sessions, db } = gate();
    sessions.setListening(true);
    await sessions.admits(claims);
    sessions.invalidate(SUB);
    expect(sessions.admitsKnown(claims)).toBe(false);
    db.standing = { ...db.standing, live: false };
    expect(await sessions.admits(claims)).toBe(false);
    expect(sessions.admitsKnown(claims)).toBe(false);
    db.standing = { ...db.standing, live: true };
    await sessions.admits(claims);
    sessions.setListening(false);
    expect(sessions.admitsKnown(claims)).toBe(false);
  });
});
