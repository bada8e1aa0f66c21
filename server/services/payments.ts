import { Refusal, notFound } from '../domain/refusal.js';
import { newId } from '../domain/ids.js';
import { parseMoney } from '../domain/money.js';
import { bookingTotalCents, placesOf, remainingPlaces, slotCapacity } from '../domain/bookings.js';
import { findBooking, saveBookingChange } from './bookings.js';
import { recordBookingEvent } from './event-log.js';
import { recordActivity } from './activity.js';
import { SYSTEM, type Actor } from '../domain/actor.js';
import { formatMoney } from '../domain/money.js';
import type { BookingRow, BookingView } from '../store/bookings.js';
import type { PaymentRow } from '../store/payments.js';
import type { Page, PageResult } from '../store/sql.js';
import type { Store } from '../store/index.js';
import type { ProviderPayment } from '../payments/provider.js';
import type { PaymentCreate } from '../../shared/index.js';
import type { RefundRow } from '../store/refunds.js';
import type { RefundOrder } from './refunds.js';
import { retakeCodes } from './booking-codes.js';

/** The provider whose late payments are given back through it. */
const STRIPE = 'stripe';

/** What a callback or a sweep did: changed something, had been seen before, or concerned nothing of ours. */
export type Applied = 'applied' | 'duplicate' | 'ignored';

export const MANUAL_PROVIDER = 'manual';
/** The failure reason of a hold that lapsed unpaid (docs/payments.md). */
export const EXPIRED = 'expired';

type NewPayment = Omit<PaymentRow, 'id' | 'orgId' | 'bookingId' | 'createdAt'>;

/** The method of a payment made through an online provider: Stripe's are STRIPE. */
const methodOfProvider = (provider: string): PaymentRow['method'] => (provider === 'stripe' ? 'STRIPE' : 'OTHER');

/**
 * Writes a payment and fires its `PAYMENT_*` event, which carries the booking as it stood when the
 * money moved. A booking change the payment causes is saved after it, so its event comes second.
 */
async function insertPayment(store: Store, booking: BookingView, fields: NewPayment, now: number, actor: Actor): Promise<PaymentRow> {
  const row: PaymentRow = { id: newId('payment'), orgId: booking.orgId, bookingId: booking.id, createdAt: now, ...fields };
  await store.payments.insertPayment(row);
  await recordActivity(store, booking.orgId, actor, {
    action: 'payment.create',
    targetType: 'booking',
    targetId: booking.id,
    summary: `${row.status === 'SUCCEEDED' ? 'Payment' : 'Failed payment'} of ${formatMoney(row.amount)} ${row.currency} (${row.provider}) on ${booking.bookingNumber}`,
  }, now);
  await recordBookingEvent(store, booking.orgId, row.status === 'SUCCEEDED' ? 'PAYMENT_SUCCEEDED' : 'PAYMENT_FAILED', booking, now, { payment: row });
  return row;
}

const confirmed = (b: BookingView): BookingRow => ({ ...b, status: 'CONFIRMED', holdExpiresAt: null, cancelledAt: null, cancellationReason: null });
const cancelled = (b: BookingView, now: number, reason: string): BookingRow => ({
  ...b,
  status: 'CANCELLED',
  holdExpiresAt: null,
  cancelledAt: now,
  cancellationReason: reason,
});

/**
 * `POST /v1/bookings/{id}/payments`: a payment recorded by hand. A SUCCEEDED one confirms a PENDING
 * booking; a FAILED one changes nothing else. Returns the checkout the confirmation made moot, so
 * the caller can end it at the provider.
 */
export async function recordManualPayment(
  store: Store,
  orgId: string,
  ref: string,
  input: PaymentCreate,
  now: number,
  actor: Actor,
): Promise<{ payment: PaymentRow; supersededCheckout: string | null }> {
  return await store.transaction(async () => {
    const booking = await findBooking(store, orgId, ref);
    if (booking.status === 'CANCELLED') {
      throw new Refusal('INVALID_STATUS_TRANSITION', 'This booking is cancelled: no payment can be recorded on it');
    }
    const fields: NewPayment = {
      amount: parseMoney(input.amount),
      currency: booking.currency,
      status: input.status,
      provider: MANUAL_PROVIDER,
      method: input.method ?? 'OTHER',
      reference: input.reference ?? null,
      failureReason: input.failureReason ?? null,
      refundRequired: 0,
    };
    const row = await insertPayment(store, booking, fields, now, actor);
    const confirms = input.status === 'SUCCEEDED' && booking.status === 'PENDING';
    if (confirms) await saveBookingChange(store, booking, confirmed(booking), now, actor, { payment: row });
    return { payment: row, supersededCheckout: confirms ? booking.checkoutSessionId : null };
  });
}

/** A booking's payments, oldest first (404 when the booking is not the caller's). */
export async function listBookingPayments(store: Store, orgId: string, ref: string, page: Page): Promise<PageResult<PaymentRow>> {
  const booking = await findBooking(store, orgId, ref);
  return await store.payments.listPayments(booking.id, page);
}

/**
 * Money received online. A PENDING booking is confirmed. A cancelled one (its hold lapsed, or it
 * was cancelled meanwhile) is confirmed again only when its places are still free and its codes can
 * be taken again (the promo code's use, the voucher's part: `retakeCodes`). Otherwise it stays
 * cancelled and the payment is given back through the provider: the payment is kept with
 * `refundRequired` and a refund of it is recorded PENDING, its order pushed to `refunds` for the
 * caller to send once committed (the refund sweeper sends it otherwise). Money is never silently kept.
 */
export async function applyProviderSuccess(
  store: Store,
  provider: string,
  bookingId: { orgId: string; id: string },
  paid: ProviderPayment,
  now: number,
  refunds: RefundOrder[] = [],
): Promise<Applied> {
  return await store.transaction(async () => {
    const booking = await store.bookings.getBooking(bookingId.orgId, bookingId.id);
    if (!booking) return 'ignored';
    // The same payment can be reported twice (the sweeper finds a session paid, then its callback arrives).
    if (paid.reference !== null && await store.payments.getPaymentByReference(booking.id, provider, paid.reference, 'SUCCEEDED')) return 'duplicate';
    let next: BookingRow | undefined;
    let refundRequired = false;
    let giveBack = false;
    if (booking.status === 'PENDING') {
      next = confirmed(booking);
    } else if (booking.status === 'CANCELLED') {
      const exp = await store.experiences.getExperience(booking.orgId, booking.experienceId);
      // A closed departure takes no places back; otherwise they must fit under its capacity (its override when set).
      const slot = exp ? await store.slots.getSlot(exp.id, booking.slotStart) : undefined;
      const free = exp && !slot?.closed ? remainingPlaces(slotCapacity(exp.maxParticipants, slot), slot?.booked ?? 0) : 0;
      if (free >= placesOf(booking) && await retakeCodes(store, booking, now)) next = confirmed(booking);
      else refundRequired = giveBack = true;
    } else {
      // Already CONFIRMED: money beyond what was already paid in full is to be given back.
      refundRequired = await store.payments.succeededPaymentsTotal(booking.id) >= bookingTotalCents(booking);
    }
    const payment = await insertPayment(
      store,
      booking,
      { ...paid, status: 'SUCCEEDED', provider, method: methodOfProvider(provider), failureReason: null, refundRequired: refundRequired ? 1 : 0 },
      now,
      SYSTEM,
    );
    if (next) await saveBookingChange(store, booking, next, now, SYSTEM, { payment });
    if (giveBack && provider === STRIPE && payment.reference !== null) refunds.push(await recordLateRefund(store, booking, payment, now));
    return 'applied';
  });
}

/** The refund of a payment that came after its booking's hold lapsed and could not confirm it again. */
async function recordLateRefund(store: Store, booking: BookingView, payment: PaymentRow, now: number): Promise<RefundOrder> {
  const refund: RefundRow = {
    id: newId('refund', now),
    orgId: booking.orgId,
    bookingId: booking.id,
    amount: payment.amount,
    currency: payment.currency,
    method: 'STRIPE',
    status: 'PENDING',
    reason: 'Paid after the booking’s hold lapsed; its places or its codes were taken meanwhile',
    paymentId: payment.id,
    reference: null,
    failureReason: null,
    createdAt: now,
    updatedAt: now,
  };
  await store.refunds.insertRefund(refund);
  await recordActivity(store, booking.orgId, SYSTEM, {
    action: 'booking.refund',
    targetType: 'booking',
    targetId: booking.id,
    summary: `Refund of ${formatMoney(refund.amount)} ${refund.currency} (STRIPE, sent to Stripe) on ${booking.bookingNumber}: paid after its hold lapsed`,
  }, now);
  return { refund, paymentReference: payment.reference! };
}

/**
 * An online payment that did not happen (failed, or its checkout expired): a FAILED payment, then
 * the held booking is cancelled and its places freed. Only a booking still PENDING on this checkout
 * is touched, so a late or repeated notice changes nothing.
 */
export async function applyProviderFailure(
  store: Store,
  provider: string,
  bookingId: { orgId: string; id: string },
  failed: { sessionId: string | null; payment: ProviderPayment; failureReason: string; lapsedBy?: number },
  now: number,
): Promise<Applied> {
  return await store.transaction(async () => {
    const booking = await store.bookings.getBooking(bookingId.orgId, bookingId.id);
    if (!booking || booking.status !== 'PENDING') return 'ignored';
    if (failed.sessionId !== null && booking.checkoutSessionId !== null && booking.checkoutSessionId !== failed.sessionId) return 'ignored';
    if (failed.lapsedBy !== undefined && (booking.holdExpiresAt === null || booking.holdExpiresAt > failed.lapsedBy)) return 'ignored';
    const payment = await insertPayment(
      store,
      booking,
      { ...failed.payment, status: 'FAILED', provider, method: methodOfProvider(provider), failureReason: failed.failureReason, refundRequired: 0 },
      now,
      SYSTEM,
    );
    const reason = failed.failureReason === EXPIRED ? 'Online payment not completed in time' : 'Online payment failed';
    await saveBookingChange(store, booking, cancelled(booking, now, reason), now, SYSTEM, { payment });
    return 'applied';
  });
}

/** Cancels a hold whose checkout could not even be opened: no payment was attempted, so none is recorded. */
export async function cancelUnstartedHold(store: Store, booking: BookingView, now: number): Promise<void> {
  await store.transaction(async () => {
    const current = await store.bookings.getBooking(booking.orgId, booking.id);
    if (current?.status === 'PENDING') await saveBookingChange(store, current, cancelled(current, now, 'Online payment could not be started'), now, SYSTEM);
  });
}

/** Keeps a booking's places while its payment is still clearing at the provider. */
export async function extendHold(store: Store, bookingId: { orgId: string; id: string }, until: number, now: number): Promise<Applied> {
  return await store.transaction(async () => {
    const booking = await store.bookings.getBooking(bookingId.orgId, bookingId.id);
    if (!booking || booking.status !== 'PENDING' || (booking.holdExpiresAt ?? 0) >= until) return 'ignored';
    await store.bookings.updateBooking({ ...booking, holdExpiresAt: until, updatedAt: now });
    return 'applied';
  });
}

/** Remembers the checkout opened for a held booking, so the guest can be sent there and callbacks find it. */
export async function attachCheckout(store: Store, booking: BookingView, checkout: { sessionId: string; url: string }): Promise<BookingView> {
  return await store.transaction(async () => {
    const current = await store.bookings.getBooking(booking.orgId, booking.id);
    if (!current) throw notFound('Booking');
    const next: BookingView = { ...current, checkoutSessionId: checkout.sessionId, checkoutUrl: checkout.url };
    await store.bookings.updateBooking(next);
    return next;
  });
}
