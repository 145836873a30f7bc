import { describe, expect, it } from 'vitest';
import { ClientCounts, clientOf } from './client-connections.js';

describe('the client a connection counts against', () => {
  it('is the IPv4 address, written either way', () => {
    expect(clientOf('203.0.113.7')).toBe('203.0.113.7');
    expect(clientOf('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(clientOf('::FFFF:203.0.113.7')).toBe('203.0.113.7');
  });

  it('is the /64 of an IPv6 address: one line cannot be many clients', () => {
    const one = clientOf('2001:db8:1:2::1');
    expect(one).toBe('2001:db8:1:2::/64');
    for (const other of [
      '2001:db8:1:2:ffff:ffff:ffff:ffff',
      '2001:0DB8:0001:0002:0:0:0:9',
      '2001:db8:1:2:a:b:c:d%eth0',
    ])
      expect(clientOf(other), other).toBe(one);
    expect(clientOf('2001:db8:1:3::1')).not.toBe(one);
    expect(clientOf('::1')).toBe('0:0:0:0::/64');
  });

  it('holds a cap per client, freed as connections close', () => {
    const counts = new ClientCounts(2);
    expect([counts.take('a'), counts.take('a'), counts.take('a'), counts.take('b')]).toEqual([
      true,
      true,
      false,
      true,
    ]);
    counts.release('a');
    expect(counts.take('a')).toBe(true);
  });
});
