import { createHash, timingSafeEqual } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { encodeBase62, randomBase62 } from './ids.js';
import type { ApiKeyType } from '../../shared/index.js';

/**
 * API keys follow GitHub's token format: a kind prefix, 43 base62 characters of randomness
 * (≥ 256 bits) and a 6-character base62 CRC32 of what precedes it. The checksum lets a mistyped
 * key be refused without a database look-up, and the prefix makes a leaked key recognizable.
 */
export const KEY_PREFIX: Record<ApiKeyType, string> = { secret: 'osk_', publishable: 'opk_' };
const RANDOM_LENGTH = 43;
const CHECKSUM_LENGTH = 6;
const KEY_RE = /^o[sp]k_[0-9A-Za-z]{49}$/;

function checksum(body: string): string {
  return encodeBase62(crc32(body), CHECKSUM_LENGTH);
}

export function generateApiKey(type: ApiKeyType): string {
  const body = KEY_PREFIX[type] + randomBase62(RANDOM_LENGTH);
  return body + checksum(body);
}

/** The key's kind when it is well-formed and its checksum holds, else null. */
export function parseApiKey(key: string): ApiKeyType | null {
  if (!KEY_RE.test(key)) return null;
  const body = key.slice(0, -CHECKSUM_LENGTH);
  if (checksum(body) !== key.slice(-CHECKSUM_LENGTH)) return null;
  return key.startsWith(KEY_PREFIX.secret) ? 'secret' : 'publishable';
}

export function hashSecret(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

export function sameHash(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}

/** What lists show of a key: enough to recognize it, far too little to use it. */
export function keyDisplayPrefix(key: string): string {
  return key.slice(0, 12);
}
