import type { Role } from '@candor/contracts';
import type { FastifyInstance, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../lib/app-error.js';
import { type AccessClaims, InvalidTokenError, type TokenService } from '../lib/tokens.js';

/** Who made the request, from a valid access token. */
export interface AuthUser {
  uuid: string;
  role: Role;
  /** The session (refresh-token family) the access token was issued for. */
  sid: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by `authenticate` / `requireUser`; null for anonymous requests. */
    user: AuthUser | null;
  }
  interface FastifyInstance {
    tokens: TokenService;
    /** Hook: reads a bearer token when there is one; anonymous requests go on with `user` null. */
    authenticate: onRequestAsyncHookHandler;
    /** Hook: 401 UNAUTHENTICATED unless a valid access token is presented. */
    requireUser: onRequestAsyncHookHandler;
    /** Hook factory: 401 without a valid token, 403 FORBIDDEN without one of `roles`. */
    requireRole(...roles: Role[]): onRequestAsyncHookHandler;
  }
}

function bearer(request: FastifyRequest): string | null | undefined {
  const header = request.headers.authorization;
  if (header === undefined) return null;
  const match = /^Bearer ([^\s]+)$/i.exec(header.trim());
  return match ? match[1] : undefined;
}

/** Whether a token with good signature and claims may still act (its account and session). */
export interface SessionCheck {
  admits(claims: AccessClaims): Promise<boolean>;
  /** True when admits() would say so from memory alone; false: ask admits(). */
  admitsKnown(claims: AccessClaims): boolean;
}

/**
 * Access tokens are checked by signature and claims, then against the account and the session
 * they were issued for (a cached read, invalidated on change: modules/auth/session-gate.ts),
 * so a logout, a suspension or a role change refuses the very next request, on every process.
 */
async function auth(app: FastifyInstance, opts: { tokens: TokenService; sessions: SessionCheck }) {
  const { tokens, sessions } = opts;
  app.decorate('tokens', tokens);
  app.decorateRequest('user', null);

  async function userOf(request: FastifyRequest): Promise<AuthUser | null> {
    const token = bearer(request);
    if (token === null) return null;
    if (token === undefined) throw new AppError('UNAUTHENTICATED');
    let claims: AccessClaims;
    try {
      claims = await tokens.verifyAccess(token);
    } catch (err) {
      if (err instanceof InvalidTokenError) throw new AppError('UNAUTHENTICATED');
      throw err;
    }
    if (!(await sessions.admits(claims))) throw new AppError('UNAUTHENTICATED');
    return { uuid: claims.sub, role: claims.role, sid: claims.sid };
  }

  /**
   * The user of a token this process verified and whose session it knows to be good, without
   * waiting: most requests of a member. undefined: userOf() decides (and may refuse).
   */
  function knownUser(request: FastifyRequest): AuthUser | undefined {
    const token = bearer(request);
    const claims = token ? tokens.knownAccess(token) : undefined;
    return claims && sessions.admitsKnown(claims)
      ? { uuid: claims.sub, role: claims.role, sid: claims.sid }
      : undefined;
  }

  const authenticate: onRequestAsyncHookHandler = async (request) => {
    request.user = knownUser(request) ?? (await userOf(request));
  };
  const requireUser: onRequestAsyncHookHandler = async (request) => {
    request.user = knownUser(request) ?? (await userOf(request));
    if (!request.user) throw new AppError('UNAUTHENTICATED');
  };
  app.decorate('authenticate', authenticate);
  app.decorate('requireUser', requireUser);
  app.decorate('requireRole', (...roles: Role[]): onRequestAsyncHookHandler => {
    return async function requireRole(request, reply) {
      await requireUser.call(this, request, reply);
      if (!roles.includes(request.user!.role)) throw new AppError('FORBIDDEN');
    };
  });
}

export default fp(auth, { name: 'auth' });
