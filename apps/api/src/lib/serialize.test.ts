import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { serializeOnce } from './serialize.js';

const Schema = z.object({ n: z.number().int() });

describe('serializeOnce', () => {
  it('validates and stringifies each object once', () => {
    const parse = vi.spyOn(Schema, 'parse');
    const body = { n: 1 };
    expect(serializeOnce(Schema, body)).toBe('{"n":1}');
    expect(serializeOnce(Schema, body)).toBe('{"n":1}');
    expect(parse).toHaveBeenCalledTimes(1);
    expect(serializeOnce(Schema, { n: 2 })).toBe('{"n":2}');
    expect(parse).toHaveBeenCalledTimes(2);
  });

  it('refuses a body that breaks the contract', () => {
    expect(() => serializeOnce(Schema, { n: 1.5 })).toThrow();
  });

  it('drops keys the contract does not name', () => {
    expect(serializeOnce(Schema, { n: 3, secret: 'x' } as { n: number })).toBe('{"n":3}');
  });
});
