import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { bookingLines, percentOf } from './lines.js';

const party = { tickets: [], participants: 3, unitPrice: 2500, extras: [] };
const lunch = { extraId: 'ex_lunch', name: 'Lunch', quantity: 2, unitPrice: 1200 };

describe('bookingLines', () => {
  it('makes the party and the extras, in that order, and sums them', () => {
    const made = bookingLines({ ...party, extras: [lunch] });
    expect(made.lines.map((l) => [l.kind, l.name, l.quantity, l.unitPrice, l.amount])).toEqual([
      ['PARTICIPANTS', null, 3, 2500, 7500],
      ['EXTRA', 'Lunch', 2, 1200, 2400],
    ]);
    expect(made).toMatchObject({ subtotal: 9900, discount: 0, total: 9900, voucherAmount: 0, due: 9900 });
  });

  it('makes one line per ticket category, and participants only without tickets', () => {
    const made = bookingLines({
      tickets: [{ categoryId: 'pc_a', name: 'Adult', quantity: 2, unitPrice: 3000 }, { categoryId: 'pc_c', name: 'Child', quantity: 1, unitPrice: 1500 }],
      participants: 3,
      unitPrice: null,
      extras: [],
    });
    expect(made.lines.map((l) => [l.kind, l.ref, l.amount])).toEqual([['TICKETS', 'pc_a', 6000], ['TICKETS', 'pc_c', 1500]]);
    expect(made.total).toBe(7500);
  });

  it('takes a percentage off the subtotal, rounded half-up to the cent', () => {
    // 9900 × 15% = 1485; 999 × 10% = 99.9 → 100; 1005 × 10% = 100.5 → 101; 1004 × 10% = 100.4 → 100.
    expect(bookingLines({ ...party, extras: [lunch], discount: { code: 'HOTEL15', type: 'PERCENT', value: 15 } })).toMatchObject({ discount: 1485, total: 8415 });
    expect(percentOf(999, 10)).toBe(100);
    expect(percentOf(1005, 10)).toBe(101);
    expect(percentOf(1004, 10)).toBe(100);
    expect(percentOf(7500, 100)).toBe(7500);
  });

  it('takes an amount off, never more than the subtotal, and names the code on its line', () => {
    const made = bookingLines({ ...party, discount: { code: 'NEWS5', type: 'AMOUNT', value: 500 } });
    expect(made.lines.at(-1)).toEqual({ kind: 'DISCOUNT', ref: null, name: 'NEWS5', quantity: 1, unitPrice: -500, amount: -500 });
    expect(made).toMatchObject({ subtotal: 7500, discount: 500, total: 7000 });
    expect(bookingLines({ ...party, discount: { code: 'BIG', type: 'AMOUNT', value: 10_000 } })).toMatchObject({ discount: 7500, total: 0 });
  });

  it('pays with a voucher up to its balance, never more than the total, after the discount', () => {
    const voucher = { mask: 'GV-••••-••••-7QX2', balance: 5000 };
    const made = bookingLines({ ...party, discount: { code: 'NEWS5', type: 'AMOUNT', value: 500 }, voucher });
    expect(made.lines.slice(-2).map((l) => [l.kind, l.name, l.amount])).toEqual([['DISCOUNT', 'NEWS5', -500], ['VOUCHER', 'GV-••••-••••-7QX2', -5000]]);
    expect(made).toMatchObject({ total: 7000, voucherAmount: 5000, due: 2000 });
    expect(bookingLines({ ...party, voucher: { ...voucher, balance: 20_000 } })).toMatchObject({ total: 7500, voucherAmount: 7500, due: 0 });
  });

  it('shows a code that takes nothing off, and no voucher line when nothing is left to pay', () => {
    const made = bookingLines({ ...party, unitPrice: 0, discount: { code: 'FREE', type: 'PERCENT', value: 50 }, voucher: { mask: 'GV-••••-••••-AAAA', balance: 100 } });
    expect(made.lines.map((l) => [l.kind, l.amount])).toEqual([['PARTICIPANTS', 0], ['DISCOUNT', 0]]);
    expect(Object.is(made.lines[1]!.amount, 0)).toBe(true);
    expect(made).toMatchObject({ total: 0, voucherAmount: 0, due: 0 });
  });

  it('keeps every figure the sum of the lines before it, whatever the parts', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 50 }),
        fc.integer({ min: 0, max: 99_999 }),
        fc.array(fc.record({ quantity: fc.integer({ min: 1, max: 99 }), unitPrice: fc.integer({ min: 0, max: 99_999 }) }), { maxLength: 5 }),
        fc.option(fc.oneof(
          fc.record({ type: fc.constant('PERCENT' as const), value: fc.integer({ min: 1, max: 100 }) }),
          fc.record({ type: fc.constant('AMOUNT' as const), value: fc.integer({ min: 1, max: 10_000_000 }) }),
        )),
        fc.option(fc.integer({ min: 1, max: 10_000_000 })),
        (participants, unitPrice, extras, rule, balance) => {
          const made = bookingLines({
            tickets: [],
            participants,
            unitPrice,
            extras: extras.map((e, i) => ({ extraId: `ex_${i}`, name: `Extra ${i}`, ...e })),
            discount: rule ? { code: 'CODE', ...rule } : null,
            voucher: balance === null ? null : { mask: 'GV-••••-••••-0000', balance },
          });
          const sum = (kinds: string[]) => made.lines.filter((l) => kinds.includes(l.kind)).reduce((n, l) => n + l.amount, 0);
          expect(made.subtotal).toBe(sum(['PARTICIPANTS', 'TICKETS', 'EXTRA']));
          expect(made.total).toBe(made.subtotal - made.discount);
          expect(made.total).toBe(sum(['PARTICIPANTS', 'TICKETS', 'EXTRA', 'DISCOUNT']));
          expect(made.due).toBe(made.lines.reduce((n, l) => n + l.amount, 0));
          expect(made.discount).toBeGreaterThanOrEqual(0);
          expect(made.discount).toBeLessThanOrEqual(made.subtotal);
          expect(made.voucherAmount).toBeLessThanOrEqual(made.total);
          expect(made.due).toBeGreaterThanOrEqual(0);
        },
      ),
    );
  });
});
