import { describe, expect, it } from 'vitest';
import { BOOKING_NUMBER_RE, encodeBase62, newBookingNumber, newId, randomBase62 } from './ids.js';
import { ID_PREFIXES, idPattern, type IdKind } from '../../shared/index.js';

describe('ids', () => {
  it('are the kind’s prefix and 20 base62 characters, matching the kind’s pattern only', () => {
    for (const kind of Object.keys(ID_PREFIXES) as IdKind[]) {
      const id = newId(kind);
      expect(id).toMatch(new RegExp(`^${ID_PREFIXES[kind]}_[0-9A-Za-z]{20}$`));
      expect(idPattern(kind).test(id)).toBe(true);
      for (const other of Object.keys(ID_PREFIXES) as IdKind[]) {
        if (other !== kind) expect(idPattern(other).test(id)).toBe(false);
      }
    }
  });

  it('sort by creation time', () => {
    const earlier = newId('booking', Date.UTC(2026, 10, 21));
    const later = newId('booking', Date.UTC(2026, 10, 21) + 1);
    expect(earlier < later).toBe(true);
  });

  it('do not repeat', () => {
    expect(new Set(Array.from({ length: 1000 }, () => newId('booking'))).size).toBe(1000);
  });

  it('draw every base62 character about equally often', () => {
    const text = randomBase62(62 * 400);
    const counts = new Map<string, number>();
    for (const ch of text) counts.set(ch, (counts.get(ch) ?? 0) + 1);
    expect(counts.size).toBe(62);
    for (const n of counts.values()) expect(n).toBeGreaterThan(200); // expected 400; far from any bias
  });

  it('encode numbers in base62 with a fixed width', () => {
    expect(encodeBase62(0, 6)).toBe('000000');
    expect(encodeBase62(61, 2)).toBe('0z');
    expect(encodeBase62(62, 2)).toBe('10');
    expect(encodeBase62(0xffffffff, 6)).toHaveLength(6);
  });

  it('make booking numbers of BK- and 8 Crockford base32 characters', () => {
    for (let i = 0; i < 200; i++) {
      const n = newBookingNumber();
      expect(n).toMatch(BOOKING_NUMBER_RE);
      expect(n.slice(3)).not.toMatch(/[ILOU]/);
    }
  });
});

describe('gift voucher codes', () => {
  it('are GV- and three groups of four Crockford base32 characters, and do not repeat', async () => {
    const { newGiftVoucherCode } = await import('./ids.js');
    const { GIFT_VOUCHER_CODE } = await import('../../shared/index.js');
    const codes = new Set(Array.from({ length: 2000 }, () => newGiftVoucherCode()));
    expect(codes.size).toBe(2000);
    for (const code of codes) expect(code).toMatch(GIFT_VOUCHER_CODE);
  });
});
