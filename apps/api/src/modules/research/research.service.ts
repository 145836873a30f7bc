import crypto from 'node:crypto';
import {
  type CreatedResearchToken,
  RESEARCH_TOKEN_PREFIX,
  type ResearchSurveyList,
  type ResearchToken,
  type ResearchTokenInputSchema,
  type ResearchTokenList,
} from '@candor/contracts';
import type { z } from 'zod';
import { AppError } from '../../lib/app-error.js';
import { isUuid } from '../../lib/uuid.js';
import type { Actor, AuditService } from '../audit/audit.service.js';
import type { OperatorResultsService } from '../operator-results/operator-results.service.js';
import { closedBy } from '../surveys/surveys.service.js';
import type { ResearchRepository, ResearchTokenRow, UsableToken } from './research.repository.js';

type ResearchTokenInput = z.output<typeof ResearchTokenInputSchema>;

/** Characters of the token kept and shown to tell tokens apart ("cdr_" and 8 more). */
const SHOWN = RESEARCH_TOKEN_PREFIX.length + 8;
const DAY_MS = 86_400_000;

const hashOf = (token: string) => crypto.createHash('sha256').update(token).digest('hex');

const refused = () =>
  new AppError(
    'UNAUTHENTICATED',
    'This research token is not valid: it was revoked, it has expired, or it was never issued.',
  );

/**
 * Researchers' API tokens (issue 31, point 5; decision 010): admins make them for named
 * published surveys or for all, with an optional expiry, and revoke them. A token reads the
 * published results (the exports staff download, under the same privacy rules) and nothing
 * else; every use is audited in the name of the admin who made it. Only its SHA-256 is kept.
 */
export function createResearchService(
  repo: ResearchRepository,
  deps: {
    audit: Pick<AuditService, 'record'>;
    exports: Pick<OperatorResultsService, 'exportJson' | 'exportCsv' | 'codebook' | 'reach'>;
    clock?: () => Date;
  },
) {
  const clock = deps.clock ?? (() => new Date());

  function stateOf(row: ResearchTokenRow, now: Date): ResearchToken['state'] {
    if (row.revokedAt) return 'revoked';
    if (row.expiresAt && row.expiresAt <= now) return 'expired';
    return 'active';
  }

  async function views(rows: ResearchTokenRow[]): Promise<ResearchToken[]> {
    const wanted = [...new Set(rows.flatMap((r) => r.surveys ?? []))];
    const names = new Map((await repo.published(wanted)).map((s) => [s.gid, s.name]));
    const now = clock();
    return rows.map((row) => ({
      id: row.gid,
      name: row.name,
      prefix: row.prefix,
      // A survey deleted since is left out.
      surveys:
        row.surveys?.flatMap((gid) => {
          const name = names.get(gid);
          return name === undefined ? [] : [{ gid, name }];
        }) ?? null,
      state: stateOf(row, now),
      created_at: row.createdAt.toISOString(),
      expires_at: row.expiresAt?.toISOString() ?? null,
      revoked_at: row.revokedAt?.toISOString() ?? null,
      last_used_at: row.lastUsedAt?.toISOString() ?? null,
    }));
  }

  /** The admin a token acts for, in the audit log. */
  const actorOf = (token: UsableToken): Actor => ({ uuid: token.creatorUuid, role: 'admin' });

  const useOf = (token: UsableToken) => ({ id: token.gid, name: token.name });

  /** A published survey the token may read; anything else is "not found", as for a stranger. */
  /** Every read with a token is audited in its maker's name (exports as `results.export`). */
  const used = (token: UsableToken, read: 'surveys' | 'codebook' | 'reach') =>
    deps.audit.record(actorOf(token), 'token.use', `token:${token.gid}`, {
      name: token.name,
      read,
    });

  async function readable(token: UsableToken, gid: string): Promise<string> {
    const g = gid.toLowerCase();
    if (!isUuid(g) || (token.surveys !== null && !token.surveys.includes(g))) {
      throw new AppError('NOT_FOUND');
    }
    if (!(await repo.published([g], clock())).length) throw new AppError('NOT_FOUND');
    return g;
  }

  return {
    async list(): Promise<ResearchTokenList> {
      return { results: await views(await repo.list()) };
    },

    /** A new token: returned whole this once, kept only as its hash. */
    async create(input: ResearchTokenInput, actor: Actor): Promise<CreatedResearchToken> {
      const wanted = input.surveys ? [...new Set(input.surveys.map((g) => g.toLowerCase()))] : null;
      if (wanted) {
        const found = new Set((await repo.published(wanted)).map((s) => s.gid));
        if (wanted.some((g) => !found.has(g))) {
          throw new AppError('VALIDATION_FAILED', undefined, {
            surveys: ['A token can read published surveys only: pick them from the list again.'],
          });
        }
      }
      const token = RESEARCH_TOKEN_PREFIX + crypto.randomBytes(32).toString('base64url');
      const now = clock();
      const row = await repo.insert({
        name: input.name,
        tokenHash: hashOf(token),
        prefix: token.slice(0, SHOWN),
        surveys: wanted,
        creatorUuid: actor.uuid,
        expiresAt:
          input.expires_in_days === null
            ? null
            : new Date(now.getTime() + input.expires_in_days * DAY_MS),
      });
      await deps.audit.record(actor, 'token.create', `token:${row.gid}`, {
        name: row.name,
        surveys: wanted ? wanted.length : 'all',
      });
      const [view] = await views([row]);
      return { ...view!, token };
    },

    async revoke(gid: string, actor: Actor): Promise<ResearchToken> {
      const g = gid.toLowerCase();
      if (!isUuid(g)) throw new AppError('NOT_FOUND');
      if (!(await repo.revoke(g, clock()))) {
        if (!(await repo.find(g))) throw new AppError('NOT_FOUND');
        throw new AppError('INVALID_STATE', 'This token was revoked already.');
      }
      const row = (await repo.find(g))!;
      await deps.audit.record(actor, 'token.revoke', `token:${row.gid}`, { name: row.name });
      const [view] = await views([row]);
      return view!;
    },

    /** The token of an `Authorization: Bearer cdr_…` header, if it may act now; 401 otherwise. */
    async authenticate(header: string | undefined): Promise<UsableToken> {
      const match = /^Bearer\s+(\S+)$/i.exec(header?.trim() ?? '');
      const token = match?.[1];
      if (!token?.startsWith(RESEARCH_TOKEN_PREFIX) || token.length > 100) throw refused();
      const usable = await repo.use(hashOf(token), clock());
      if (!usable) throw refused();
      return usable;
    },

    /** The published surveys the token may read (audited as a use). */
    async surveys(token: UsableToken): Promise<ResearchSurveyList> {
      const now = clock();
      const rows = await repo.published(token.surveys, now);
      await used(token, 'surveys');
      return {
        results: rows.map((s) => ({
          gid: s.gid,
          name: s.name,
          state: closedBy(s.closedAt, now) ? 'closed' : s.releaseDate > now ? 'scheduled' : 'open',
        })),
      };
    },

    /** What a survey's exports mean (the codebook), for a survey the token may read. */
    async codebook(token: UsableToken, gid: string) {
      const g = await readable(token, gid);
      await used(token, 'codebook');
      return deps.exports.codebook(g);
    },

    /** How far people got through a survey (its published counts); audited as a use. */
    async reach(token: UsableToken, gid: string) {
      const g = await readable(token, gid);
      await used(token, 'reach');
      return deps.exports.reach(g);
    },

    /** A survey's export, as staff download it; audited as `results.export` with the token. */
    async exportJson(token: UsableToken, gid: string) {
      return deps.exports.exportJson(await readable(token, gid), actorOf(token), useOf(token));
    },

    async exportCsv(token: UsableToken, gid: string) {
      return deps.exports.exportCsv(await readable(token, gid), actorOf(token), useOf(token));
    },
  };
}

export type ResearchService = ReturnType<typeof createResearchService>;
