import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { generateApiKey, hashSecret, keyDisplayPrefix, parseApiKey, sameHash } from './api-keys.js';
import { encodeBase62 } from './ids.js';

describe('API keys', () => {
  it('are a kind prefix, 43 random base62 characters and a 6-character base62 CRC32', () => {
    for (const [type, prefix] of [['secret', 'osk_'], ['publishable', 'opk_']] as const) {
      const key = generateApiKey(type);
      expect(key).toMatch(new RegExp(`^${prefix}[0-9A-Za-z]{43}[0-9A-Za-z]{6}$`));
      expect(key.slice(-6)).toBe(encodeBase62(crc32(key.slice(0, -6)), 6));
      expect(parseApiKey(key)).toBe(type);
    }
  });

  it('carry at least 256 random bits', () => {
    expect(43 * Math.log2(62)).toBeGreaterThanOrEqual(256);
    const keys = new Set(Array.from({ length: 200 }, () => generateApiKey('secret')));
    expect(keys.size).toBe(200);
  });

  it('refuse a mistyped key by its checksum', () => {
    const key = generateApiKey('secret');
    for (let i = 4; i < key.length; i += 7) {
      const swapped = key.slice(0, i) + (key[i] === 'a' ? 'b' : 'a') + key.slice(i + 1);
      expect(parseApiKey(swapped)).toBeNull();
    }
  });

  it('refuse malformed values', () => {
    const key = generateApiKey('publishable');
    for (const bad of ['', 'opk_', key.slice(0, -1), `${key}0`, `xpk_${key.slice(4)}`, key.replace('_', '-'), ` ${key}`, `${key.slice(0, 20)}!${key.slice(21)}`]) {
      expect(parseApiKey(bad)).toBeNull();
    }
  });

  it('recognise the kind from the prefix, checksum included', () => {
    const secret = generateApiKey('secret');
    // Same body with another prefix: the checksum no longer matches.
    expect(parseApiKey(`opk_${secret.slice(4)}`)).toBeNull();
  });

  it('are hashed with SHA-256 and compared in constant time', () => {
    const key = generateApiKey('secret');
    expect(hashSecret(key).equals(createHash('sha256').update(key).digest())).toBe(true);
    expect(sameHash(hashSecret(key), hashSecret(key))).toBe(true);
    expect(sameHash(hashSecret(key), hashSecret(`${key}x`))).toBe(false);
    expect(sameHash(hashSecret(key), Buffer.alloc(3))).toBe(false);
  });

  it('show only a short prefix in lists', () => {
    const key = generateApiKey('secret');
    expect(keyDisplayPrefix(key)).toBe(key.slice(0, 12));
  });
});
