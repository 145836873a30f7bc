import crypto from 'node:crypto';
import type {
  PanelCodeCheck,
  PanelCodeCheckRequest,
  PanelCompletion,
  PanelCompletionCounts,
  PanelCompletionRequest,
} from '@candor/contracts';
import { AppError } from '../../lib/app-error.js';
import { hmacHex } from '../../lib/keys.js';
import { isUuid } from '../../lib/uuid.js';
import type { Actor, AuditService } from '../audit/audit.service.js';
import { csvCell } from '../operator-results/operator-results.service.js';
import type { PanelsRepository } from './panels.repository.js';

// 32 letters and digits without 0, 1, I and O: 5 bits a character, 60 bits a code.
const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
const CODE_LENGTH = 12;

/**
 * The completion code of one participant of one panel for one survey: HMAC-SHA256 under a server
 * key, so it cannot be computed from the public survey, panel and participant ids. Panel and
 * participant ids never hold control characters (the contract refuses them), so the line breaks
 * keep the fields apart.
 */
export function completionCode(key: Buffer, gid: string, panel: string, pid: string): string {
  const mac = crypto.createHmac('sha256', key).update(`${gid}\n${panel}\n${pid}`).digest();
  return Array.from(mac.subarray(0, CODE_LENGTH), (b) => ALPHABET[b & 31]).join('');
}

/** A code as people type it: any case, with spaces or dashes between groups. */
const normaliseCode = (code: string) => code.toUpperCase().replace(/[\s-]+/g, '');

function sameCode(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && crypto.timingSafeEqual(x, y);
}

/**
 * The day of a completion (midnight UTC): all that is kept and published of its time. To the
 * second, a completion time sat next to the survey's last answer and picked its respondent out
 * of a copied database or a moderation list; a day holds everyone who finished that day.
 */
export function dayOf(at: Date): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()));
}

export interface PanelsServiceDeps {
  /** CredentialsService.progress: what a credential answered of a survey (decision 020). */
  credentialProgress: (
    gid: string,
    header: string,
  ) => Promise<
    { surveyId: number; questions: number; answered: number; holder: string } | undefined
  >;
  audit: Pick<AuditService, 'record'>;
  /** Keys.panelCode: signs the completion codes. */
  codeKey: Buffer;
  /** derivePanelKey(secrets): participant hashes and respondent keys. */
  panelKey: Buffer;
  clock?: () => Date;
}

/**
 * Research panels: a completion code issued by the server only once every question of the survey
 * is answered and stored, one completion per member, survey and panel, counted for operators.
 *
 * What a member is told depends on their own completions only, never on anybody else's
 * (decision 021): a participant id completed from another account is completed again from this
 * one, with the same code (the code is the participant's, so the panel still pays it once).
 * Refusing it, as before, told any member whether a given participant id had completed.
 */
export function createPanelsService(repo: PanelsRepository, deps: PanelsServiceDeps) {
  const clock = deps.clock ?? (() => new Date());
  /**
   * The completion's respondent: a hash of the credential's holder hash (which no stored answer
   * carries: the answers hold the credential's tag, another hash of it).
   */
  const respondentKey = (gid: string, panel: string, holder: string) =>
    hmacHex(deps.panelKey, `respondent\n${gid}\n${panel}\ncredential ${holder}`);
  /**
   * The participant's hash of one claim: of the participant id and the claiming account, so two
   * accounts claiming one id never meet on the table's unique participant index (rows written
   * before hold the participant's alone; nothing reads the hash back, the code says who).
   */
  const claimHash = (gid: string, panel: string, pid: string, respondent: string) =>
    hmacHex(deps.panelKey, `participant\n${gid}\n${panel}\n${pid}\n${respondent}`);

  async function staffSurveyId(gid: string): Promise<number> {
    const id = isUuid(gid) ? await repo.surveyIdOf(gid.toLowerCase()) : undefined;
    if (id === undefined) throw new AppError('NOT_FOUND');
    return id;
  }

  return {
    /**
     * Records the completion of a survey for a panel by the holder of the survey's credential
     * (the `Candor-Credential` header) and returns its code (201; 200 for the same participant
     * again; 409 for another participant id after the holder's first). NOT_ANSWERED until the
     * credential answered every question (its receipts). Every reply depends on the holder's
     * own answers and completions only.
     */
    async complete(
      credential: string,
      rawGid: string,
      { panel, pid }: PanelCompletionRequest,
    ): Promise<{ status: 200 | 201; body: PanelCompletion }> {
      if (!isUuid(rawGid)) throw new AppError('NOT_FOUND');
      const gid = rawGid.toLowerCase();
      const progress = await deps.credentialProgress(gid, credential);
      if (!progress) throw new AppError('NOT_FOUND');
      if (progress.questions === 0 || progress.answered < progress.questions) {
        throw new AppError(
          'NOT_ANSWERED',
          'Answer every question of this survey first: the completion code comes after the last answer.',
        );
      }
      const respondent = respondentKey(gid, panel, progress.holder);
      const values = {
        surveyId: progress.surveyId,
        panel,
        participantHash: claimHash(gid, panel, pid, respondent),
        respondentKey: respondent,
        code: completionCode(deps.codeKey, gid, panel, pid),
        completedAt: dayOf(clock()),
      };
      const body = (row: { code: string; completedAt: Date }): PanelCompletion => ({
        gid,
        panel,
        code: row.code,
        completed_at: dayOf(row.completedAt).toISOString(),
      });
      if (await repo.insert(values)) return { status: 201, body: body(values) };
      // Only the member's own completion can be in the way (the claim's hash is theirs).
      const mine = await repo.find(values.surveyId, panel, { respondentKey: respondent });
      if (mine?.code === values.code) return { status: 200, body: body(mine) };
      throw new AppError(
        'INVALID_STATE',
        'You already completed this survey for this panel, with another participant id.',
      );
    },

    /**
     * Whether a code a panel reports was issued by Candor to this participant (for operators),
     * and on which day it was first. Without the right code it answers `valid: false` whether or
     * not the participant completed: the code, which only Candor and the participant hold, is
     * what opens the answer, never the participant id alone.
     */
    async check(rawGid: string, request: PanelCodeCheckRequest): Promise<PanelCodeCheck> {
      const surveyId = await staffSurveyId(rawGid);
      const gid = rawGid.toLowerCase();
      const { panel, pid } = request;
      const expected = completionCode(deps.codeKey, gid, panel, pid);
      const row = await repo.first(surveyId, panel, expected);
      const valid = sameCode(normaliseCode(request.code), expected) && row !== undefined;
      return { valid, completed_at: valid ? dayOf(row.completedAt).toISOString() : null };
    },

    /** Completions per panel of a survey of any status. */
    async counts(rawGid: string): Promise<PanelCompletionCounts> {
      const rows = await repo.counts(await staffSurveyId(rawGid));
      return {
        gid: rawGid.toLowerCase(),
        total: rows.reduce((sum, r) => sum + r.completions, 0),
        panels: rows.map((r) => ({
          panel: r.panel,
          completions: r.completions,
          last_completed_at: dayOf(r.last ?? new Date(0)).toISOString(),
        })),
      };
    },

    /**
     * Every completion of a survey as CSV (panel, code, day; no answer, no participant id), in
     * the order of panel, day and code, never of arrival; formula-safe; audited as
     * `results.export`.
     */
    async exportCsv(rawGid: string, actor: Actor) {
      const surveyId = await staffSurveyId(rawGid);
      const gid = rawGid.toLowerCase();
      const rows = (await repo.list(surveyId)).map((r) => ({
        ...r,
        day: dayOf(r.completedAt).toISOString().slice(0, 10),
      }));
      // Sorted here as well: rows written before this rule hold times to the second.
      const order = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);
      rows.sort((a, b) => order(a.panel, b.panel) || order(a.day, b.day) || order(a.code, b.code));
      const lines = [
        ['panel', 'completion_code', 'completed_on'],
        ...rows.map((r) => [r.panel, r.code, r.day]),
      ];
      const body = lines.map((cells) => cells.map(csvCell).join(',') + '\r\n').join('');
      await deps.audit.record(actor, 'results.export', `survey:${gid}`, { format: 'panel-csv' });
      return { body, fileName: `candor-${gid}-panel-completions.csv` };
    },
  };
}

export type PanelsService = ReturnType<typeof createPanelsService>;
