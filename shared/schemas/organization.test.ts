import { describe, expect, it } from 'vitest';
import { CurrencyCode, OrganizationPatch, TWO_DECIMAL_CURRENCIES } from '../index.js';

describe('organization schemas', () => {
  it('take ISO 4217 codes with two decimals, not JPY or three-decimal ones', () => {
    for (const code of TWO_DECIMAL_CURRENCIES) expect(CurrencyCode.safeParse(code).success).toBe(true);
    for (const code of ['JPY', 'KRW', 'KWD', 'BHD', 'XAU', 'usd', 'US', '']) expect(CurrencyCode.safeParse(code).success).toBe(false);
    expect(TWO_DECIMAL_CURRENCIES).toEqual(expect.arrayContaining(['EUR', 'USD', 'GBP']));
  });

  it('need at least one field in a patch and refuse unknown ones', () => {
    expect(OrganizationPatch.safeParse({}).success).toBe(false);
    expect(OrganizationPatch.safeParse({ phone: null }).success).toBe(true);
    expect(OrganizationPatch.safeParse({ name: 'x', extra: 1 }).success).toBe(false);
  });
});
