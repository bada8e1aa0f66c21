/**
 * Settings › Promo codes and Settings › Gift vouchers: their reads (settings.ts calls these when a
 * section opens) and their writes. This module loads with those screens only, never with Today.
 * The records live in the Settings model's signals, so signing out forgets them with the rest.
 */
import { z } from 'zod';
import { Deleted, GiftVoucher, Message, PromoCode, type DiscountType, type GiftVoucherStatus } from '../../shared/index.js';
import { ApiError, type Http, type ListPage } from '../api.js';
import { idleForm, sentenceFor } from './context.js';
import { amountOf } from './bookings.js';
import type { SettingsModel } from './settings.js';
import type { VoucherMessage, VoucherPanel } from './settings-types.js';

/** Gift vouchers per page of the list. */
export const VOUCHER_PAGE = 20;

/** A gift voucher's e-mail is about no booking. */
const VoucherMessageRecord = Message.extend({ bookingId: z.string().nullable().optional() });
export type { VoucherMessage, VoucherPanel };

const path = (...parts: string[]) => `/v1/${parts.map(encodeURIComponent).join('/')}`;
const STATUSES: readonly string[] = ['ACTIVE', 'USED', 'EXPIRED', 'DISABLED'];

export function promoCodesOf(http: Http, search: URLSearchParams): Promise<PromoCode[]> {
  const active = search.get('active');
  return http.list(PromoCode, '/v1/promo-codes', { limit: 100, active: active === 'true' || active === 'false' ? active : undefined }).then((p) => p.data);
}

const messagesOf = (http: Http, id: string): Promise<Pick<VoucherPanel, 'messages' | 'messagesError'>> =>
  http.list(VoucherMessageRecord, path('gift-vouchers', id, 'messages'), { limit: 100 }).then(
    (p) => ({ messages: p.data, messagesError: null }),
    (e: unknown) => {
      if (e instanceof ApiError && e.code === 'UNAUTHORIZED') throw e;
      return { messages: null, messagesError: `The e-mails could not be read: ${sentenceFor(e)}` };
    },
  );

/** The list of a page and a status (`?status=`, `?offset=`), or one voucher (`?voucher=<id>`) and its e-mails. */
export async function vouchersOf(http: Http, search: URLSearchParams): Promise<[ListPage<GiftVoucher> | null, VoucherPanel | null]> {
  const id = search.get('voucher');
  if (id) {
    const [voucher, mail] = await Promise.all([http.get(GiftVoucher, path('gift-vouchers', id)), messagesOf(http, id)]);
    return [null, { voucher, ...mail }];
  }
  const status = search.get('status') ?? '';
  const offset = Math.max(0, Math.floor(Number(search.get('offset')) || 0));
  const page = await http.list(GiftVoucher, '/v1/gift-vouchers', { limit: VOUCHER_PAGE, offset, status: STATUSES.includes(status) ? status : undefined });
  return [page, null];
}

/** `YYYY-MM-DDTHH:MM` as a wall clock in `zone` → the instant, as ISO 8601 (the zone's offset found by two guesses). */
export function instantIn(local: string, zone: string): string | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2}))?$/.exec(local);
  if (!m) return null;
  const wall = Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +(m[4] ?? 0), +(m[5] ?? 0));
  if (Number.isNaN(wall)) return null;
  let at = wall;
  for (let i = 0; i < 2; i++) at = wall - (Date.parse(`${localIn(new Date(at).toISOString(), zone)}:00Z`) - at);
  return new Date(at).toISOString();
}

/** An instant as `YYYY-MM-DDTHH:MM` on the wall clocks of `zone`, for a datetime-local field. */
export function localIn(instant: string, zone: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })
      .formatToParts(new Date(instant))
      .map((p) => [p.type, p.value]),
  );
  return `${parts['year']}-${parts['month']}-${parts['day']}T${parts['hour']}:${parts['minute']}`;
}

/** A promo code's discount in words: "15%" or "€5.00". */
export function discountText(p: Pick<PromoCode, 'discountType' | 'discountValue'>, currency: string): string {
  if (p.discountType === 'PERCENT') return `${p.discountValue}%`;
  return new Intl.NumberFormat('en-GB', { style: 'currency', currency }).format(p.discountValue / 100);
}

/** The promo code form as typed. */
export interface PromoDraft {
  code: string;
  discountType: DiscountType;
  /** "15" (percent) or "5.00" (an amount in major units). */
  discountValue: string;
  /** None chosen: every experience. */
  experienceIds: string[];
  /** datetime-local values in the organization's zone; '' for none. */
  validFrom: string;
  validUntil: string;
  maxUses: string;
  active: boolean;
}

/** The gift voucher form as typed. */
export interface VoucherDraft {
  amount: string;
  /** A local date in the organization's zone: the voucher works until that day ends; '' with noExpiry. */
  expiresOn: string;
  /** The date the form suggested: left as it was, the server's default (three years from now) applies. */
  suggested: string;
  noExpiry: boolean;
  recipientName: string;
  recipientEmail: string;
  message: string;
}

/** The day after a local date, `YYYY-MM-DD`. */
const dayAfter = (date: string): string => new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

export function promotionActions(s: SettingsModel) {
  const core = s.core;
  const { ctx, notice } = core;
  const { http } = ctx;
  const zone = () => core.org.peek()?.timezone ?? 'UTC';
  const quote = (code: string) => `“${code}”`;

  /** Says `fields` beside their fields and moves focus to the first; nothing is sent. */
  const refuse = (form: string, prefix: string, fields: Record<string, string>): false => {
    ctx.focus(prefix + Object.keys(fields)[0]);
    core.setForm(form, { ...idleForm, fields });
    return false;
  };

  /** A refusal about one field that names none (a taken code) said beside that field. */
  const beside = (e: unknown, byCode: Record<string, string>): unknown =>
    e instanceof ApiError && byCode[e.code] ? new ApiError(e.status, 'VALIDATION_ERROR', e.message, [{ path: byCode[e.code]!, message: e.message }]) : e;

  const reloadPromoCodes = async () => {
    const list = await promoCodesOf(http, ctx.router.location.peek().search);
    core.promoCodes.value = list;
  };

  return {
    /** Creates a promo code, or saves `editing`; true when it went through. */
    async savePromoCode(editing: PromoCode | null, d: PromoDraft): Promise<boolean> {
      const form = editing ? 'promo-edit' : 'promo';
      const prefix = `${form}-`;
      const fields: Record<string, string> = {};
      let value = NaN;
      if (d.discountType === 'PERCENT') {
        if (/^\d{1,3}$/.test(d.discountValue.trim())) value = Number(d.discountValue.trim());
        else fields['discountValue'] = 'Enter a whole percentage from 1 to 100, such as 15.';
      } else {
        const amount = amountOf(d.discountValue);
        if (amount) value = Math.round(Number(amount) * 100);
        else fields['discountValue'] = 'Enter an amount such as 5.00.';
      }
      const maxUses = d.maxUses.trim();
      if (maxUses && !/^\d{1,7}$/.test(maxUses)) fields['maxUses'] = 'Enter a whole number, or leave it empty for no limit.';
      const validFrom = d.validFrom ? instantIn(d.validFrom, zone()) : null;
      const validUntil = d.validUntil ? instantIn(d.validUntil, zone()) : null;
      if (d.validFrom && !validFrom) fields['validFrom'] = 'Enter a date and time.';
      if (d.validUntil && !validUntil) fields['validUntil'] = 'Enter a date and time.';
      if (Object.keys(fields).length) return refuse(form, prefix, fields);
      const body = {
        code: d.code.trim(),
        discountType: d.discountType,
        discountValue: value,
        experienceIds: d.experienceIds.length ? d.experienceIds : null,
        validFrom,
        validUntil,
        maxUses: maxUses ? Number(maxUses) : null,
        active: d.active,
      };
      const ok = await core.submit(
        form,
        async () => {
          const saved = await http.send(PromoCode, editing ? 'PATCH' : 'POST', editing ? path('promo-codes', editing.id) : '/v1/promo-codes', body).catch((e: unknown) => {
            throw beside(e, { CONFLICT: 'code' });
          });
          if (editing) core.promoCodes.value = (core.promoCodes.peek() ?? []).map((p) => (p.id === saved.id ? saved : p));
          else await reloadPromoCodes().catch((e: unknown) => void ctx.ended(e));
          notice.value = `The promo code ${quote(saved.code)} is ${editing ? 'saved' : 'made'}.`;
        },
        prefix,
      );
      return ok;
    },

    /** "Deactivate" (guests can no longer use it; bookings keep their discount) or activate again. */
    setPromoActive: (p: PromoCode, active: boolean): Promise<void> =>
      core.act(p.id, `${quote(p.code)} could not change`, async () => {
        const saved = await http.send(PromoCode, 'PATCH', path('promo-codes', p.id), { active });
        core.promoCodes.value = (core.promoCodes.peek() ?? []).map((x) => (x.id === saved.id ? saved : x));
        notice.value = `${quote(p.code)} is ${active ? 'active again' : 'deactivated'}.`;
      }),

    /**
     * "Delete", asked first: the code is gone for good (bookings keep their discount, and the code's
     * text may be used again). Deactivating keeps it in the list.
     */
    deletePromoCode: (p: PromoCode): void =>
      core.ask({
        title: `Delete the promo code ${quote(p.code)}?`,
        confirmLabel: 'Delete promo code',
        text: 'Guests can no longer use it. Bookings that took it keep their discount. To stop it for a while instead, deactivate it.',
        from: `delete-${p.id}`,
        run: async () => {
          await http.send(Deleted, 'DELETE', path('promo-codes', p.id));
          core.promoCodes.value = (core.promoCodes.peek() ?? []).filter((x) => x.id !== p.id);
          notice.value = `The promo code ${quote(p.code)} is deleted.`;
        },
      }),

    /** Creates a gift voucher; its code is then shown with a Copy button. */
    async createVoucher(d: VoucherDraft): Promise<boolean> {
      const fields: Record<string, string> = {};
      const amount = amountOf(d.amount);
      if (!amount || Number(amount) < 1) fields['amount'] = 'Enter an amount of at least 1.00, such as 50.00.';
      let expiresAt: string | null | undefined;
      if (d.noExpiry) expiresAt = null;
      else if (d.expiresOn && d.expiresOn !== d.suggested) {
        // "Expires on" a day: it still works that whole day, in the organization's zone.
        expiresAt = /^\d{4}-\d{2}-\d{2}$/.test(d.expiresOn) ? instantIn(dayAfter(d.expiresOn), zone()) : null;
        if (!expiresAt) fields['expiresAt'] = 'Enter a date, or tick “No expiry”.';
      }
      if (Object.keys(fields).length) return refuse('voucher', 'voucher-', fields);
      const body = {
        amount,
        ...(expiresAt !== undefined && { expiresAt }),
        ...(d.recipientName.trim() && { recipientName: d.recipientName.trim() }),
        ...(d.recipientEmail.trim() && { recipientEmail: d.recipientEmail.trim() }),
        ...(d.message.trim() && { message: d.message.trim() }),
      };
      let made: GiftVoucher | null = null;
      const ok = await core.submit(
        'voucher',
        async () => {
          made = await http.send(GiftVoucher, 'POST', '/v1/gift-vouchers', body);
          const [page] = await vouchersOf(http, ctx.router.location.peek().search).catch((e: unknown) => (ctx.ended(e), [core.vouchers.peek()] as const));
          core.vouchers.value = page;
        },
        'voucher-',
      );
      if (ok && made) {
        ctx.focus('made-title');
        core.made.value = made;
      }
      return ok;
    },

    /** "Disable" (its code stops working at once) or "Enable" back to usable. */
    setVoucherStatus: (v: GiftVoucher, status: Extract<GiftVoucherStatus, 'ACTIVE' | 'DISABLED'>): Promise<void> =>
      core.act(v.id, `${v.code} could not change`, async () => {
        const saved = await http.send(GiftVoucher, 'PATCH', path('gift-vouchers', v.id), { status });
        const page = core.vouchers.peek();
        if (page) core.vouchers.value = { ...page, data: page.data.map((x) => (x.id === saved.id ? saved : x)) };
        const panel = core.voucher.peek();
        if (panel?.voucher.id === saved.id) core.voucher.value = { ...panel, voucher: saved };
        if (core.made.peek()?.id === saved.id) core.made.value = saved;
        notice.value = `${v.code} is ${status === 'DISABLED' ? 'disabled' : 'enabled'}.`;
      }),

    /** A new copy of the voucher's e-mail, sent at once; the e-mails read again. */
    resend: (v: GiftVoucher, message: VoucherMessage): Promise<void> =>
      core.act(message.id, 'The e-mail could not be resent', async () => {
        const queued = await http.send(VoucherMessageRecord, 'POST', path('gift-vouchers', v.id, 'messages', message.id, 'resend'));
        const mail = await messagesOf(http, v.id);
        const panel = core.voucher.peek();
        if (panel?.voucher.id === v.id) core.voucher.value = { ...panel, ...mail };
        notice.value = `A new gift voucher e-mail to ${queued.to} is queued; it goes out in a moment.`;
      }),

    hideMade(): void {
      ctx.focus('section-heading');
      core.made.value = null;
    },
  };
}

export type PromotionActions = ReturnType<typeof promotionActions>;
