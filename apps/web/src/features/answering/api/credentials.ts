import {
  CREDENTIALS_PER_REQUEST,
  HOME_SURVEY_LIST_PATH,
  type CredentialKey,
  type CredentialResponse,
  type SurveyList,
} from '@candor/contracts';
import { ApiError, apiPost, apiRequest } from '../../../lib/api-client';
import { blindFor, finalizeWith } from '../lib/blinder';
import type { CandorDb, DeviceCredential } from '../lib/local-db';

/**
 * A member's anonymous credentials on this device (decision 020): one per open survey, asked
 * for in one batch for every open survey at once (at login, at each start with a session, and
 * when the list shows a survey this device has none for), never one at a time as questions are
 * answered, so when a credential was issued says nothing of when its answers came.
 *
 * The server signs a blinded message it cannot read; the device finalizes the signature into
 * the credential its answers carry instead of the session. A blinded message is stored before
 * it is sent: after a lost reply the same one is asked again and gets the same signature (the
 * server signs one per account and survey, for good).
 */

export type Held = 'under-review';

/** Why a survey's answers cannot be sent now: they wait (under review) or never go (elsewhere). */
export type CredentialState =
  | { kind: 'ready'; token: string }
  | { kind: 'legacy' }
  | { kind: 'elsewhere' }
  /** The member withdrew this survey's answers (decision 020, slice 4): none are sent again. */
  | { kind: 'withdrawn' }
  | { kind: 'held' }
  | { kind: 'none' };

interface Deps {
  db: () => CandorDb;
}

/** The survey's public key, read without a session (the same for everyone). */
const readKey = (gid: string) =>
  apiRequest<CredentialKey>(`/v1/surveys/${encodeURIComponent(gid)}/credential-key/`, {
    public: true,
  });

/** Gids of every survey open for answers now (the public home list). */
async function openSurveys(): Promise<string[]> {
  const list = await apiRequest<SurveyList>(HOME_SURVEY_LIST_PATH, { public: true });
  return list.results.filter((s) => s.status === 'Open').map((s) => s.gid);
}

export function createCredentials({ db }: Deps) {
  let chain: Promise<unknown> = Promise.resolve();
  /** Under review when last asked (memory only): answers wait; asked again at the next batch. */
  let held = false;

  const rowOf = (owner: string, gid: string) =>
    db().credentials.where('[owner+gid]').equals([owner, gid]).first();

  /** Blinds a fresh message for each survey that has no row yet, and keeps it. */
  async function blindMissing(owner: string, gids: string[]) {
    const have = new Set(
      (await db().credentials.where('owner').equals(owner).toArray()).map((c) => c.gid),
    );
    for (const gid of gids) {
      if (have.has(gid)) continue;
      let key: CredentialKey;
      try {
        key = await readKey(gid);
      } catch (err) {
        if (err instanceof ApiError && err.status === 404) continue;
        throw err;
      }
      const kept = await blindFor(key.public_key);
      await db()
        .credentials.add({
          owner,
          gid,
          state: 'blinded',
          keyId: key.key_id,
          publicKey: key.public_key,
          ...kept,
        })
        .catch(() => undefined); // another tab added it meanwhile: theirs stands
    }
  }

  /** Asks for the signatures of every blinded message waiting, in batches. */
  async function askSignatures(owner: string) {
    const waiting = await db()
      .credentials.where('owner')
      .equals(owner)
      .filter((c) => c.state === 'blinded')
      .toArray();
    for (let i = 0; i < waiting.length; i += CREDENTIALS_PER_REQUEST) {
      const batch = waiting.slice(i, i + CREDENTIALS_PER_REQUEST);
      let reply: CredentialResponse;
      try {
        reply = await apiPost<CredentialResponse>('/v1/credentials/', {
          requests: batch.map((c) => ({ gid: c.gid, blinded_msg: c.blinded! })),
        });
      } catch (err) {
        if (err instanceof ApiError && err.code === 'FORBIDDEN') {
          held = true;
          return;
        }
        throw err;
      }
      held = false;
      const byGid = new Map(batch.map((c) => [c.gid, c]));
      /**
       * Changes a row only while it still waits for this reply: the vault may have brought the
       * survey's credential from another device meanwhile (`adopt`), which stands.
       */
      const settle = (id: number, change: Partial<DeviceCredential> | null) =>
        db().transaction('rw', db().credentials, async () => {
          if ((await db().credentials.get(id))?.state !== 'blinded') return;
          if (change) await db().credentials.update(id, change);
          else await db().credentials.delete(id);
        });
      for (const issued of reply.credentials) {
        const row = byGid.get(issued.gid);
        if (!row) continue;
        const token = await finalizeWith(
          row.publicKey!,
          { prepared: row.prepared!, blinded: row.blinded!, inv: row.inv! },
          issued.blind_sig,
        );
        await settle(row.id!, {
          state: 'ready',
          token,
          prepared: undefined,
          blinded: undefined,
          inv: undefined,
        });
      }
      for (const refused of reply.refused) {
        const row = byGid.get(refused.gid);
        if (!row) continue;
        if (refused.code === 'ALREADY_ANSWERED') await settle(row.id!, { state: 'legacy' });
        else if (refused.code === 'CREDENTIAL_ISSUED')
          await settle(row.id!, { state: 'elsewhere' });
        // Closed, gone, or blinded for a key the survey no longer has: asked afresh next time.
        else await settle(row.id!, null);
      }
    }
  }

  function queued<T>(work: () => Promise<T>): Promise<T> {
    const run = chain.then(work, work);
    chain = run.catch(() => undefined);
    return run;
  }

  return {
    /**
     * The batch: a credential for every open survey this device has none for (and any whose
     * signature reply was lost). `also` adds surveys the caller knows are open.
     */
    issueForOpenSurveys(owner: string, also: string[] = []): Promise<void> {
      return queued(async () => {
        const gids = [...new Set([...(await openSurveys()), ...also])];
        await blindMissing(owner, gids);
        await askSignatures(owner);
      });
    },

    /** What this device holds for answering survey `gid` as `owner`. */
    async stateFor(owner: string, gid: string): Promise<CredentialState> {
      await chain;
      const row = await rowOf(owner, gid);
      if (row?.state === 'ready' && row.token) return { kind: 'ready', token: row.token };
      if (row?.state === 'legacy') return { kind: 'legacy' };
      if (row?.state === 'elsewhere') return { kind: 'elsewhere' };
      if (row?.state === 'withdrawn') return { kind: 'withdrawn' };
      if (held) return { kind: 'held' };
      return { kind: 'none' };
    },

    /** The member withdrew this survey's answers with its credential: it answers no more. */
    async markWithdrawn(owner: string, gid: string): Promise<void> {
      await db()
        .credentials.where('[owner+gid]')
        .equals([owner, gid])
        .modify({ state: 'withdrawn' });
    },

    /** Every credential of `owner` (for the vault). */
    all(owner: string): Promise<DeviceCredential[]> {
      return db().credentials.where('owner').equals(owner).toArray();
    },

    /**
     * A credential the vault brought from another device of the member, ready or withdrawn
     * there: true if it changes anything here. A withdrawal is never undone by a merge.
     */
    async adopt(
      owner: string,
      gid: string,
      token: string,
      keyId: string,
      withdrawn = false,
    ): Promise<boolean> {
      const row = await rowOf(owner, gid);
      const state = withdrawn ? 'withdrawn' : 'ready';
      if (row?.state === 'withdrawn' || row?.state === state) return false;
      if (row) await db().credentials.update(row.id, { state, token, keyId });
      else await db().credentials.add({ owner, gid, state, token, keyId });
      return true;
    },
  };
}

export type Credentials = ReturnType<typeof createCredentials>;
