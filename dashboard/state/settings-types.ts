/** The Settings sections, and the shapes that settings.ts and settings-actions.ts share (one file, so neither imports the other). */
import type { GiftVoucher, Message, PromoCode } from '../../shared/index.js';
import type { Http, ListPage } from '../api.js';

export const SECTIONS = [
  ['organization', 'Organization'],
  ['api-keys', 'API keys'],
  ['webhooks', 'Webhooks'],
  ['calendars', 'Calendars'],
  ['team', 'Team'],
  ['promo-codes', 'Promo codes'],
  ['gift-vouchers', 'Gift vouchers'],
  ['activity', 'Activity'],
] as const;
export type Section = (typeof SECTIONS)[number][0];

/** A value Outing shows once (a key, a signing secret, a feed's address, a setup link), until the person is done with it. */
export interface Revealed {
  section: Section;
  title: string;
  label: string;
  value: string;
  /** What it is for, and that it will not be shown again. */
  text: string;
  /** A second value that goes with it (a reseller key's endpoint), with what to do with both. */
  beside?: { label: string; value: string; hint: string };
}

/** The question of the confirmation dialog and what answering yes does. */
export interface Asking {
  title: string;
  confirmLabel: string;
  text: string;
  run: () => Promise<void>;
  /** Where keyboard focus returns when the dialog closes without doing anything. */
  from: string;
  busy: boolean;
  error: string | null;
}

/** A gift voucher's e-mail: about no booking. */
export type VoucherMessage = Omit<Message, 'bookingId'> & { bookingId?: string | null | undefined };

/** One voucher opened from the list: the record, and its e-mails (null with the reason when they could not be read). */
export interface VoucherPanel {
  voucher: GiftVoucher;
  messages: VoucherMessage[] | null;
  messagesError: string | null;
}

/** What Settings reads for its promo codes and gift vouchers (state/promotions.ts). */
export interface PromotionReads {
  promoCodesOf(http: Http, search: URLSearchParams): Promise<PromoCode[]>;
  vouchersOf(http: Http, search: URLSearchParams): Promise<[ListPage<GiftVoucher> | null, VoucherPanel | null]>;
}

let provide: (reads: PromotionReads) => void = () => {};
/**
 * Those reads, once the other screens' chunk has loaded (screens/lazy.ts hands them over): their
 * code never loads with Today, and the Settings screen cannot show before that chunk anyway.
 */
export const promotionReads = new Promise<PromotionReads>((resolve) => (provide = resolve));
export const providePromotionReads = (reads: PromotionReads): void => provide(reads);
