import crypto from 'node:crypto';
import {
  type AnswerRequest,
  type AnswerResponse,
  type CredentialKey,
  type CredentialRequest,
  type CredentialResponse,
  type RatingResponse,
  type Withdrawal,
} from '@candor/contracts';
import { AppError } from '../../lib/app-error.js';
import { openJson, sealJson, sealProfile } from '../../lib/profile-seal.js';
import { normalise } from '../answers/answers.service.js';
import { countsInResults } from '../respondents/respondents.service.js';
import type { ResultsService } from '../results/results.service.js';
import type { CatalogQuestion, SurveysService } from '../surveys/surveys.service.js';
import { SUITE_NAME, type Signer, generateKeyPair, signerOf } from './blind-signer.js';
import type { CredentialsRepository, MixedAnswer, MixedRating } from './credentials.repository.js';

/**
 * A stored profile names a country only when at least this many of the survey's credential
 * holders share it; below, it is `other` (decision 020: no stored class narrows a survey's
 * respondents to fewer than 10 accounts).
 */
export const COUNTRY_K = 10;
/**
 * The qid a question's receipt is filed under: its own, but for the randomized question of an
 * honesty-gap pair, its direct twin's (decision 029). A credential answers one question of a
 * pair: a second answer, to either, meets the first's receipt and is ALREADY_ANSWERED.
 */
const receiptQid = (q: Pick<CatalogQuestion, 'qid' | 'rrWeight' | 'twinQid'>) =>
  q.rrWeight !== null && q.twinQid !== null ? q.twinQid : q.qid;

const ANSWERED_OLD_WAY = 'You answered this survey while logged in: it takes no credential.';
/**
 * Most inbox rows one mixing step takes (one transaction, one shuffle). A row holds the answers
 * one commit redeemed: one when answers come one at a time, tens under load (at most
 * ANSWER_BATCH_ROWS).
 */
export const MIX_BATCH = 250;
/**
 * How long one timer pass keeps taking batches while full ones come: past it the pass ends
 * (the next starts at once while a backlog remains), so a key for a new survey, the leader's
 * step-down and shutdown never wait behind an inbox that grows as fast as it drains.
 */
export const MIX_PASS_MS = 2000;
/** Verified credentials remembered per process (a member answers a survey's questions in a row). */
const VERIFIED_CACHE = 100_000;
/** Longer answer times are dropped as not meaningful (as the old timing calls do). */
const MAX_DURATION_MS = 3_600_000;

export interface CredentialsServiceDeps {
  surveys: Pick<SurveysService, 'findListed' | 'findQuestion' | 'openSurveys'>;
  results: Pick<ResultsService, 'forQuestion' | 'stopCounting' | 'releaseNow'>;
  /** After a withdrawal deleted answers: their dead row versions are vacuumed at once. */
  vacuumAfterDelete?: () => void;
  /** deriveCredentialKeys(secrets). */
  keys: { signingKeySeal: Buffer; inbox: Buffer };
  /** deriveProfileKey(secrets): seals the mixed answers' profiles. */
  profileKey: Buffer;
  /** Answers wait until this many credentials are among them, or `mixMaxWaitSeconds` pass. */
  mixMinPeople: number;
  mixMaxWaitSeconds: number;
  /** How often the leader mixes (RESULTS_REFRESH_SECONDS); 0: only when asked (tests). */
  intervalSeconds: number;
  /** Most inbox rows one mixing step takes (MIX_BATCH; tests pass a small one). */
  mixBatch?: number;
  onError?: (err: unknown) => void;
  clock?: () => Date;
}

/** What a verified credential header gives: its survey, its stored tag, its receipt key. */
interface Redeemer {
  surveyId: number;
  /** `respondents.pseudonym` of the credential's answers: a hash of the credential. */
  tag: string;
  /** Keys the receipts' digests: only the holder of the credential can compute them. */
  receiptKey: Buffer;
  /**
   * Names the credential's holder where a panel completion is kept: a hash of the credential
   * under another label than the tag, so nothing stored ties a completion to the answers.
   */
  holder: string;
}

/** What waits in the inbox, sealed: an answer (`k` absent) or a rating (`k` 'rating'). */
interface InboxPayload {
  k?: 'rating';
  /** A rating's score. */
  r?: number;
  /** An answer's duration on the device, in ms, or null. */
  ms?: number | null;
  t: string;
  s: number;
  q: number;
  c: number | null;
  x: string | null;
  b: boolean;
  d: string;
  m: 'pending' | null;
  p: [string, string, string];
  at: number;
}

const b64 = (b: Buffer) => b.toString('base64url');
const sha256 = (...parts: Array<string | Buffer>) => {
  const h = crypto.createHash('sha256');
  for (const p of parts) h.update(p);
  return h.digest();
};
const mac = (key: Buffer, value: string) =>
  b64(crypto.createHmac('sha256', key).update(value).digest());

/**
 * The answers and ratings of one inbox row, opened with the inbox key: a list (the answers one
 * commit redeemed, or one rating), or one answer alone in rows an older build wrote.
 */
export function inboxEntries<T = unknown>(inboxKey: Buffer, payload: string): T[] {
  const value = openJson(inboxKey, payload) as T | T[];
  return Array.isArray(value) ? value : [value];
}

/** `respondents.pseudonym` of a credential's answers: a hash only its holder can recompute. */
export function credentialTag(prepared: Buffer): string {
  return `cred:${b64(sha256('candor credential tag\n', prepared))}`;
}

/**
 * `credential_withdrawals.key` of a credential's tag: what the mixer, which holds only the
 * tags of what waits, can compute; it matches no stored tag (the respondent goes with it).
 */
export const withdrawalKey = (tag: string): string =>
  b64(sha256('candor credential withdrawal\n', tag));

/** A uniformly shuffled copy (Fisher-Yates over node:crypto's randomInt). */
export function shuffled<T>(items: readonly T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = crypto.randomInt(i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/**
 * Anonymous answer credentials (decision 020): each survey's key, issuance to counting members
 * (one per account and survey), answers redeemed without a session, and the mixer that writes
 * acknowledged answers into `answers` in shuffled batches of many people.
 */
export function createCredentialsService(
  repo: CredentialsRepository,
  deps: CredentialsServiceDeps,
) {
  const clock = deps.clock ?? (() => new Date());
  const signers = new Map<number, Promise<Signer>>();
  let timer: ReturnType<typeof setInterval> | undefined;
  let running: Promise<unknown> = Promise.resolve();
  /** A timer pass waits behind the running one: ticks meanwhile add none (passes can be long). */
  let queued = false;
  /**
   * A timer pass's time: its interval, so under a backlog the tick that came during a pass
   * starts the next at once and the mixer never idles, but never under MIX_PASS_MS.
   */
  const passMs = Math.max(deps.intervalSeconds * 1000, MIX_PASS_MS);
  const verified = new Map<string, Redeemer>();

  async function loadSigner(surveyId: number): Promise<Signer> {
    let stored = await repo.findKey(surveyId);
    if (!stored) {
      const pair = await generateKeyPair();
      // Another process may have stored one meanwhile: the first stored is everyone's key.
      stored = await repo.insertKey({
        surveyId,
        keyId: (await signerOf(pair)).keyId,
        publicKey: b64(pair.spki),
        privateKey: sealJson(deps.keys.signingKeySeal, b64(pair.pkcs8)),
      });
    }
    return signerOf({
      spki: Buffer.from(stored.publicKey, 'base64url'),
      pkcs8: Buffer.from(
        openJson(deps.keys.signingKeySeal, stored.privateKey) as string,
        'base64url',
      ),
    });
  }

  /** The survey's signer, made on first use (one per survey, whichever process makes it). */
  function signerFor(surveyId: number): Promise<Signer> {
    let signer = signers.get(surveyId);
    if (!signer) {
      signer = loadSigner(surveyId);
      signer.catch(() => signers.delete(surveyId));
      signers.set(surveyId, signer);
    }
    return signer;
  }

  async function openSurvey(gid: string) {
    const survey = await deps.surveys.findListed(gid);
    if (!survey) throw new AppError('NOT_FOUND');
    if (survey.closed) throw new AppError('SURVEY_CLOSED');
    return survey;
  }

  /** Checks a `Candor-Credential` header against the survey's key. */
  async function redeemerOf(header: string, surveyId: number): Promise<Redeemer> {
    const known = verified.get(header);
    if (known) {
      if (known.surveyId !== surveyId) throw wrongSurvey();
      return known;
    }
    const [prepared, signature] = header.split('.').map((p) => Buffer.from(p, 'base64url'));
    const signer = await signerFor(surveyId);
    if (!prepared || !signature || !(await signer.verify(prepared, signature))) {
      throw wrongSurvey();
    }
    const redeemer = {
      surveyId,
      tag: credentialTag(prepared),
      receiptKey: sha256('candor credential receipt\n', prepared),
      holder: b64(sha256('candor credential holder\n', prepared)),
    };
    if (verified.size >= VERIFIED_CACHE) verified.delete(verified.keys().next().value!);
    verified.set(header, redeemer);
    return redeemer;
  }

  const wrongSurvey = () =>
    new AppError(
      'CREDENTIAL_INVALID',
      'This answer credential was not issued for this survey: it is forged, damaged or for another survey.',
    );

  /** One mixing step, in one transaction: see `mix`. */
  function mixBatch(limit: number, force: boolean) {
    return repo.mix(limit, async (waiting, holdersByCountry, withdrawn, asked) => {
      const opened = waiting.flatMap((w) => inboxEntries<InboxPayload>(deps.keys.inbox, w.payload));
      // What a withdrawn credential left waiting is dropped (it leaves the inbox all the same).
      const keyOf = new Map<string, string>();
      for (const p of opened) if (!keyOf.has(p.t)) keyOf.set(p.t, withdrawalKey(p.t));
      const gone = await withdrawn([...keyOf.values()]);
      // What waits for a question of a deleted survey is dropped too (decision 010).
      const living = await asked([...new Set(opened.map((p) => p.q))]);
      const open = opened.filter((p) => !gone.has(keyOf.get(p.t)!) && living.has(p.q));
      if (!open.length) return { answers: [], ratings: [] };
      const people = new Set(open.map((p) => p.t)).size;
      const oldest = Math.min(...open.map((p) => p.at));
      const due = clock().getTime() - oldest >= deps.mixMaxWaitSeconds * 1000;
      if (!force && people < deps.mixMinPeople && !due) return null;
      const holders = await holdersByCountry([...new Set(open.map((p) => p.s))]);
      // One sealed profile per credential: its respondent's, written with its first answer.
      const profiles = new Map<string, string>();
      const profileOf = (p: InboxPayload) => {
        let sealed = profiles.get(p.t);
        if (sealed === undefined) {
          sealed = sealProfile(deps.profileKey, {
            gender: p.p[0] as never,
            ageBand: p.p[1],
            country: (holders.get(p.s)?.get(p.p[2]) ?? 0) >= COUNTRY_K ? p.p[2] : 'other',
          });
          profiles.set(p.t, sealed);
        }
        return sealed;
      };
      const mixedAnswers = shuffled(open.filter((p) => p.k !== 'rating')).map((p): MixedAnswer => ({
        tag: p.t,
        profile: profileOf(p),
        questionId: p.q,
        choiceId: p.c,
        text: p.x,
        isBlank: p.b,
        answeredOn: p.d,
        moderation: p.m,
        durationMs: p.ms ?? null,
      }));
      // A credential's newest rating of a question is its score.
      const newest = new Map<string, InboxPayload>();
      for (const p of open.filter((x) => x.k === 'rating')) {
        const key = `${p.t} ${p.q}`;
        if ((newest.get(key)?.at ?? -1) <= p.at) newest.set(key, p);
      }
      const ratings = shuffled([...newest.values()]).map((p): MixedRating => ({
        tag: p.t,
        questionId: p.q,
        score: p.r!,
      }));
      return { answers: mixedAnswers, ratings };
    });
  }

  return {
    /** The survey's public key: the same for every reader, made on first use. */
    async publicKey(gid: string): Promise<CredentialKey> {
      const survey = await openSurvey(gid);
      const signer = await signerFor(survey.id);
      return {
        gid: survey.gid,
        key_id: signer.keyId,
        public_key: b64(signer.spki),
        suite: SUITE_NAME,
      };
    },

    /**
     * Signs the blinded messages of a counting member, one per survey for good: the same
     * blinded message again gets the same signature (a retry after a lost reply), another one
     * is refused. Each survey is answered on its own: a closed or unknown survey is refused
     * without failing the others.
     */
    async issue(uuid: string, request: CredentialRequest): Promise<CredentialResponse> {
      const account = await repo.account(uuid);
      if (!account) throw new AppError('UNAUTHENTICATED');
      if (!countsInResults(account.status, account.phoneVerifiedAt)) {
        throw new AppError(
          'FORBIDDEN',
          'Your account is not approved yet: your answers wait on this device and count once it is.',
        );
      }
      const refused: CredentialResponse['refused'] = [];
      const signed: Array<{
        gid: string;
        keyId: string;
        surveyId: number;
        digest: string;
        sig: string;
      }> = [];
      const seen = new Set<string>();
      for (const { gid, blinded_msg } of request.requests) {
        const g = gid.toLowerCase();
        if (seen.has(g)) {
          refused.push({
            gid: g,
            code: 'VALIDATION_FAILED',
            detail: 'This survey is asked for twice.',
          });
          continue;
        }
        seen.add(g);
        const survey = await deps.surveys.findListed(g);
        if (!survey || survey.closed) {
          const code = survey ? ('SURVEY_CLOSED' as const) : ('NOT_FOUND' as const);
          refused.push({ gid: g, code, detail: new AppError(code).message });
          continue;
        }
        const blinded = Buffer.from(blinded_msg, 'base64url');
        const signer = await signerFor(survey.id);
        let sig: Buffer;
        try {
          sig = signer.blindSign(blinded);
        } catch {
          refused.push({
            gid: g,
            code: 'VALIDATION_FAILED',
            detail: 'The blinded message does not fit this survey’s key.',
          });
          continue;
        }
        signed.push({
          gid: g,
          keyId: signer.keyId,
          surveyId: survey.id,
          digest: b64(sha256(blinded)),
          sig: b64(sig),
        });
      }
      const stored = await repo.issue(
        signed.map((s) => ({
          userId: account.id,
          surveyId: s.surveyId,
          blindedDigest: s.digest,
          blindSig: s.sig,
        })),
      );
      const bySurvey = new Map(stored.map((r) => [r.surveyId, r]));
      const credentials: CredentialResponse['credentials'] = [];
      for (const s of signed) {
        const kept = bySurvey.get(s.surveyId);
        if (kept?.blindedDigest === s.digest) {
          credentials.push({ gid: s.gid, key_id: s.keyId, blind_sig: kept.blindSig });
        } else if (kept?.blindedDigest === '') {
          // The severing's marker (respondents/sever.ts): answered the old way, as the member.
          refused.push({ gid: s.gid, code: 'ALREADY_ANSWERED', detail: ANSWERED_OLD_WAY });
        } else {
          refused.push({
            gid: s.gid,
            code: 'CREDENTIAL_ISSUED',
            detail: new AppError('CREDENTIAL_ISSUED').message,
          });
        }
      }
      return { credentials, refused };
    },

    /**
     * How many of a listed survey's questions this credential answered (its receipts: an answer
     * counts as soon as it is acknowledged, before it is mixed), for a panel's completion code;
     * undefined for a survey that is not listed. Refuses a credential of another survey.
     */
    async progress(
      gid: string,
      header: string,
    ): Promise<
      { surveyId: number; questions: number; answered: number; holder: string } | undefined
    > {
      const survey = await deps.surveys.findListed(gid);
      if (!survey) return undefined;
      const redeemer = await redeemerOf(header, survey.id);
      const answered = await repo.countRedemptions(
        survey.receiptQids.map((qid) => mac(redeemer.receiptKey, `redeem\n${qid}`)),
      );
      return {
        surveyId: survey.id,
        questions: survey.receiptQids.length,
        answered,
        holder: redeemer.holder,
      };
    },

    /**
     * Redeems an answer: checks the credential, writes its receipt and the sealed answer in one
     * statement (201), or recognises a replay of the same answer or Idempotency-Key (200), or
     * refuses a second, different answer (ALREADY_ANSWERED). Nothing of the account is known.
     */
    async redeem(
      qid: string,
      header: string,
      body: AnswerRequest,
      idempotencyKey: string | undefined,
    ): Promise<{ status: 200 | 201; body: AnswerResponse }> {
      const q = await deps.surveys.findQuestion(qid);
      if (!q) throw new AppError('NOT_FOUND');
      if (q.closed) throw new AppError('SURVEY_CLOSED');
      const redeemer = await redeemerOf(header, q.surveyId);
      const answer = normalise(q, body);
      const profile = body.profile;
      if (!profile) {
        throw new AppError('VALIDATION_FAILED', undefined, {
          profile: ['Send the profile this device holds with an answer credential.'],
        });
      }
      const answerMac = mac(
        redeemer.receiptKey,
        `answer\n${q.qid}\n${JSON.stringify([answer.choiceId, answer.text, answer.isBlank])}`,
      );
      const now = clock();
      const receipt = {
        key: mac(redeemer.receiptKey, `redeem\n${receiptQid(q)}`),
        answerMac,
        // Always a digest (of a random value without a key), so every receipt has one length.
        idempotencyMac: mac(
          redeemer.receiptKey,
          `idempotency\n${q.qid}\n${idempotencyKey ?? crypto.randomUUID()}`,
        ),
        answeredOn: now.toISOString().slice(0, 10),
      };
      // Sealed with the other answers of its commit, in one inbox row padded to a power of two
      // (lib/profile-seal.ts): a row's length says how many answers it holds to a factor of
      // two, and a written answer's length only within it.
      const payload: InboxPayload = {
        t: redeemer.tag,
        s: q.surveyId,
        q: q.id,
        c: answer.choiceId,
        x: answer.text,
        b: answer.isBlank,
        d: receipt.answeredOn,
        m: answer.moderation,
        p: [profile.gender, profile.age_band, profile.country],
        ms:
          body.duration_ms !== undefined && body.duration_ms <= MAX_DURATION_MS
            ? body.duration_ms
            : null,
        at: now.getTime(),
      };
      const label =
        answer.choiceId !== null
          ? (q.choiceById.get(answer.choiceId)?.label ?? '')
          : (answer.text ?? '');
      const reply = async (answeredOn: string): Promise<AnswerResponse> => ({
        qid: q.qid,
        gid: q.surveyGid,
        answer: label,
        is_blank: answer.isBlank,
        date: answeredOn,
        // Instant feedback (v1_*) shows the graph right after the answer; v2_* only at the end.
        results: q.variant.startsWith('v1_') ? await deps.results.forQuestion(q) : null,
      });
      if (await repo.redeem(receipt, payload)) {
        return { status: 201, body: await reply(receipt.answeredOn) };
      }
      const stored = await repo.findRedemption(receipt.key);
      if (!stored) throw new AppError('INTERNAL');
      if (stored.answerMac === mac(redeemer.receiptKey, 'withdrawn')) {
        throw new AppError('ANSWERS_WITHDRAWN');
      }
      if (stored.answerMac === answerMac || stored.idempotencyMac === receipt.idempotencyMac) {
        if (stored.answerMac !== answerMac) throw new AppError('ALREADY_ANSWERED');
        return { status: 200, body: await reply(stored.answeredOn) };
      }
      throw new AppError('ALREADY_ANSWERED');
    },

    /**
     * Rates a question this credential answered, 0 to 10 (again: the newest score counts). The
     * rating waits in the inbox with the answers and is mixed with them.
     */
    async rate(qid: string, header: string, score: number): Promise<RatingResponse> {
      const q = await deps.surveys.findQuestion(qid);
      if (!q) throw new AppError('NOT_FOUND');
      const redeemer = await redeemerOf(header, q.surveyId);
      const receipt = await repo.findRedemption(
        mac(redeemer.receiptKey, `redeem\n${receiptQid(q)}`),
      );
      if (!receipt) throw new AppError('NOT_ANSWERED');
      if (receipt.answerMac === mac(redeemer.receiptKey, 'withdrawn')) {
        throw new AppError('ANSWERS_WITHDRAWN');
      }
      const now = clock();
      const payload: InboxPayload = {
        k: 'rating',
        r: score,
        t: redeemer.tag,
        s: q.surveyId,
        q: q.id,
        c: null,
        x: null,
        b: false,
        d: receipt.answeredOn,
        m: null,
        p: ['undisclosed', '', ''],
        at: now.getTime(),
      };
      await repo.enqueue(payload);
      return { qid: q.qid, score };
    },

    /**
     * Withdraws every answer and rating of a survey's credential, from the device that holds
     * it: what waits to be mixed is dropped, what was mixed leaves the counts (as an erased
     * account's answers do) and the database, and the credential answers nothing more. Works
     * on a closed survey too. Nothing names the account: the request carries no session.
     */
    async withdraw(gid: string, header: string): Promise<Withdrawal> {
      const survey = await deps.surveys.findListed(gid);
      if (!survey) throw new AppError('NOT_FOUND');
      const redeemer = await redeemerOf(header, survey.id);
      const today = clock().toISOString().slice(0, 10);
      const withdrawn = mac(redeemer.receiptKey, 'withdrawn');
      const receipts = survey.receiptQids.map((qid) => ({
        key: mac(redeemer.receiptKey, `redeem\n${qid}`),
        answerMac: withdrawn,
        idempotencyMac: withdrawn,
        answeredOn: today,
      }));
      const respondentId = await repo.withdraw(withdrawalKey(redeemer.tag), redeemer.tag, receipts);
      if (respondentId !== undefined) {
        await deps.results.stopCounting(respondentId);
        const samples = await repo.deleteRespondent(respondentId);
        for (const questionId of samples) await deps.results.releaseNow(questionId);
        deps.vacuumAfterDelete?.();
      }
      return { gid: survey.gid, withdrawn: true };
    },

    /**
     * One mixing pass: batch after batch (up to `mixBatch` each), while full batches come and
     * for at most the pass's time (`force`: until a batch is not full: tests flush the inbox with
     * it). A batch is written only when it holds at least `mixMinPeople` credentials, or its
     * oldest has waited `mixMaxWaitSeconds` (or `force`), in a shuffled order, with each new
     * credential's respondent, and leaves the inbox. Returns how many were written.
     */
    async mix(force = false): Promise<number> {
      const batch = deps.mixBatch ?? MIX_BATCH;
      const until = force ? Infinity : performance.now() + passMs;
      let written = 0;
      let taken = 0;
      for (;;) {
        const step = await mixBatch(batch, force);
        written += step.written;
        taken += step.taken;
        // A batch held back, or not full: what waits now is for the next pass.
        if (step.taken < batch || performance.now() >= until) break;
      }
      // Once per pass: the dead inbox rows of every batch.
      if (taken) await repo.vacuumInbox();
      return written;
    },

    /**
     * Makes the key of every open survey that has none (2048-bit keys take 0.1-1 s each), so
     * the first member to log in after a survey opens does not wait for it.
     */
    async prepareKeys(): Promise<void> {
      for (const s of await deps.surveys.openSurveys()) await signerFor(s.id);
    },

    /**
     * Mixes, and makes new surveys' keys, every `intervalSeconds` while this process leads the
     * background work. Passes never overlap; one at most waits behind the running one.
     */
    start(): void {
      if (timer || deps.intervalSeconds <= 0) return;
      timer = setInterval(() => {
        if (queued) return;
        queued = true;
        running = running
          .then(async () => {
            queued = false;
            await this.mix();
            await this.prepareKeys();
          })
          .catch((err: unknown) => deps.onError?.(err));
      }, deps.intervalSeconds * 1000);
      timer.unref();
    },

    async stop(): Promise<void> {
      clearInterval(timer);
      timer = undefined;
      await running;
    },
  };
}

export type CredentialsService = ReturnType<typeof createCredentialsService>;
