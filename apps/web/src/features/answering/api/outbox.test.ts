import 'fake-indexeddb/auto';
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { setApiBase } from '../../../lib/api-client';
import { openLocalDb, type CandorDb } from '../lib/local-db';
import { storeTokens } from '../../../lib/tokens';
import { useLocalAnswers } from '../../../lib/local-answers';
import {
  answersSentThisPage,
  claimVisitorAnswers,
  closedToMember,
  discardVisitorAnswers,
  flushOutbox,
  forgetAccount,
  forgetDevice,
  localAnswers,
  onOutbox,
  ownAnswers,
  pendingCount,
  recordAnswer,
  recordRating,
  setOutboxOwner,
  setOutboxProfile,
  useOutboxDb,
  vaultContents,
  waitingAnswers,
  applyVault,
  credentials,
  visitorOwner,
  type OutboxEvent,
} from './outbox';

const QID = (n: number) => `00000000-0000-4000-8000-00000000000${n}`;
const GID = '11111111-1111-4111-8111-111111111111';

// A stand-in API that stores answers once per question, like the real one, and can fail.
let server: http.Server;
let base = '';
const stored = new Map<string, { key: string | undefined; body: unknown }>();
const calls: Array<{ url: string; key: string | undefined }> = [];
let failNext = 0;

// The survey's credential key (decision 020): the stand-in signs blinded messages as the API
// does (RSASP1 through OpenSSL's raw RSA; the device's side is the real library).
const { publicKey: spki, privateKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
const publicKeyB64 = spki.export({ type: 'spki', format: 'der' }).toString('base64url');
/** Credentials issued, and the headers answers and ratings came with. */
let issued = 0;
/** Surveys a credential was issued for: one per member and survey, as the API enforces. */
const issuedFor = new Set<string>();
const sentWith: Array<{ credential: boolean; session: boolean }> = [];
/** The next issuance is refused as for an account under review. */
let underReview = false;
/** The account answered the survey before credentials: issuance says ALREADY_ANSWERED. */
let answeredBefore = false;
/** Reads of the API's mirror: the device never asks it (decision 020: it holds nothing). */
let mirrorReads = 0;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => {
      const send = (status: number, body: unknown) => {
        res.writeHead(status, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      const url = req.url ?? '';
      if (url.startsWith('/api/v1/surveys/open-closed-random-video-surveys')) {
        return send(200, {
          count: 1,
          next: null,
          previous: null,
          results: [{ gid: GID, status: 'Open' }],
        });
      }
      if (url === `/api/v1/surveys/${GID}/credential-key/`) {
        return send(200, {
          gid: GID,
          key_id: 'k1',
          public_key: publicKeyB64,
          suite: 'RSABSSA-SHA384-PSS-Randomized',
        });
      }
      if (url === '/api/v1/user/mirror/' || url.startsWith('/api/v1/questions/my-attempted')) {
        mirrorReads++;
        return send(200, { results: [] });
      }
      if (url === '/api/v1/credentials/') {
        if (underReview) return send(403, { detail: 'Not approved yet.', code: 'FORBIDDEN' });
        const all = (JSON.parse(raw) as { requests: Array<{ gid: string; blinded_msg: string }> })
          .requests;
        // One per member and survey, as the API enforces (these tests have one member a test).
        if (answeredBefore) {
          return send(200, {
            credentials: [],
            refused: all.map((r) => ({
              gid: r.gid,
              code: 'ALREADY_ANSWERED',
              detail: 'Answered before credentials.',
            })),
          });
        }
        const requests = all.filter((r) => !issuedFor.has(r.gid));
        for (const r of requests) issuedFor.add(r.gid);
        issued += requests.length;
        return send(200, {
          refused: all
            .filter((r) => !requests.includes(r))
            .map((r) => ({ gid: r.gid, code: 'CREDENTIAL_ISSUED', detail: 'Issued already.' })),
          credentials: requests.map((r) => ({
            gid: r.gid,
            key_id: 'k1',
            blind_sig: crypto
              .privateDecrypt(
                { key: privateKey, padding: crypto.constants.RSA_NO_PADDING },
                Buffer.from(r.blinded_msg, 'base64url'),
              )
              .toString('base64url'),
          })),
        });
      }
      const key = req.headers['idempotency-key'] as string | undefined;
      const m = /^\/api\/v1\/questions\/([^/]+)\/(answer|rating)\/$/.exec(url);
      if (!m) return send(404, { detail: 'Not found.', code: 'NOT_FOUND' });
      calls.push({ url, key });
      sentWith.push({
        credential: typeof req.headers['candor-credential'] === 'string',
        session: req.headers.authorization !== undefined || req.headers.cookie !== undefined,
      });
      const [, qid, kind] = m;
      const body = JSON.parse(raw) as Record<string, unknown>;
      if (kind === 'rating') return send(200, { qid, score: body.score });
      const existing = stored.get(qid!);
      if (existing && existing.key !== key) {
        return send(409, { detail: 'Already answered.', code: 'ALREADY_ANSWERED' });
      }
      if (!existing) stored.set(qid!, { key, body });
      // Stored, but the acknowledgement is lost: the client must retry with the same key.
      if (failNext > 0) {
        failNext--;
        return send(503, { detail: 'Busy.', code: 'SERVICE_UNAVAILABLE' });
      }
      send(existing ? 200 : 201, {
        qid,
        gid: GID,
        answer: body.choice ?? body.text,
        is_blank: false,
        date: '2026-11-22',
        results: null,
      });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

let db: CandorDb;
let n = 0;
const events: OutboxEvent[] = [];
onOutbox((e) => events.push(e));

beforeEach(async () => {
  await setOutboxOwner(null);
  // What the last test left running ends in its own database first: a login's batch of
  // credentials is not awaited by the login, and one finishing here would take this test's
  // survey for another member (the stand-in issues one credential per survey).
  await credentials.stateFor('', GID);
  await flushOutbox();
  db = openLocalDb(`test-${++n}`);
  sessionStorage.clear();
  // No other tab is open unless a test says so.
  useOutboxDb(db, () => Promise.resolve(new Set()));
  setApiBase(base);
  localStorage.clear();
  storeTokens({ access: 'a', refresh: 'r' });
  stored.clear();
  calls.length = 0;
  events.length = 0;
  failNext = 0;
  sentWith.length = 0;
  issued = 0;
  issuedFor.clear();
  underReview = false;
  answeredBefore = false;
  mirrorReads = 0;
  await db.profiles.put({
    owner: 'user-1',
    gender: 'female',
    yearOfBirth: 1990,
    country: 'GB',
    at: new Date().toISOString(),
  });
  setOutboxProfile({ phone_number: '+447700900123', country: 'GB' });
});

const answer = (q: number, choice = 'Yes') =>
  recordAnswer({ qid: QID(q), gid: GID, body: { choice }, answer: choice, isBlank: false });

describe('outbox', () => {
  it("keeps a visitor's answers in the browser and sends them once, in order, once claimed", async () => {
    await answer(1);
    await answer(2, 'No');
    await recordRating({ qid: QID(1), gid: GID, score: 7 });
    await recordRating({ qid: QID(1), gid: GID, score: 9 }); // replaces the queued one
    expect(calls).toEqual([]);
    expect(await pendingCount()).toBe(3);
    expect([...(await localAnswers(GID)).keys()]).toEqual([QID(1), QID(2)]);

    await setOutboxOwner('user-1');
    await flushOutbox();
    // Nothing is sent before the person says the answers are theirs.
    expect(calls).toEqual([]);
    expect(useLocalAnswers.getState().offered).toBe(2);
    await claimVisitorAnswers();
    expect(useLocalAnswers.getState().offered).toBe(0);
    await flushOutbox();
    expect(calls.map((c) => c.url)).toEqual([
      `/api/v1/questions/${QID(1)}/answer/`,
      `/api/v1/questions/${QID(2)}/answer/`,
      `/api/v1/questions/${QID(1)}/rating/`,
    ]);
    expect(stored.size).toBe(2);
    expect(await pendingCount()).toBe(0);
    // The visitor's answers became the member's.
    expect([...(await localAnswers(GID)).keys()]).toEqual([QID(1), QID(2)]);
    // This page knows they were sent just now: results published before do not hold them.
    const sent = answersSentThisPage(GID);
    expect(Object.keys(sent).sort()).toEqual([QID(1), QID(2)]);
    for (const at of Object.values(sent)) expect(Date.now() - at).toBeLessThan(5_000);
    expect(answersSentThisPage('22222222-2222-4222-8222-222222222222')).toEqual({});
  });

  it('sends a member answer at once and returns the API response', async () => {
    await setOutboxOwner('user-1');
    const { response } = await answer(3);
    expect(response).toMatchObject({ qid: QID(3), answer: 'Yes' });
    expect(await pendingCount()).toBe(0);
  });

  it("sends a member's answers and ratings with the survey's credential, never the session", async () => {
    await setOutboxOwner('user-1');
    await answer(1);
    await answer(2, 'No');
    await recordRating({ qid: QID(1), gid: GID, score: 4 });
    await flushOutbox();
    expect(calls).toHaveLength(3);
    expect(sentWith).toEqual(Array(3).fill({ credential: true, session: false }));
    // One credential for the survey, asked for once (at the login's batch), however many answers.
    expect(issued).toBe(1);
    // The breakdown class goes with the answer; the account never does.
    expect(stored.get(QID(1))?.body).toMatchObject({ profile: { age_band: '35-44' } });
  });

  it("never asks the API for the member's answers: the device alone holds them", async () => {
    await setOutboxOwner('user-1');
    await answer(1);
    expect([...(await localAnswers(GID)).keys()]).toEqual([QID(1)]);
    await ownAnswers();
    await setOutboxOwner(null);
    await setOutboxOwner('user-1');
    await localAnswers(GID);
    expect(mirrorReads).toBe(0);
    // The login's batch of credentials ends here, not in the next test.
    await credentials.issueForOpenSurveys('user-1');
  });

  it("brings a member's answers, ratings and credentials to their second device through the vault, sending nothing again", async () => {
    await setOutboxOwner('user-9');
    await answer(1, 'No');
    await recordRating({ qid: QID(1), gid: GID, score: 8 });
    await flushOutbox();
    const first = await vaultContents();
    expect(first.answers).toMatchObject([{ qid: QID(1), gid: GID, answer: 'No', isBlank: false }]);
    expect(first.ratings).toMatchObject([{ qid: QID(1), score: 8 }]);
    expect(first.credentials).toHaveLength(1);
    const token = first.credentials[0]!.token;

    // The second device: its own browser database, the same member.
    await setOutboxOwner(null);
    useOutboxDb(openLocalDb(`test-${++n}`), () => Promise.resolve(new Set()));
    calls.length = 0;
    await setOutboxOwner('user-9');
    await applyVault(first);
    await flushOutbox();
    const mine = await localAnswers(GID);
    expect(mine.get(QID(1))).toMatchObject({ answer: 'No', rating: 8 });
    expect(await credentials.stateFor('user-9', GID)).toEqual({ kind: 'ready', token });
    // Answered there, so nothing is sent from here.
    expect(calls).toEqual([]);
    expect(await pendingCount()).toBe(0);
    // The same vault again (every sync applies it): nothing changed, so the screens are not
    // told to read theirs again (a survey's intro would fall back to waiting under the person).
    const version = useLocalAnswers.getState().version;
    await applyVault(first);
    expect(useLocalAnswers.getState().version).toBe(version);
  });

  it('keeps the answers of an account under review on the device, and sends them once approved', async () => {
    underReview = true;
    await setOutboxOwner('user-7');
    const { response } = await answer(5);
    expect(response).toBeNull();
    expect(calls).toEqual([]);
    expect(await pendingCount()).toBe(1);
    // Approved: the next start of a session asks again and sends what waited.
    underReview = false;
    await setOutboxOwner(null);
    await setOutboxOwner('user-7');
    await flushOutbox();
    expect(calls.map((c) => c.url)).toEqual([`/api/v1/questions/${QID(5)}/answer/`]);
    expect(sentWith).toEqual([{ credential: true, session: false }]);
    expect(await pendingCount()).toBe(0);
  });

  it('keeps an answer while the API is unreachable and sends it once it is back', async () => {
    await setOutboxOwner('user-1');
    setApiBase('http://127.0.0.1:9/api'); // nothing listens there
    const { response } = await answer(4);
    expect(response).toBeNull();
    expect(await pendingCount()).toBe(1);
    expect(events.some((e) => e.type === 'waiting')).toBe(true);
    setApiBase(base);
    await flushOutbox();
    expect(await pendingCount()).toBe(0);
    expect(stored.get(QID(4))?.body).toEqual({
      choice: 'Yes',
      profile: { gender: 'female', age_band: '35-44', country: 'GB' },
    });
  });

  it('retries with the same Idempotency-Key when an acknowledgement is lost', async () => {
    await setOutboxOwner('user-1');
    failNext = 1;
    await answer(5);
    expect(await pendingCount()).toBe(1);
    await flushOutbox();
    expect(await pendingCount()).toBe(0);
    const keys = calls.filter((c) => c.url.endsWith('/answer/')).map((c) => c.key);
    expect(keys).toHaveLength(2);
    expect(keys[0]).toBe(keys[1]);
    expect(stored.size).toBe(1);
  });

  it('sends nothing to a survey the member began before credentials: the answer is dropped, saying why', async () => {
    answeredBefore = true;
    await setOutboxOwner('user-1');
    await answer(8);
    await flushOutbox();
    // Neither with a credential (none is issued) nor with the session (slice 5).
    expect(calls).toEqual([]);
    expect(await pendingCount()).toBe(0);
    const dropped = events.find((e) => e.type === 'dropped');
    expect(dropped?.type === 'dropped' && dropped.error.code).toBe('CREDENTIAL_REQUIRED');
    expect(dropped?.type === 'dropped' && dropped.error.message).toMatch(
      /before answers became anonymous/,
    );
    // The survey's page says so before anyone answers it.
    expect(await closedToMember(GID)).toBe('answered-before');
  });

  it('drops an answer the API refuses for good, and says so', async () => {
    stored.set(QID(6), { key: 'from-another-device', body: { choice: 'No' } });
    await setOutboxOwner('user-1');
    await answer(6);
    expect(await pendingCount()).toBe(0);
    const dropped = events.find((e) => e.type === 'dropped');
    expect(dropped?.type === 'dropped' && dropped.error.code).toBe('ALREADY_ANSWERED');
  });

  it('records one answer per question in the browser, whatever is tapped twice', async () => {
    await Promise.all([answer(7), answer(7, 'No')]);
    expect((await db.answeredQuestions.toArray()).length).toBe(1);
    expect(await pendingCount()).toBe(1);
  });

  it('knows which answers still wait on this device, and that the rest were taken', async () => {
    await setOutboxOwner('user-1');
    await answer(1);
    setApiBase('http://127.0.0.1:9/api');
    await answer(2, 'No');
    await recordRating({ qid: QID(1), gid: GID, score: 4 });
    // Only answers, only this survey's, only this person's.
    expect([...(await waitingAnswers(GID))]).toEqual([QID(2)]);
    expect((await waitingAnswers('22222222-2222-4222-8222-222222222222')).size).toBe(0);
    setApiBase(base);
    await vi.waitFor(
      async () => {
        await flushOutbox();
        expect((await waitingAnswers(GID)).size).toBe(0);
      },
      { timeout: 4_000, interval: 200 },
    );
    await setOutboxOwner('user-2');
    expect((await waitingAnswers(GID)).size).toBe(0);
  });

  it('forgets the answered-questions record at logout but keeps unsent answers', async () => {
    await setOutboxOwner('user-1');
    setApiBase('http://127.0.0.1:9/api');
    await answer(8);
    await setOutboxOwner(null);
    expect(await db.answeredQuestions.count()).toBe(0);
    expect(await db.outbox.count()).toBe(1);
    // Another person logging in on this browser does not send it.
    setApiBase(base);
    await setOutboxOwner('user-2');
    await flushOutbox();
    expect(stored.size).toBe(0);
  });

  it('takes no second answer to a question whose first still waits, even once its record is gone', async () => {
    // Logged out while the answer waited: the record goes, the unsent item stays. Answering
    // again after logging back in must not queue a second one (for a randomized-response
    // question, a second draw of the same person's answer: decision 028).
    await setOutboxOwner('user-1');
    setApiBase('http://127.0.0.1:9/api');
    await answer(8);
    await setOutboxOwner(null);
    await setOutboxOwner('user-1');
    expect(await db.answeredQuestions.count()).toBe(0);
    await answer(8, 'No');
    expect(await db.outbox.count()).toBe(1);
    setApiBase(base);
    // The failed tries against the dead address may have scheduled a retry of their own: the
    // one answer goes at whichever flush comes first, and it is the first answer.
    await vi.waitFor(
      async () => {
        await flushOutbox();
        expect(stored.get(QID(8))?.body).toMatchObject({ choice: 'Yes' });
      },
      { timeout: 4_000, interval: 200 },
    );
    expect(await db.outbox.count()).toBe(0);
  });

  it('never sends the answers of a visitor a login finds when the person discards them', async () => {
    await answer(1);
    await answer(2, 'No');
    await recordRating({ qid: QID(1), gid: GID, score: 4 });
    await setOutboxOwner('user-2');
    expect(useLocalAnswers.getState().offered).toBe(2);
    // Not the member's until claimed: not in their record, not sent.
    expect((await localAnswers(GID)).size).toBe(0);
    await flushOutbox();
    expect(calls).toEqual([]);
    await discardVisitorAnswers();
    expect(useLocalAnswers.getState().offered).toBe(0);
    await flushOutbox();
    expect(calls).toEqual([]);
    expect(await db.outbox.count()).toBe(0);
    expect(await db.answeredQuestions.count()).toBe(0);
  });

  it('deletes, at the next start, the answers of a browser session that ended', async () => {
    await answer(1);
    await answer(2, 'No');
    const first = visitorOwner();
    // The tab closes; another opens on the same browser (new sessionStorage, no live tab).
    sessionStorage.clear();
    useOutboxDb(db, () => Promise.resolve(new Set()));
    expect(visitorOwner()).not.toBe(first);
    await setOutboxOwner('user-3');
    await flushOutbox();
    expect(useLocalAnswers.getState().offered).toBe(0);
    expect(calls).toEqual([]);
    expect(await db.outbox.count()).toBe(0);
    expect(await db.answeredQuestions.count()).toBe(0);
  });

  it('keeps the answers of a session another tab still holds, and never offers them here', async () => {
    await answer(1);
    const other = visitorOwner();
    sessionStorage.clear();
    useOutboxDb(db, () => Promise.resolve(new Set([other])));
    await setOutboxOwner('user-4');
    await flushOutbox();
    expect(useLocalAnswers.getState().offered).toBe(0);
    expect(calls).toEqual([]);
    expect((await db.outbox.toArray()).map((i) => i.owner)).toEqual([other]);
  });

  it('deletes answers from before sessions existed (the bare visitor owner) at start', async () => {
    await db.outbox.add({
      key: 'old',
      kind: 'answer',
      qid: QID(1),
      gid: GID,
      body: { choice: 'Yes' },
      owner: 'visitor',
      tries: 0,
    });
    await setOutboxOwner('user-5');
    await flushOutbox();
    expect(calls).toEqual([]);
    expect(await db.outbox.count()).toBe(0);
  });

  it('at logout, drops unclaimed visitor answers and starts a new visitor session', async () => {
    await answer(1);
    const before = visitorOwner();
    await setOutboxOwner('user-6');
    expect(useLocalAnswers.getState().offered).toBe(1);
    await setOutboxOwner(null);
    expect(useLocalAnswers.getState().offered).toBe(0);
    expect(await db.outbox.count()).toBe(0);
    expect(await db.answeredQuestions.count()).toBe(0);
    expect(visitorOwner()).not.toBe(before);
  });

  it('"this is not my device" clears every answer and item, whoever gave them', async () => {
    await setOutboxOwner('user-7');
    setApiBase('http://127.0.0.1:9/api');
    await answer(1);
    await setOutboxOwner(null);
    await answer(2);
    expect(useLocalAnswers.getState().visitorAnswers).toBe(1);
    const before = visitorOwner();
    await forgetDevice();
    expect(await db.outbox.count()).toBe(0);
    expect(await db.answeredQuestions.count()).toBe(0);
    expect(useLocalAnswers.getState().visitorAnswers).toBe(0);
    expect(visitorOwner()).not.toBe(before);
  });

  it("an erased account's unsent answers leave the browser", async () => {
    await setOutboxOwner('user-8');
    setApiBase('http://127.0.0.1:9/api');
    await answer(1);
    await setOutboxOwner(null);
    await forgetAccount('user-8');
    expect(await db.outbox.count()).toBe(0);
  });
});
