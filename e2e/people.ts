// Made-up people for the end-to-end tests: each gets an address, a number and a password no other
// person of the run has, so the server's per-address and per-number-range signup risk checks see
// separate people. Nothing is partitioned by hand: each test file claims the next free block of
// the run, and its people count up inside that block.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { inject } from 'vitest';

export interface Person {
  country: 'US' | 'GB';
  /** As typed into the phone field after picking the country. */
  national: string;
  e164: string;
  password: string;
  /** The address the person's requests come from (X-Forwarded-For). */
  ip: string;
}

/** This file's block: the lowest number no other file of the run has claimed (mkdir is atomic). */
function claimBlock(): number {
  const dir = inject('blocksDir');
  for (let block = 0; ; block++) {
    try {
      fs.mkdirSync(path.join(dir, String(block)));
      return block;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
}

let block: number | undefined;
let count = 0;

// US area codes: the risk checks count signups per range of the first 8 digits (1 AAA 555 D).
const AREAS = ['202', '212', '312', '415', '617', '713', '206', '305', '512', '303'];

/**
 * The next person of this file. US numbers are +1 AAA 555 DBBB, where BBB is the file's block
 * and the range (AAA, D) moves on with each person, so a range sees one signup per file. GB
 * numbers come from Ofcom's drama range (07700 900xxx); `premium` gives a US premium-rate number
 * (+1 900 255 xxxx), which the risk checks hold for review.
 */
export function nextPerson(kind: 'US' | 'GB' | 'premium' = 'US'): Person {
  block ??= claimBlock();
  count++;
  const password = `candor e2e ${crypto.randomBytes(6).toString('base64url')}`;
  const ip = `10.${(block >> 8) & 255}.${block & 255}.${count % 250}`;
  const serial = String((block * 100 + count) % 10_000).padStart(4, '0');
  if (kind === 'GB') {
    const tail = serial.slice(1);
    return { country: 'GB', national: `07700 900${tail}`, e164: `+447700900${tail}`, password, ip };
  }
  if (kind === 'premium') {
    return {
      country: 'US',
      national: `900 255 ${serial}`,
      e164: `+1900255${serial}`,
      password,
      ip,
    };
  }
  const range = (block * 10 + count) % 100;
  const area = AREAS[range % 10]!;
  const last = `${Math.floor(range / 10)}${String(block % 1000).padStart(3, '0')}`;
  return {
    country: 'US',
    national: `${area} 555 ${last}`,
    e164: `+1${area}555${last}`,
    password,
    ip,
  };
}
