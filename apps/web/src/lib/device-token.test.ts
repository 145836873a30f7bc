import { afterEach, describe, expect, it } from 'vitest';
import { DEVICE_HEADER, deviceHeaders, forgetDeviceTokens, keepDeviceToken } from './device-token';

afterEach(() => localStorage.clear());

const reply = (token: string) => new Headers({ [DEVICE_HEADER]: token });

describe("this device's tokens", () => {
  it("sends a number's token back for that number only, however it is typed", async () => {
    expect(await deviceHeaders('+14155550100')).toEqual({});
    await keepDeviceToken('+14155550100', reply('tok-a'));
    await keepDeviceToken('+447700900123', reply('tok-b'));
    expect(await deviceHeaders('+1 415-555-0100')).toEqual({ [DEVICE_HEADER]: 'tok-a' });
    expect(await deviceHeaders('+447700900123')).toEqual({ [DEVICE_HEADER]: 'tok-b' });
    expect(await deviceHeaders('+14155550101')).toEqual({});
    // A newer login's token replaces the number's older one.
    await keepDeviceToken('+14155550100', reply('tok-a2'));
    expect(await deviceHeaders('+14155550100')).toEqual({ [DEVICE_HEADER]: 'tok-a2' });
  });

  it('writes no phone number to storage, keeps a few numbers, and forgets them all on request', async () => {
    for (let i = 0; i < 12; i++) await keepDeviceToken(`+1415555${1000 + i}`, reply(`t${i}`));
    const kept = localStorage.getItem('candor.devices') ?? '';
    expect(kept).not.toMatch(/4155|\+1/);
    expect(Object.keys(JSON.parse(kept) as object)).toHaveLength(8);
    // The newest stay.
    expect(await deviceHeaders('+14155551011')).toEqual({ [DEVICE_HEADER]: 't11' });
    expect(await deviceHeaders('+14155551000')).toEqual({});
    forgetDeviceTokens();
    expect(await deviceHeaders('+14155551011')).toEqual({});
  });

  it('keeps nothing when the reply has no token, and survives damaged storage', async () => {
    await keepDeviceToken('+14155550100', new Headers());
    expect(localStorage.getItem('candor.devices')).toBeNull();
    localStorage.setItem('candor.devices', '{not json');
    expect(await deviceHeaders('+14155550100')).toEqual({});
    await keepDeviceToken('+14155550100', reply('tok'));
    expect(await deviceHeaders('+14155550100')).toEqual({ [DEVICE_HEADER]: 'tok' });
  });
});
