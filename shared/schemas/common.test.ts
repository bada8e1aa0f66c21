import { describe, expect, it } from 'vitest';
import { Email, InstantInput, LocalDate, LocalTime, MoneyString, TimeZone, idPattern, isCalendarDate, isTimeZone, queryInt } from '../index.js';

describe('common schemas', () => {
  it('accept real calendar dates as YYYY-MM-DD only', () => {
    for (const ok of ['2026-01-01', '2028-02-29', '2026-12-31']) expect(isCalendarDate(ok)).toBe(true);
    for (const bad of ['2026-02-29', '2026-13-01', '2026-00-10', '2026-04-31', '26-01-01', '2026-1-1', '2026-01-01T00:00', '']) {
      expect(isCalendarDate(bad)).toBe(false);
      expect(LocalDate.safeParse(bad).success).toBe(false);
    }
  });

  it('accept wall-clock times from 00:00 to 23:59', () => {
    for (const ok of ['00:00', '09:30', '23:59']) expect(LocalTime.safeParse(ok).success).toBe(true);
    for (const bad of ['24:00', '9:30', '09:60', '09:30:00', '0930', ' 09:30']) expect(LocalTime.safeParse(bad).success).toBe(false);
  });

  it('accept IANA zones the runtime knows', () => {
    for (const ok of ['UTC', 'Europe/Lisbon', 'America/Sao_Paulo', 'Australia/Lord_Howe']) expect(isTimeZone(ok)).toBe(true);
    for (const bad of ['', 'Nowhere', 'Europe/Nowhere', 'x'.repeat(65)]) {
      expect(isTimeZone(bad)).toBe(false);
      expect(TimeZone.safeParse(bad).success).toBe(false);
    }
  });

  it('require a zone or offset on request instants', () => {
    for (const ok of ['2026-12-01T09:00:00Z', '2026-12-01T09:00:00.000Z', '2026-12-01T10:00:00+01:00']) {
      expect(InstantInput.safeParse(ok).success).toBe(true);
    }
    for (const bad of ['2026-12-01T09:00:00', '2026-12-01', 'tomorrow', '2026-13-01T09:00:00Z']) {
      expect(InstantInput.safeParse(bad).success).toBe(false);
    }
  });

  it('accept money strings with two decimals only', () => {
    for (const ok of ['0.00', '90.00', '1234.56']) expect(MoneyString.safeParse(ok).success).toBe(true);
    for (const bad of ['90', '90.0', '90.000', '-1.00', '1,00', '']) expect(MoneyString.safeParse(bad).success).toBe(false);
  });

  it('accept e-mail addresses', () => {
    expect(Email.safeParse('hello@lisbonwalks.example').success).toBe(true);
    for (const bad of ['hello', 'a@b', '@b.co', 'a b@c.co']) expect(Email.safeParse(bad).success).toBe(false);
  });

  it('read integers from query strings within bounds', () => {
    const limit = queryInt(1, 100);
    expect(limit.parse('1')).toBe(1);
    expect(limit.parse('100')).toBe(100);
    for (const bad of ['0', '101', '-1', '1.5', 'abc', '', ' 5', '1e2', '0x10']) expect(limit.safeParse(bad).success).toBe(false);
  });

  it('match ids of one kind only', () => {
    expect(idPattern('experience').test('exp_abc123')).toBe(true);
    for (const bad of ['exp_', 'exp_a-b', 'bk_abc', 'EXP_abc', 'exp_abc\n', `exp_${'a'.repeat(65)}`]) {
      expect(idPattern('experience').test(bad)).toBe(false);
    }
  });
});
