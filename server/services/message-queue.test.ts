import { describe, expect, it } from 'vitest';
import { messageKindFor } from './message-queue.js';
import { UNTOUCHED_BOOKING } from '../test-helpers/fixtures.js';
import type { BookingRow } from '../store/bookings.js';

const row = (fields: Partial<BookingRow> = {}): BookingRow => ({
  id: 'bk_1', orgId: 'org_1', bookingNumber: 'BK-AAAAAAAA', experienceId: 'exp_1', customerId: 'cus_1',
  slotStart: 1_000_000, slotEnd: 1_003_600, status: 'CONFIRMED', guestName: 'Eve', guestEmail: 'eve@example.com',
  guestPhone: null, participants: 2, unitPrice: 4500, currency: 'EUR', source: 'API', metadata: '{}',
  ...UNTOUCHED_BOOKING, createdAt: 1, updatedAt: 1,
  ...fields,
});

const LUNCH = { extraId: 'ex_lunch', name: 'Lunch', per: 'PERSON', quantity: 2, unitPrice: 1200 };
const ANSWER = { questionId: 'q_diet', label: 'Dietary needs', type: 'TEXT', value: 'No nuts' };

describe('messageKindFor: the booking form', () => {
  it('tells the guest of a change to the extras: one added, one more, all removed', () => {
    expect(messageKindFor(row(), row({ extras: JSON.stringify([LUNCH]) }))).toBe('BOOKING_CHANGED');
    expect(messageKindFor(row({ extras: JSON.stringify([LUNCH]) }), row({ extras: JSON.stringify([{ ...LUNCH, quantity: 1 }]) }))).toBe('BOOKING_CHANGED');
    expect(messageKindFor(row({ extras: JSON.stringify([LUNCH]) }), row({ extras: '[]' }))).toBe('BOOKING_CHANGED');
  });

  it('sends nothing for answers alone, or for extras stored differently but equal (none as null or [])', () => {
    expect(messageKindFor(row(), row({ answers: JSON.stringify([ANSWER]) }))).toBeUndefined();
    expect(messageKindFor(row({ answers: JSON.stringify([ANSWER]) }), row({ answers: '[]' }))).toBeUndefined();
    expect(messageKindFor(row({ extras: null }), row({ extras: '[]' }))).toBeUndefined();
    expect(messageKindFor(row({ extras: JSON.stringify([LUNCH]) }), row({ extras: JSON.stringify([LUNCH]) }))).toBeUndefined();
  });

  it('sends no change notice for a booking that is not confirmed', () => {
    expect(messageKindFor(row({ status: 'PENDING' }), row({ status: 'PENDING', extras: JSON.stringify([LUNCH]) }))).toBeUndefined();
  });
});
