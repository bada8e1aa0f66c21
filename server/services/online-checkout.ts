import { Refusal } from '../domain/refusal.js';
import type { Logger } from '../logger.js';
import { createBooking } from './bookings.js';
import type { Actor } from '../domain/actor.js';
import type { BookingView } from '../store/bookings.js';
import type { ExperienceRow } from '../store/experiences.js';
import type { OrganizationRow } from '../store/organizations.js';
import type { Store } from '../store/index.js';
import type { CallbackNotice, CheckoutLineItem, PaymentProvider } from '../payments/provider.js';
import { ticketsLine, ticketsOf } from '../domain/tickets.js';
import { bookingExtrasOf, extrasLine, extrasOf, storedBookingLines } from '../domain/booking-form.js';
import { applyProviderFailure, applyProviderSuccess, attachCheckout, cancelUnstartedHold, EXPIRED, extendHold, type Applied } from './payments.js';
import { applyVoucherPayment } from './gift-voucher-sales.js';
import { applyRefundReports, sendRefund, type RefundOrder } from './refunds.js';
import type { BookingInput } from '../../shared/index.js';

/** Online payment as this server runs it: the provider and how long an unpaid booking holds its places. */
export interface OnlinePayments {
  provider: PaymentProvider;
  holdMinutes: number;
  /** The page a guest returns to when the booking request names none (`PUBLIC_URL/demo`). */
  fallbackPage: string;
  logger: Logger;
}

/** How long a booking whose payment is still clearing keeps its places before the provider is asked again. */
export const CLEARING_HOLD_MS = 24 * 60 * 60 * 1000;

/**
 * Online payment is due for a widget booking of a priced experience, or one choosing a priced extra,
 * on a server with a provider, for an org that wants it.
 */
export function onlinePaymentDue(
  org: Pick<OrganizationRow, 'onlinePayments'> | undefined,
  exp: Pick<ExperienceRow, 'price' | 'extras'>,
  online: OnlinePayments | undefined,
  chosen: readonly { extraId: string; quantity: number }[] = [],
): online is OnlinePayments {
  if (online === undefined || org?.onlinePayments !== 1) return false;
  if (exp.price > 0) return true;
  const priced = new Set(extrasOf(exp.extras).filter((e) => e.active && e.price > 0).map((e) => e.id));
  return chosen.some((c) => c.quantity > 0 && priced.has(c.extraId));
}

const MAX_RETURN_URL = 2000;
const RETURN_PARAMS = ['outing_booking', 'outing_status'];

function httpUrl(value: string | undefined): URL | undefined {
  if (!value || value === 'null') return undefined;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The page hosting the widget, where the guest comes back after checkout. The public booking body is
 * fixed by the contract, so the page is read from the request: its `Referer` (the full page address
 * when the widget sends it, see docs/payments.md), else its `Origin`, else the fallback page.
 */
export function hostPageOf(origin: string | undefined, referer: string | undefined, fallback: string): string {
  const from = httpUrl(origin);
  const page = httpUrl(referer);
  if (page && (!from || page.origin === from.origin) && page.href.length <= MAX_RETURN_URL) {
    page.hash = '';
    for (const name of RETURN_PARAMS) page.searchParams.delete(name);
    return page.href;
  }
  if (from) return `${from.origin}/`;
  return fallback;
}

/** The host page with `?outing_booking={number}&outing_status=success|cancel` appended. */
export function returnUrl(page: string, bookingNumber: string, status: 'success' | 'cancel'): string {
  const url = new URL(page);
  url.searchParams.set('outing_booking', bookingNumber);
  url.searchParams.set('outing_status', status);
  return url.href;
}

function slotLabel(b: BookingView): string {
  const guests = b.tickets === null ? `${b.participants} ${b.participants === 1 ? 'guest' : 'guests'}` : ticketsLine(ticketsOf(b.tickets));
  // Every extra is named here, free ones too: only priced ones can be checkout lines.
  const extras = bookingExtrasOf(b.extras);
  const items = extras.length === 0 ? guests : `${guests} · ${extrasLine(extras)}`;
  return `${new Date(b.slotStart).toISOString().slice(0, 16).replace('T', ' ')} UTC · ${items} · ${b.bookingNumber}`;
}

/**
 * What the checkout charges: what the booking owes (its `amountDue`). Without a promo code or a
 * voucher that is its money lines, one checkout line each: a ticket category (named after the
 * experience and the category), the participants (named after the experience), each extra (by its
 * name). Free lines, such as an infant on a lap or a free extra, are named in the description
 * instead: a checkout line needs a price. With a discount or a voucher part the positive lines would
 * add up to more than is owed (a checkout line cannot be negative), so the checkout has one line,
 * the experience's name, for the amount due. Either way the lines add up to what is charged.
 */
export function lineItemsOf(b: BookingView): CheckoutLineItem[] {
  const money = storedBookingLines(b);
  if (money.discount > 0 || money.voucherAmount > 0) return [{ name: b.experienceName, unitAmount: money.due, quantity: 1 }];
  return money.lines
    .filter((line) => line.unitPrice > 0)
    .map((line) => ({
      name: line.kind === 'EXTRA' ? line.name ?? '' : line.kind === 'TICKETS' ? `${b.experienceName} · ${line.name ?? ''}` : b.experienceName,
      unitAmount: line.unitPrice,
      quantity: line.quantity,
    }));
}

/**
 * Books with online payment: the booking is taken PENDING with its places held (one transaction,
 * committed before any network call), then the provider's checkout is opened for it. When the
 * checkout cannot be opened the hold is cancelled at once and the guest gets a clear error.
 */
export async function bookWithCheckout(
  store: Store,
  online: OnlinePayments,
  orgId: string,
  input: BookingInput,
  hostPage: string,
  now: number,
  actor: Actor,
): Promise<BookingView> {
  const holdExpiresAt = now + online.holdMinutes * 60_000;
  const held = await createBooking(store, orgId, input, { source: 'WIDGET', holdExpiresAt, actor }, now);
  // Nothing left to pay (a gift voucher pays it all): confirmed at once, no checkout.
  if (held.status === 'CONFIRMED') return held;
  return await openCheckout(store, online, held, hostPage, now);
}

/**
 * Opens the provider's checkout for a PENDING hold already committed, and remembers it on the
 * booking. When it cannot be opened, `undo` runs (by default: the hold is cancelled at once) and the
 * guest gets a clear error.
 */
export async function openCheckout(
  store: Store,
  online: OnlinePayments,
  held: BookingView,
  hostPage: string,
  now: number,
  undo: () => Promise<void> = async () => await cancelUnstartedHold(store, held, now),
): Promise<BookingView> {
  const holdExpiresAt = held.holdExpiresAt ?? now + online.holdMinutes * 60_000;
  let checkout;
  try {
    checkout = await online.provider.createCheckout({
      orgId: held.orgId,
      bookingId: held.id,
      bookingNumber: held.bookingNumber,
      title: held.experienceName,
      description: slotLabel(held),
      lineItems: lineItemsOf(held),
      currency: held.currency,
      customerEmail: held.guestEmail,
      successUrl: returnUrl(hostPage, held.bookingNumber, 'success'),
      cancelUrl: returnUrl(hostPage, held.bookingNumber, 'cancel'),
      expiresAt: holdExpiresAt,
      now,
    });
  } catch (err) {
    await undo();
    online.logger.error('checkout could not be opened', {
      provider: online.provider.name,
      bookingId: held.id,
      error: err instanceof Error ? `${err.name}: ${err.message}` : String(err),
    });
    throw new Refusal('INTERNAL_ERROR',
      'Online payment could not be started: the payment provider did not answer. Nothing was booked and no places are held; please try again in a moment.',
    );
  }
  return await attachCheckout(store, held, checkout);
}

/**
 * Applies a verified provider callback, once: the provider's event id is noted in the same
 * transaction as the changes it causes, so a callback sent twice (or retried after a crash) is
 * applied exactly once.
 */
export async function applyCallback(store: Store, provider: PaymentProvider, notice: CallbackNotice, now: number, logger: Logger): Promise<Applied> {
  if (notice.kind === 'ignored') return 'ignored';
  // A late payment that could not confirm its booking again is refunded once committed.
  const refunds: RefundOrder[] = [];
  const applied = await applyNotice(store, provider, notice, now, refunds);
  for (const order of refunds) await sendRefund(store, provider, order, () => now, logger);
  return applied;
}

async function applyNotice(store: Store, provider: PaymentProvider, notice: Exclude<CallbackNotice, { kind: 'ignored' }>, now: number, refunds: RefundOrder[]): Promise<Applied> {
  return await store.transaction(async () => {
    if (!await store.payments.insertProviderEvent(provider.name, notice.eventId, now)) return 'duplicate';
    if (notice.kind === 'refund') return await applyRefundReports(store, notice.refunds, now);
    // A gift voucher bought online: made when paid; a checkout that ends otherwise makes nothing.
    const purchase = await store.giftVoucherPurchases.getPurchaseBySession(notice.sessionId);
    if (purchase) return notice.outcome.state === 'paid' ? await applyVoucherPayment(store, provider.name, purchase, notice.outcome.payment, now) : 'ignored';
    const booking =
      await store.bookings.getBookingByCheckoutSession(notice.sessionId) ??
      (notice.booking ? await store.bookings.getBooking(notice.booking.orgId, notice.booking.bookingId) : undefined);
    if (!booking) return 'ignored';
    const ref = { orgId: booking.orgId, id: booking.id };
    const { outcome } = notice;
    switch (outcome.state) {
      case 'paid':
        return await applyProviderSuccess(store, provider.name, ref, outcome.payment, now, refunds);
      case 'failed':
      case 'expired':
        return await applyProviderFailure(
          store,
          provider.name,
          ref,
          {
            sessionId: notice.sessionId,
            payment: outcome.payment,
            failureReason: outcome.state === 'failed' ? outcome.failureReason : EXPIRED,
          },
          now,
        );
      case 'processing':
        return await extendHold(store, ref, now + CLEARING_HOLD_MS, now);
      case 'open':
        return 'ignored';
    }
  });
}
