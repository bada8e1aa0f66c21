/**
 * Gift vouchers sold online: the buyer picks one of the organization's amounts and pays at the
 * provider's checkout; the voucher is made (ACTIVE, with its purchase) only when the provider reports
 * the payment, once per payment. An abandoned or expired checkout makes nothing.
 */
import { Refusal, invalid } from '../domain/refusal.js';
import { newId } from '../domain/ids.js';
import { formatMoney, parseMoney } from '../domain/money.js';
import { defaultVoucherExpiry } from '../domain/gift-vouchers.js';
import { SYSTEM } from '../domain/actor.js';
import type { Store } from '../store/index.js';
import type { GiftVoucherPurchaseRow } from '../store/gift-voucher-purchases.js';
import type { ProviderPayment } from '../payments/provider.js';
import type { GiftVoucherOffer, GiftVoucherPurchaseCreate } from '../../shared/index.js';
import type { OrganizationRow } from '../store/organizations.js';
import { getOrganization } from './organizations.js';
import { issueGiftVoucher } from './gift-vouchers.js';
import type { PaymentProvider } from '../payments/provider.js';
import type { Logger } from '../logger.js';

/** The provider this server pays through (as online-checkout.ts's OnlinePayments has it). */
export interface VoucherPayments {
  provider: PaymentProvider;
  logger: Logger;
}

/** The page the buyer came from, with the purchase and how checkout ended appended (as for bookings). */
function returnTo(page: string, purchaseId: string, status: 'success' | 'cancel'): string {
  const url = new URL(page);
  url.searchParams.set('outing_booking', purchaseId);
  url.searchParams.set('outing_status', status);
  return url.href;
}

/** How long a voucher's checkout stays open: the provider's own minimum is 30 minutes. */
const CHECKOUT_MINUTES = 60;

const notConfigured = (why: string) => new Refusal('PAYMENTS_NOT_CONFIGURED', `Gift vouchers cannot be bought online here: ${why}`);

/** The org's `giftVoucherAmounts`, in cents. */
const amountsOf = (org: OrganizationRow): number[] => (JSON.parse(org.giftVoucherAmounts) as string[]).map(parseMoney);

/**
 * Why the org's vouchers cannot be bought online here, or null when they can: a provider and the
 * org's `onlinePayments` on, e-mail to send the code, and at least one amount. The one check of both
 * the purchase and `GET /public/v1/gift-vouchers`, so the two never disagree.
 */
function whyNotSold(org: OrganizationRow, online: VoucherPayments | undefined, mailConfigured: boolean): string | null {
  if (online === undefined || org.onlinePayments !== 1) return 'online payment is not set up';
  if (!mailConfigured) return 'this server sends no e-mail, and the code travels by e-mail';
  if (amountsOf(org).length === 0) return 'the organization sells no amounts online';
  return null;
}

/**
 * `GET /public/v1/gift-vouchers`: the amounts the org sells, its currency, and whether a purchase
 * would be taken now (`available`, false wherever the purchase would answer PAYMENTS_NOT_CONFIGURED).
 */
export async function giftVoucherOffer(store: Store, online: VoucherPayments | undefined, mailConfigured: boolean, orgId: string): Promise<GiftVoucherOffer> {
  const org = await getOrganization(store, orgId);
  return { amounts: amountsOf(org).map(formatMoney), currency: org.currency, available: whyNotSold(org, online, mailConfigured) === null };
}

/**
 * `POST /public/v1/gift-vouchers`: checks that the org sells vouchers online (a provider, its
 * `onlinePayments` on, e-mail to send the code, amounts set) and the amount, records the purchase and
 * opens its checkout. Answers the payment page.
 */
export async function sellGiftVoucher(
  store: Store,
  online: VoucherPayments | undefined,
  mailConfigured: boolean,
  orgId: string,
  input: GiftVoucherPurchaseCreate,
  hostPage: string,
  now: number,
): Promise<{ checkoutUrl: string }> {
  const org = await getOrganization(store, orgId);
  const why = whyNotSold(org, online, mailConfigured);
  // `online` is checked there too; said again so that the compiler knows it below.
  if (why !== null || online === undefined) throw notConfigured(why ?? 'online payment is not set up');
  const amounts = amountsOf(org);
  const amount = parseMoney(input.amount);
  if (!amounts.includes(amount)) throw invalid('amount', `One of ${amounts.map(formatMoney).join(', ')}`);

  const purchase: GiftVoucherPurchaseRow = {
    id: newId('giftVoucherPurchase', now),
    orgId,
    checkoutSessionId: null,
    amount,
    currency: org.currency,
    buyerName: input.buyerName,
    buyerEmail: input.buyerEmail,
    recipientName: input.recipientName ?? null,
    recipientEmail: input.recipientEmail ?? null,
    message: input.message ?? null,
    voucherId: null,
    createdAt: now,
  };
  await store.transaction(async () => await store.giftVoucherPurchases.insertPurchase(purchase));
  let checkout;
  try {
    checkout = await online.provider.createCheckout({
      orgId,
      // The provider carries these back with its callbacks; a purchase is found by its checkout.
      bookingId: purchase.id,
      bookingNumber: purchase.id,
      title: `Gift voucher · ${org.name}`,
      description: `A gift voucher of ${formatMoney(amount)} ${org.currency}${purchase.recipientName ? ` for ${purchase.recipientName}` : ''}`,
      lineItems: [{ name: `Gift voucher · ${org.name}`, unitAmount: amount, quantity: 1 }],
      currency: org.currency,
      customerEmail: purchase.buyerEmail,
      successUrl: returnTo(hostPage, purchase.id, 'success'),
      cancelUrl: returnTo(hostPage, purchase.id, 'cancel'),
      expiresAt: now + CHECKOUT_MINUTES * 60_000,
      now,
    });
  } catch (err) {
    online.logger.error('gift voucher checkout could not be opened', {
      provider: online.provider.name,
      purchaseId: purchase.id,
      error: err instanceof Error ? `${err.name}: ${err.message}` : String(err),
    });
    throw new Refusal('INTERNAL_ERROR', 'Online payment could not be started: the payment provider did not answer. Nothing was charged; please try again in a moment.');
  }
  await store.transaction(async () => await store.giftVoucherPurchases.setCheckoutSession(purchase.id, checkout.sessionId));
  return { checkoutUrl: checkout.url };
}

/**
 * The provider reports a voucher's checkout paid: the voucher is made ACTIVE with its purchase and
 * its GIFT_VOUCHER e-mails queued, once (a payment reported twice finds its purchase already done).
 * Runs in the callback's transaction.
 */
export async function applyVoucherPayment(store: Store, provider: string, purchase: GiftVoucherPurchaseRow, paid: ProviderPayment, now: number): Promise<'applied' | 'duplicate'> {
  if (purchase.voucherId !== null) return 'duplicate';
  const org = await getOrganization(store, purchase.orgId);
  const voucher = await issueGiftVoucher(
    store,
    org,
    {
      amountCents: purchase.amount,
      expiresAt: defaultVoucherExpiry(now),
      recipientName: purchase.recipientName,
      recipientEmail: purchase.recipientEmail,
      message: purchase.message,
      buyerName: purchase.buyerName,
      buyerEmail: purchase.buyerEmail,
      purchase: { provider, reference: paid.reference ?? purchase.checkoutSessionId ?? purchase.id, amountCents: paid.amount },
    },
    now,
    SYSTEM,
  );
  if (!await store.giftVoucherPurchases.setPurchaseVoucher(purchase.id, voucher.id)) throw new Error('A gift voucher purchase was paid twice at once');
  return 'applied';
}
