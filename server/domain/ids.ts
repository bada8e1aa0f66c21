import { randomFillSync } from 'node:crypto';
import { ID_PREFIXES, type IdKind } from '../../shared/index.js';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/**
 * Random bytes drawn from a pool refilled 4 KiB at a time: one call into the system's generator
 * per hundred ids instead of one per id (it showed in the profile of booking creation).
 */
const pool = Buffer.alloc(4096);
let poolUsed = pool.length;
function nextRandomByte(): number {
  if (poolUsed === pool.length) {
    randomFillSync(pool);
    poolUsed = 0;
  }
  return pool[poolUsed++]!;
}

/** Uniformly random base62 text (rejection sampling keeps every character equally likely). */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    const byte = nextRandomByte();
    if (byte < 248) out += BASE62[byte % 62];
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

/**
 * A new opaque identifier such as `bk_0VbX3kQ2…`: 20 base62 characters, the first 8 the creation
 * time in milliseconds and the other 12 random (about 71 bits). Ids made later sort later, so new
 * rows land at the end of the primary-key indexes instead of on a random page of a large B-tree:
 * with a million bookings that is several page writes fewer per booking.
 */
export function newId(kind: IdKind, now: number = Date.now()): string {
  return `${ID_PREFIXES[kind]}_${encodeBase62(now, 8)}${randomBase62(12)}`;
}

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** `BK-` and 8 Crockford base32 characters: easy to read aloud, no I/L/O/U. */
export function newBookingNumber(): string {
  let out = 'BK-';
  for (let i = 0; i < 8; i++) out += CROCKFORD[nextRandomByte() & 31];
  return out;
}

const BOOKING_NUMBER = 'BK-[0-9A-HJKMNP-TV-Z]{8}';
export const BOOKING_NUMBER_RE = new RegExp(`^${BOOKING_NUMBER}$`);
/** What a path may name a booking by: its id, or its booking number in any case. */
export const BOOKING_REF_RE = new RegExp(`^(bk_[A-Za-z0-9]{1,64}|${BOOKING_NUMBER})$`, 'i');

/**
 * A gift voucher's code, `GV-XXXX-XXXX-XXXX`: 12 Crockford base32 characters (60 random bits) in
 * three groups. Unique on the server: the store refuses a clash and the caller draws again.
 */
export function newGiftVoucherCode(): string {
  let out = 'GV';
  for (let i = 0; i < 12; i++) out += (i % 4 === 0 ? '-' : '') + CROCKFORD[nextRandomByte() & 31];
  return out;
}
