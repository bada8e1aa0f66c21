// Gift vouchers as use cases: made by the operator (or sold online), listed, disabled or given a new
// expiry, and their e-mails. Spending and returning them belongs to the bookings (booking-codes.ts).
import { Refusal, invalid, notFound } from '../domain/refusal.js';
import { newGiftVoucherCode, newId } from '../domain/ids.js';
import { formatMoney, parseMoney } from '../domain/money.js';
import { MAX_VOUCHER_CENTS, MIN_VOUCHER_CENTS, defaultVoucherExpiry } from '../domain/gift-vouchers.js';
import type { Actor } from '../domain/actor.js';
import type { GiftVoucherRow, GiftVoucherStatus, VoucherRedemptionRow, VoucherWithRedemptions } from '../store/gift-vouchers.js';
import type { MessageRow } from '../store/messages.js';
import type { OrganizationRow } from '../store/organizations.js';
import type { Page, PageResult } from '../store/sql.js';
import type { Store } from '../store/index.js';
import { maskVoucherCode, type GiftVoucherCreate, type GiftVoucherPatch } from '../../shared/index.js';
import { recordActivity } from './activity.js';
import { queueingNow } from './message-queue.js';
import { getOrganization } from './organizations.js';


/** What a new voucher is made of, whoever makes it (the operator, or a purchase online). */
export interface NewGiftVoucher {
  amountCents: number;
  expiresAt: number | null;
  recipientName: string | null;
  recipientEmail: string | null;
  message: string | null;
  buyerName?: string | null;
  buyerEmail?: string | null;
  /** A voucher sold online: the provider's payment it was made for. */
  purchase?: { provider: string; reference: string; amountCents: number };
}

/** Draws before giving up: a clash of 60 random bits is already most unlikely once. */
const CODE_TRIES = 5;

/** A voucher's code as everyone but the operator sees it (`GV-••••-••••-` and its last four). */
export const voucherMask = (v: Pick<GiftVoucherRow, 'code'>): string => maskVoucherCode(v.code);

const money = (cents: number, currency: string) => `${formatMoney(cents)} ${currency}`;

/**
 * Makes a voucher in the organization's currency with a new unique code, records `gift_voucher.create`
 * (the mask only) and queues its GIFT_VOUCHER e-mail to the recipient and to the buyer, when there is
 * one with another address. Call it inside a transaction.
 */
export async function issueGiftVoucher(store: Store, org: OrganizationRow, fields: NewGiftVoucher, now: number, actor: Actor): Promise<GiftVoucherRow> {
  let row: GiftVoucherRow | undefined;
  for (let tries = 1; !row; tries++) {
    const candidate: GiftVoucherRow = {
      id: newId('giftVoucher', now),
      orgId: org.id,
      code: newGiftVoucherCode(),
      amount: fields.amountCents,
      balance: fields.amountCents,
      currency: org.currency,
      expiresAt: fields.expiresAt,
      disabled: 0,
      recipientName: fields.recipientName,
      recipientEmail: fields.recipientEmail,
      message: fields.message,
      buyerName: fields.buyerName ?? null,
      buyerEmail: fields.buyerEmail ?? null,
      purchaseProvider: fields.purchase?.provider ?? null,
      purchaseReference: fields.purchase?.reference ?? null,
      purchaseAmount: fields.purchase?.amountCents ?? null,
      createdAt: now,
      updatedAt: now,
    };
    if (await store.giftVouchers.insertVoucher(candidate)) row = candidate;
    else if (tries >= CODE_TRIES) throw new Error('No unused gift voucher code was drawn');
  }
  await recordActivity(store, org.id, actor, {
    action: 'gift_voucher.create',
    targetType: 'gift_voucher',
    targetId: row.id,
    summary: `Created gift voucher ${voucherMask(row)} of ${money(row.amount, row.currency)}`,
  }, now);
  const addresses = [row.recipientEmail, row.buyerEmail].filter((a): a is string => a !== null);
  const unique = addresses.filter((a, i) => addresses.findIndex((b) => b.toLowerCase() === a.toLowerCase()) === i);
  const queueing = queueingNow();
  for (const to of unique) {
    await store.messages.enqueueMessage({ orgId: org.id, bookingId: null, kind: 'GIFT_VOUCHER', to, createdAt: now, giftVoucherId: row.id, ...queueing });
  }
  return row;
}

/** `POST /v1/gift-vouchers`: checks the amount and the expiry, then makes the voucher. */
export async function createGiftVoucher(store: Store, orgId: string, input: GiftVoucherCreate, now: number, actor: Actor): Promise<VoucherWithRedemptions> {
  const amountCents = parseMoney(input.amount);
  if (amountCents < MIN_VOUCHER_CENTS) throw invalid('amount', 'A gift voucher is worth at least 1.00');
  if (amountCents > MAX_VOUCHER_CENTS) throw invalid('amount', 'A gift voucher is worth at most 999999.99');
  let expiresAt: number | null;
  if (input.expiresAt === undefined) expiresAt = defaultVoucherExpiry(now);
  else if (input.expiresAt === null) expiresAt = null;
  else {
    expiresAt = Date.parse(input.expiresAt);
    if (expiresAt <= now) throw invalid('expiresAt', 'Must be in the future (or null for no expiry)');
  }
  const org = await getOrganization(store, orgId);
  const voucher = await issueGiftVoucher(
    store,
    org,
    { amountCents, expiresAt, recipientName: input.recipientName ?? null, recipientEmail: input.recipientEmail ?? null, message: input.message ?? null },
    now,
    actor,
  );
  return { voucher, redemptions: [] };
}

async function findVoucher(store: Store, orgId: string, id: string): Promise<GiftVoucherRow> {
  const voucher = await store.giftVouchers.getVoucher(orgId, id);
  if (!voucher) throw notFound('Gift voucher');
  return voucher;
}

export async function getGiftVoucher(store: Store, orgId: string, id: string): Promise<VoucherWithRedemptions> {
  const voucher = await findVoucher(store, orgId, id);
  return { voucher, redemptions: await store.giftVouchers.listRedemptions([voucher.id]) };
}

/** Newest first, with their redemptions; `status` as it stands at `now`. */
export async function listGiftVouchers(
  store: Store,
  orgId: string,
  status: GiftVoucherStatus | undefined,
  page: Page,
  now: number,
): Promise<PageResult<VoucherWithRedemptions>> {
  const { rows, total } = await store.giftVouchers.listVouchers(orgId, { status, now }, page);
  const redemptions = await store.giftVouchers.listRedemptions(rows.map((r) => r.id));
  return { rows: rows.map((voucher) => ({ voucher, redemptions: redemptions.filter((r) => r.voucherId === voucher.id) })), total };
}

/** `PATCH /v1/gift-vouchers/{id}`: disables or enables it, and sets its expiry (any instant, or none). */
export async function updateGiftVoucher(store: Store, orgId: string, id: string, patch: GiftVoucherPatch, now: number, actor: Actor): Promise<VoucherWithRedemptions> {
  const before = await findVoucher(store, orgId, id);
  const after: GiftVoucherRow = {
    ...before,
    disabled: patch.status === undefined ? before.disabled : patch.status === 'DISABLED' ? 1 : 0,
    expiresAt: patch.expiresAt === undefined ? before.expiresAt : patch.expiresAt === null ? null : Date.parse(patch.expiresAt),
    updatedAt: now,
  };
  await store.giftVouchers.updateVoucher(orgId, id, after);
  const what: string[] = [];
  if (after.disabled !== before.disabled) what.push(after.disabled === 1 ? 'disabled' : 'enabled');
  if (after.expiresAt !== before.expiresAt) what.push(after.expiresAt === null ? 'no expiry' : `expires ${new Date(after.expiresAt).toISOString()}`);
  await recordActivity(store, orgId, actor, {
    action: 'gift_voucher.update',
    targetType: 'gift_voucher',
    targetId: id,
    summary: `Updated gift voucher ${voucherMask(before)}${what.length ? ` (${what.join(', ')})` : ''}`,
  }, now);
  return { voucher: after, redemptions: await store.giftVouchers.listRedemptions([id]) };
}

/** A voucher's e-mails, oldest first. */
export async function listGiftVoucherMessages(store: Store, orgId: string, id: string, page: Page): Promise<PageResult<MessageRow>> {
  const voucher = await findVoucher(store, orgId, id);
  return await store.messages.listGiftVoucherMessages(orgId, voucher.id, page);
}

/**
 * Sends a voucher's e-mail again: a new GIFT_VOUCHER message, queued now, to the address the original
 * went to (the recipient or the buyer). A message still being tried is not doubled.
 */
export async function resendGiftVoucherMessage(store: Store, orgId: string, id: string, messageId: string, now: number): Promise<MessageRow> {
  const voucher = await findVoucher(store, orgId, id);
  const original = await store.messages.getMessage(messageId);
  if (!original || original.orgId !== orgId || original.giftVoucherId !== voucher.id) throw notFound('Message');
  if (original.status === 'PENDING') {
    throw new Refusal('CONFLICT', 'This message is still being sent; it is tried again on its own at nextAttemptAt');
  }
  const row = await store.messages.enqueueMessage({
    orgId,
    bookingId: null,
    kind: 'GIFT_VOUCHER',
    to: original.to,
    createdAt: now,
    resendOf: original.id,
    giftVoucherId: voucher.id,
    ...queueingNow(),
  });
  if (!row) throw new Error('A resent message was not queued');
  return row;
}

/** The redemption a booking's spend or return writes (negative for a return). */
export function redemptionRow(voucher: Pick<GiftVoucherRow, 'id' | 'orgId'>, bookingId: string, cents: number, now: number): VoucherRedemptionRow {
  return { id: newId('giftVoucher', now).replace(/^gv_/, 'gvr_'), orgId: voucher.orgId, voucherId: voucher.id, bookingId, amount: cents, createdAt: now };
}
