import { Refusal, conflict, invalid } from '../domain/refusal.js';
import { newId } from '../domain/ids.js';
import { formatMoney, parseMoney } from '../domain/money.js';
import { SYSTEM, type Actor } from '../domain/actor.js';
import type { Logger } from '../logger.js';
import { findBooking } from './bookings.js';
import { recordBookingEvent } from './event-log.js';
import { recordActivity } from './activity.js';
import type { BookingView } from '../store/bookings.js';
import type { PaymentRow } from '../store/payments.js';
import type { RefundMethod, RefundRow } from '../store/refunds.js';
import type { Page, PageResult } from '../store/sql.js';
import type { Store } from '../store/index.js';
import type { PaymentProvider, RefundOutcome, RefundReport } from '../payments/provider.js';
import type { RefundCreate } from '../../shared/index.js';

/** The provider name of Stripe's payment records: a booking with one of these defaults to STRIPE refunds. */
export const STRIPE_PROVIDER = 'stripe';
/** A booking has far fewer payments than this; the rule reads them all. */
const ALL_PAYMENTS: Page = { limit: 1000, offset: 0 };
/** A STRIPE refund Stripe has not answered for is asked for again after this long (the request that made it may have died). */
export const RESEND_AFTER_MS = 60_000;
const RESEND_BATCH = 20;

/** What a new refund needs from the provider once its transaction has committed. */
export interface RefundOrder {
  refund: RefundRow;
  /** The provider's reference of the payment it is taken from. */
  paymentReference: string;
}

const stripePaymentsOf = (payments: PaymentRow[]) =>
  payments.filter((p) => p.status === 'SUCCEEDED' && p.provider === STRIPE_PROVIDER && p.reference !== null);

const exceeds = (message: string) => new Refusal('REFUND_EXCEEDS_PAID', message);

/**
 * Writes what a refund that has just SUCCEEDED changes: the booking's refunded sum, then
 * `PAYMENT_REFUNDED` with the booking as it stands after it.
 */
async function refundSucceeded(store: Store, booking: BookingView, refund: RefundRow, now: number): Promise<void> {
  await store.refunds.addAmountRefunded(booking.id, refund.amount);
  const after: BookingView = { ...booking, amountRefunded: booking.amountRefunded + refund.amount };
  await recordBookingEvent(store, booking.orgId, 'PAYMENT_REFUNDED', after, now, { refund });
}

/**
 * `POST /v1/bookings/{id}/refunds`: records a refund in one transaction, which every other writer
 * waits for (the default lock), so two refunds side by side can never give back more than was paid.
 * A refund by hand is SUCCEEDED at once; a STRIPE one is PENDING and comes back with the order to
 * send to Stripe once committed (`sendRefund`), never from inside the transaction.
 */
export async function createRefund(
  store: Store,
  orgId: string,
  ref: string,
  input: RefundCreate,
  options: { now: number; actor: Actor; provider: PaymentProvider | undefined },
): Promise<{ refund: RefundRow; order: RefundOrder | null }> {
  const amount = parseMoney(input.amount);
  if (amount <= 0) throw invalid('amount', 'Must be more than 0.00');
  const { now, actor } = options;
  return await store.transaction(async () => {
    const booking = await findBooking(store, orgId, ref);
    const payments = (await store.payments.listPayments(booking.id, ALL_PAYMENTS)).rows;
    const stripePayments = stripePaymentsOf(payments);
    const method: RefundMethod = input.method ?? (stripePayments.length > 0 ? 'STRIPE' : 'OTHER');
    // A voucher's part is never refunded: a cancellation returns it to the voucher.
    const paid = payments.filter((p) => p.status === 'SUCCEEDED' && p.method !== 'VOUCHER').reduce((sum, p) => sum + p.amount, 0);
    const totals = await store.refunds.refundTotals(booking.id);
    const left = paid - totals.held;
    const money = (cents: number) => `${formatMoney(cents)} ${booking.currency}`;
    if (amount > left) {
      throw exceeds(`At most ${money(Math.max(left, 0))} of this booking can be refunded: ${money(paid)} was paid and ${money(totals.held)} refunded or being refunded`);
    }
    let source: PaymentRow | undefined;
    if (method === 'STRIPE') {
      // Each Stripe refund is taken from one payment: the first with enough left on it.
      const leftOn = (p: PaymentRow) => p.amount - (totals.heldByPayment.get(p.id) ?? 0);
      source = stripePayments.find((p) => leftOn(p) >= amount);
      if (!source) {
        const most = Math.max(0, ...stripePayments.map(leftOn));
        throw exceeds(stripePayments.length === 0
          ? 'This booking has no Stripe payment to refund: choose another method (CASH, CARD, BANK_TRANSFER or OTHER)'
          : `At most ${money(most)} can be refunded through Stripe from one of this booking’s Stripe payments`);
      }
      if (!options.provider || options.provider.name !== STRIPE_PROVIDER) {
        throw conflict('Stripe is not configured on this server, so a STRIPE refund cannot be sent: refund by another method');
      }
    }
    const refund: RefundRow = {
      id: newId('refund', now),
      orgId,
      bookingId: booking.id,
      amount,
      currency: booking.currency,
      method,
      status: method === 'STRIPE' ? 'PENDING' : 'SUCCEEDED',
      reason: input.reason === undefined || input.reason.trim() === '' ? null : input.reason,
      paymentId: source?.id ?? null,
      reference: null,
      failureReason: null,
      createdAt: now,
      updatedAt: now,
    };
    await store.refunds.insertRefund(refund);
    await recordActivity(store, orgId, actor, {
      action: 'booking.refund',
      targetType: 'booking',
      targetId: booking.id,
      summary: `Refund of ${money(amount)} (${method}${refund.status === 'PENDING' ? ', sent to Stripe' : ''}) on ${booking.bookingNumber}`,
    }, now);
    if (refund.status === 'SUCCEEDED') await refundSucceeded(store, booking, refund, now);
    return { refund, order: source?.reference ? { refund, paymentReference: source.reference } : null };
  });
}

/** A booking's refunds, oldest first (404 when the booking is not the caller's). */
export async function listBookingRefunds(store: Store, orgId: string, ref: string, page: Page): Promise<PageResult<RefundRow>> {
  const booking = await findBooking(store, orgId, ref);
  return await store.refunds.listRefunds(booking.id, page);
}

/**
 * Applies what the provider says of a refund, once: PENDING notes the provider's id; SUCCEEDED adds
 * to the booking's refunded sum and fires `PAYMENT_REFUNDED`; FAILED gives the amount back to what
 * can be refunded. A refund already settled is left as it is. Runs in the caller's transaction, or
 * its own.
 */
export async function applyRefundOutcome(
  store: Store,
  refundId: { orgId: string; id: string },
  outcome: RefundOutcome,
  now: number,
): Promise<'applied' | 'duplicate' | 'ignored'> {
  return await store.transaction(async () => {
    const refund = await store.refunds.getRefund(refundId.orgId, refundId.id);
    if (!refund || refund.method !== 'STRIPE') return 'ignored';
    if (refund.status !== 'PENDING') return 'duplicate';
    if (outcome.state === 'pending') {
      if (refund.reference === outcome.reference) return 'duplicate';
      await store.refunds.setRefundReference(refund.id, outcome.reference, now);
      return 'applied';
    }
    const status = outcome.state === 'succeeded' ? 'SUCCEEDED' : 'FAILED';
    const failureReason = outcome.state === 'failed' ? outcome.failureReason : null;
    if (!await store.refunds.settleRefund(refund.id, { status, reference: outcome.reference, failureReason, updatedAt: now })) return 'duplicate';
    const settled: RefundRow = { ...refund, status, reference: outcome.reference ?? refund.reference, failureReason, updatedAt: now };
    const booking = await store.bookings.getBooking(refund.orgId, refund.bookingId);
    if (!booking) return 'applied';
    if (status === 'SUCCEEDED') {
      await refundSucceeded(store, booking, settled, now);
    } else {
      await recordActivity(store, refund.orgId, SYSTEM, {
        action: 'booking.refund',
        targetType: 'booking',
        targetId: booking.id,
        summary: `Stripe refund of ${formatMoney(refund.amount)} ${refund.currency} on ${booking.bookingNumber} failed: ${failureReason}`,
      }, now);
    }
    return 'applied';
  });
}

/** The refunds a provider callback reports on, each applied once (inside the callback's transaction). */
export async function applyRefundReports(store: Store, reports: RefundReport[], now: number): Promise<'applied' | 'duplicate' | 'ignored'> {
  const results = new Set<string>();
  for (const report of reports) {
    const refund =
      report.refundId !== undefined && report.orgId !== undefined
        ? await store.refunds.getRefund(report.orgId, report.refundId)
        : report.outcome.reference !== null ? await store.refunds.getRefundByReference(report.outcome.reference) : undefined;
    if (!refund) continue;
    results.add(await applyRefundOutcome(store, { orgId: refund.orgId, id: refund.id }, report.outcome, now));
  }
  return results.has('applied') ? 'applied' : results.has('duplicate') ? 'duplicate' : 'ignored';
}

/**
 * Sends a committed STRIPE refund to Stripe and applies its answer. When Stripe cannot be reached
 * the refund stays PENDING and unsent: the refund sweeper asks again (same idempotency key).
 */
export async function sendRefund(store: Store, provider: PaymentProvider, order: RefundOrder, now: () => number, logger: Logger): Promise<RefundRow> {
  const { refund } = order;
  let outcome: RefundOutcome;
  try {
    outcome = await provider.createRefund({
      refundId: refund.id,
      orgId: refund.orgId,
      bookingId: refund.bookingId,
      paymentReference: order.paymentReference,
      amount: refund.amount,
      currency: refund.currency,
      reason: refund.reason,
    });
  } catch (err) {
    logger.warn('could not send a refund to the payment provider; will try again', {
      refundId: refund.id,
      error: err instanceof Error ? `${err.name}: ${err.message}` : String(err),
    });
    return refund;
  }
  await applyRefundOutcome(store, { orgId: refund.orgId, id: refund.id }, outcome, now());
  return (await store.refunds.getRefund(refund.orgId, refund.id)) ?? refund;
}

/**
 * Sends the STRIPE refunds recorded a while ago that Stripe never answered for (the server stopped,
 * or Stripe was unreachable); answers how many were sent. Stripe's idempotency key makes a refund
 * sent twice, here and by its request, one refund.
 */
export async function resendUnsentRefunds(deps: { store: Store; provider: PaymentProvider | undefined; logger: Logger; now: () => number }): Promise<number> {
  const { store, provider } = deps;
  if (!provider) return 0;
  const unsent = await store.refunds.listUnsentRefunds(deps.now() - RESEND_AFTER_MS, RESEND_BATCH);
  let sent = 0;
  for (const refund of unsent) {
    const payment = refund.paymentId === null ? undefined : (await store.payments.listPayments(refund.bookingId, ALL_PAYMENTS)).rows.find((p) => p.id === refund.paymentId);
    if (!payment?.reference) continue;
    const after = await sendRefund(store, provider, { refund, paymentReference: payment.reference }, deps.now, deps.logger);
    if (after.reference !== null || after.status !== 'PENDING') sent += 1;
  }
  return sent;
}
