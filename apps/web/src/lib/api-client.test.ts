import { Blob as NodeBlob } from 'node:buffer';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  ApiError,
  apiDownload,
  apiPost,
  apiRequest,
  apiUpload,
  attachmentFileName,
  onSessionEnded,
  setApiBase,
} from './api-client';
import { readTokens, storeTokens } from './tokens';

// A small HTTP server standing in for the API: access tokens "a1", "a2"...; a request with an
// old access token gets 401 until the client refreshes. It counts what the client sends.
let server: http.Server;
let current = 1;
let refreshCalls = 0;
let refreshWorks = true;
const seen: Array<string | undefined> = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.url === '/api/v1/public') {
      // A public read: what the client sent, whoever asks.
      return send(200, {
        authorization: req.headers.authorization ?? null,
        type: req.headers['content-type'] ?? null,
      });
    }
    if (req.url === '/api/token/refresh/') {
      refreshCalls++;
      seen.push(req.headers.authorization);
      // Answer slowly, so concurrent 401s arrive while the refresh is under way.
      setTimeout(() => {
        if (!refreshWorks) return send(401, { detail: 'Session ended.', code: 'TOKEN_INVALID' });
        current++;
        send(200, { access: `a${current}`, refresh: `r${current}` });
      }, 50);
      return;
    }
    seen.push(req.headers.authorization);
    if (req.headers.authorization !== `Bearer a${current}`) {
      return send(401, { detail: 'Expired.', code: 'UNAUTHENTICATED' });
    }
    if (req.url === '/api/v1/file.csv') {
      res.writeHead(200, {
        'Content-Type': 'text/csv; charset=utf-8',
        'Content-Disposition': 'attachment; filename="candor-results.csv"',
      });
      res.end('"a","b"\n1,2\n');
      return;
    }
    if (req.url === '/api/v1/upload') {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () =>
        send(201, {
          type: req.headers['content-type'],
          bytes: Buffer.concat(chunks).toString('hex'),
        }),
      );
      return;
    }
    send(200, { ok: req.url });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  setApiBase(`http://127.0.0.1:${(server.address() as AddressInfo).port}/api`);
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));
beforeEach(() => {
  localStorage.clear();
  refreshCalls = 0;
  refreshWorks = true;
  seen.length = 0;
});

describe('apiRequest', () => {
  it('sends the bearer token when one is stored, and none otherwise', async () => {
    await expect(apiRequest('/v1/x')).rejects.toMatchObject({ status: 401 });
    expect(seen.at(-1)).toBeUndefined();
    storeTokens({ access: `a${current}`, refresh: `r${current}` });
    await expect(apiRequest('/v1/x')).resolves.toEqual({ ok: '/api/v1/x' });
    expect(seen.at(-1)).toBe(`Bearer a${current}`);
  });

  it('sends a public read without the session or a body type: the request a page preloaded', async () => {
    storeTokens({ access: `a${current}`, refresh: `r${current}` });
    await expect(apiRequest('/v1/public', { public: true })).resolves.toEqual({
      authorization: null,
      type: null,
    });
    // A read with the session has no body type either; a body is JSON.
    await expect(apiRequest('/v1/x')).resolves.toEqual({ ok: '/api/v1/x' });
    await expect(apiPost('/v1/public', { a: 1 })).resolves.toMatchObject({
      type: 'application/json',
    });
  });

  it('refreshes once for many concurrent 401s, then replays each request once', async () => {
    storeTokens({ access: 'stale', refresh: `r${current}` });
    const before = current;
    const results = await Promise.all(
      ['/v1/a', '/v1/b', '/v1/c', '/v1/d'].map((p) => apiRequest<{ ok: string }>(p)),
    );
    expect(results.map((r) => r.ok)).toEqual(['/api/v1/a', '/api/v1/b', '/api/v1/c', '/api/v1/d']);
    expect(refreshCalls).toBe(1);
    expect(current).toBe(before + 1);
    expect(readTokens()).toEqual({ access: `a${current}`, refresh: `r${current}` });
    // The refresh call itself carries no Authorization header (spec section 7).
    expect(seen.filter((h) => h === undefined)).toHaveLength(1);
  });

  it('replays without a second refresh when another request already refreshed', async () => {
    storeTokens({ access: 'stale', refresh: `r${current}` });
    await apiRequest('/v1/a'); // refreshes
    expect(refreshCalls).toBe(1);
    // A request that left with the old token and comes back 401 after the refresh finished:
    localStorage.setItem('AuthToken', 'stale');
    const fresh = `a${current}`;
    const late = apiRequest<{ ok: string }>('/v1/late');
    localStorage.setItem('AuthToken', fresh); // the refresh result lands while it is in flight
    await expect(late).resolves.toEqual({ ok: '/api/v1/late' });
    expect(refreshCalls).toBe(1);
  });

  it('ends the session when the refresh fails, and rejects', async () => {
    storeTokens({ access: 'stale', refresh: 'revoked' });
    refreshWorks = false;
    let ended = 0;
    const off = onSessionEnded(() => ended++);
    const error = await apiRequest('/v1/a').catch((e: unknown) => e);
    off();
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(401);
    expect(readTokens()).toBeNull();
    expect(ended).toBe(1);
    expect(refreshCalls).toBe(1);
  });

  it('turns field errors and details into messages', async () => {
    const err = new ApiError(400, 'VALIDATION_FAILED', 'x', {
      phone_number: ['Enter a valid phone number.'],
      non_field_errors: ['One', 'Two'],
    });
    expect(err.fieldErrors.phone_number).toEqual(['Enter a valid phone number.']);
    expect(err.messages).toEqual(['One', 'Two']);
    expect(new ApiError(404, 'NOT_FOUND', 'Not found.').messages).toEqual(['Not found.']);
  });
});

describe('apiDownload', () => {
  it('fetches a file with the token, refreshing a stale one, and keeps the server file name', async () => {
    storeTokens({ access: 'stale', refresh: `r${current}` });
    const file = await apiDownload('/v1/file.csv');
    expect(refreshCalls).toBe(1);
    expect(file.fileName).toBe('candor-results.csv');
    expect(await file.blob.text()).toBe('"a","b"\n1,2\n');
  });

  it('throws the API error of a refused download', async () => {
    await expect(apiDownload('/v1/file.csv')).rejects.toMatchObject({
      status: 401,
      code: 'UNAUTHENTICATED',
    });
  });
});

describe('apiUpload', () => {
  it('sends the bytes with their own type, refreshing a stale token and replaying the body', async () => {
    storeTokens({ access: 'stale', refresh: `r${current}` });
    // Node's Blob: the test's fetch is Node's, which reads jsdom's Blob as "[object Blob]".
    const image = new NodeBlob([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], {
      type: 'image/png',
    }) as unknown as Blob;
    await expect(apiUpload('/v1/upload', image)).resolves.toEqual({
      type: 'image/png',
      bytes: '89504e47',
    });
    expect(refreshCalls).toBe(1);
    expect(seen.at(-1)).toBe(`Bearer a${current}`);
  });
});

describe('attachmentFileName', () => {
  it('reads quoted, bare and encoded names, and drops any folder', () => {
    expect(attachmentFileName('attachment; filename="candor-1.csv"')).toBe('candor-1.csv');
    expect(attachmentFileName('attachment; filename=candor-2.json')).toBe('candor-2.json');
    expect(attachmentFileName("attachment; filename*=UTF-8''caf%C3%A9.csv")).toBe('café.csv');
    expect(attachmentFileName('attachment; filename="../x/evil.csv"')).toBe('evil.csv');
    expect(attachmentFileName('attachment')).toBeNull();
    expect(attachmentFileName(null)).toBeNull();
  });
});
