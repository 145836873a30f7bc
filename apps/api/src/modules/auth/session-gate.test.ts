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
    expect(sessions.admitsKnown({ ...claims, sid: crypto.randomUUID() })).toBe(false);
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

describe('the session gate under a lease (other processes write: PostgreSQL)', () => {
  const claims = { sub: SUB, role: 'member' as const, sid: SID };

  /** A gate whose cache is trusted only within 250 ms of a probe's sending (monotonic ms). */
  function leased() {
    const clock = { t: 1_000 };
    const db = { standing: { role: 'member', status: 'active', live: true } as Standing, reads: 0 };
    const sessions = createSessionGate(
      {
        sessionStanding: async () => {
          db.reads += 1;
          return db.standing;
        },
      },
      { cacheMs: 60_000, now: () => clock.t, lease: { ms: 250, monotonic: () => clock.t } },
    );
    sessions.setListening(true);
    return { sessions, db, clock };
  }

  it('trusts its cache only while a probe sent less than a lease ago has been answered', async () => {
    const { sessions, db, clock } = leased();
    expect(await sessions.admits(claims)).toBe(true);
    // Subscribed and cached, but no probe answered yet: the database decides.
    expect(sessions.admitsKnown(claims)).toBe(false);
    sessions.caughtUp(clock.t);
    expect(sessions.admitsKnown(claims)).toBe(true);
    clock.t += 249;
    expect(sessions.admitsKnown(claims)).toBe(true);
    // The connection froze: no probe since. A change may be committed and unheard.
    clock.t += 1;
    expect(sessions.admitsKnown(claims)).toBe(false);
    db.standing = { ...db.standing, live: false };
    expect(await sessions.admits(claims)).toBe(false);
    expect(db.reads).toBe(2);
  });

  it('is not renewed by an answer to a probe sent long ago, nor across a reconnection', async () => {
    const { sessions, clock } = leased();
    await sessions.admits(claims);
    // A probe sent 300 ms ago answered only now: it proves nothing about the last 300 ms.
    clock.t += 300;
    sessions.caughtUp(clock.t - 300);
    expect(sessions.admitsKnown(claims)).toBe(false);
    sessions.caughtUp(clock.t);
    await sessions.admits(claims);
    expect(sessions.admitsKnown(claims)).toBe(true);
    // Reconnected: what was heard on the old connection no longer counts.
    sessions.setListening(false);
    sessions.setListening(true);
    await sessions.admits(claims);
    expect(sessions.admitsKnown(claims)).toBe(false);
  });
});
