import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { formatMoney, parseMoney } from './money.js';

describe('money', () => {
  it('formats cents as major units with two decimals', () => {
    expect(formatMoney(9000)).toBe('90.00');
    expect(formatMoney(0)).toBe('0.00');
    expect(formatMoney(5)).toBe('0.05');
    expect(formatMoney(1999)).toBe('19.99');
    expect(formatMoney(100_000_000_000)).toBe('1000000000.00');
    expect(formatMoney(-250)).toBe('-2.50');
  });

  it('parses the contract’s money strings back to cents', () => {
    expect(parseMoney('90.00')).toBe(9000);
    expect(parseMoney('0.05')).toBe(5);
    expect(parseMoney('19.99')).toBe(1999);
  });

  it('round-trips every non-negative amount exactly', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 1e13 }), (cents) => parseMoney(formatMoney(cents)) === cents));
  });
});
