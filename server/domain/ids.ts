import { randomBytes } from 'node:crypto';
import { ID_PREFIXES, type IdKind } from '../../shared/index.js';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Uniformly random base62 text (rejection sampling keeps every character equally likely). */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248) out += BASE62[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

export function encodeBase62(value: number, width: number): string {
  let out = '';
  let n = value;
  do {
    out = BASE62[n % 62] + out;
    n = Math.floor(n / 62);
  } while (n > 0);
  return out.padStart(width, '0');
}

/** A new opaque identifier such as `bk_4fT9…` (20 base62 characters, about 119 random bits). */
export function newId(kind: IdKind): string {
  return `${ID_PREFIXES[kind]}_${randomBase62(20)}`;
}

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** `BK-` and 8 Crockford base32 characters: easy to read aloud, no I/L/O/U. */
export function newBookingNumber(): string {
  let out = 'BK-';
  for (const byte of randomBytes(8)) out += CROCKFORD[byte & 31];
  return out;
}

export const BOOKING_NUMBER_RE = /^BK-[0-9A-HJKMNP-TV-Z]{8}$/;
