import { SignJWT, UnsecuredJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { deriveKeys } from './keys.js';
import { InvalidTokenError, createTokenService } from './tokens.js';

const keys = deriveKeys({ jwtSecret: 'a'.repeat(48) });
const otherKeys = deriveKeys({ jwtSecret: 'b'.repeat(48) });
const SUB = '2b1f3c2e-8a31-4c0e-9d55-6f1f0f8b8c11';
const SID = '7d0c8f5e-3b1a-4f6e-9a2b-1c3d5e7f9a0b';

/** An access token signed with the right key and kind, with `claims` as they are. */
function minted(claims: Record<string, unknown>) {
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256', typ: 'at+jwt' })
    .setSubject(SUB)
    .setIssuer('candor')
    .setAudience('candor:access')
    .setIssuedAt(Math.floor(Date.parse('2026-01-01T00:00:00Z') / 1000))
    .setExpirationTime(Math.floor(Date.parse('2026-01-01T00:05:00Z') / 1000))
    .sign(keys.accessToken);
}

function service(now = { t: Date.parse('2026-01-01T00:00:00Z') }, k = keys) {
  return createTokenService(k, { accessTtlSeconds: 600, clock: () => new Date(now.t) });
}

describe('access tokens', () => {
  it('carry the user uuid and role, signed HS256 with a typ of their own', async () => {
    const tokens = service();
    const token = await tokens.signAccess({ sub: SUB, role: 'moderator', sid: SID });
    const header: unknown = JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString());
    expect(header).toEqual({ alg: 'HS256', typ: 'at+jwt' });
    expect(await tokens.verifyAccess(token)).toEqual({ sub: SUB, role: 'moderator', sid: SID });
  });

  it('name the session they were issued for, and refuse a malformed one', async () => {
    const tokens = service();
    const token = await tokens.signAccess({ sub: SUB, role: 'member', sid: SID });
    expect(await tokens.verifyAccess(token)).toEqual({ sub: SUB, role: 'member', sid: SID });
    const forged = await minted({ role: 'member', sid: "x' or 1=1" });
    await expect(tokens.verifyAccess(forged)).rejects.toBeInstanceOf(InvalidTokenError);
  });

  it('refuse a token signed with the secret that names no session: no logout could end it', async () => {
    const tokens = service();
    for (const claims of [
      { role: 'member' },
      { role: 'admin', sid: '' },
      { role: 'admin', sid: 7 },
    ]) {
      const sessionless = await minted(claims);
      await expect(tokens.verifyAccess(sessionless)).rejects.toBeInstanceOf(InvalidTokenError);
      expect(tokens.knownAccess(sessionless)).toBeUndefined();
    }
  });

  it('expire after their TTL', async () => {
    const now = { t: Date.parse('2026-01-01T00:00:00Z') };
    const tokens = service(now);
    const token = await tokens.signAccess({ sub: SUB, role: 'member', sid: SID });
    now.t += 599_000;
    await expect(tokens.verifyAccess(token)).resolves.toBeTruthy();
    now.t += 2_000;
    await expect(tokens.verifyAccess(token)).rejects.toBeInstanceOf(InvalidTokenError);
  });

  it('are known without a check only once verified, and only until they expire', async () => {
    const now = { t: Date.parse('2026-01-01T00:00:00Z') };
    const tokens = service(now);
    const token = await tokens.signAccess({ sub: SUB, role: 'member', sid: SID });
    expect(tokens.knownAccess(token)).toBeUndefined();
    await tokens.verifyAccess(token);
    expect(tokens.knownAccess(token)).toEqual({ sub: SUB, role: 'member', sid: SID });
    // Another string (a byte changed) is not the token that was verified.
    expect(tokens.knownAccess(`${token.slice(0, -1)}x`)).toBeUndefined();
    now.t += 601_000;
    expect(tokens.knownAccess(token)).toBeUndefined();
  });

  it('refuse alg none, another key, a password token and garbage', async () => {
    const tokens = service();
    const unsecured = new UnsecuredJWT({ role: 'admin' })
      .setSubject(SUB)
      .setIssuer('candor')
      .setAudience('candor:access')
      .setIssuedAt()
      .setExpirationTime('1h')
      .encode();
    const foreign = await service(undefined, otherKeys).signAccess({
      sub: SUB,
      role: 'admin',
      sid: SID,
    });
    const passwordToken = await tokens.signPassword({ sub: SUB, cid: 1, vat: 1 });
    // Signed with the right key but without the access audience and typ.
    const wrongKind = await new SignJWT({ role: 'admin' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(SUB)
      .setIssuer('candor')
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(keys.accessToken);
    for (const token of [unsecured, foreign, passwordToken, wrongKind, 'x.y.z', '']) {
      await expect(tokens.verifyAccess(token)).rejects.toBeInstanceOf(InvalidTokenError);
    }
    await expect(
      tokens.verifyPassword(await tokens.signAccess({ sub: SUB, role: 'member', sid: SID })),
    ).rejects.toBeInstanceOf(InvalidTokenError);
  });
});

describe('refresh tokens', () => {
  it('are 256 random bits; a child is derived from its parent only with the server key', () => {
    const tokens = service();
    const parent = tokens.newRefresh();
    expect(Buffer.from(parent, 'base64url')).toHaveLength(32);
    expect(tokens.newRefresh()).not.toBe(parent);
    expect(tokens.childRefresh(parent)).toBe(tokens.childRefresh(parent));
    expect(tokens.childRefresh(parent)).not.toBe(
      service(undefined, otherKeys).childRefresh(parent),
    );
    expect(tokens.hashRefresh(parent)).toMatch(/^[0-9a-f]{64}$/);
  });
});
