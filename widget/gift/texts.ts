/**
 * The words of the widget's gift-voucher mode (widget/gift/chunk.ts). English travels with the
 * chunk; other languages are the `giftVoucher` object of the widget's language files
 * (widget/i18n/pt.json), which widget.js fetches anyway for a guest who reads them.
 */
export interface GiftTexts {
  title: string;
  amount: string;
  buyerName: string;
  buyerEmail: string;
  recipientName: string;
  recipientEmail: string;
  message: string;
  buy: string;
  /** Beside the amounts when none (or another) is sent. */
  chooseAmount: string;
  /** Where vouchers cannot be bought online (no amounts, or 409 PAYMENTS_NOT_CONFIGURED). */
  notSold: string;
  /** Back from paying: what happens next. */
  sent: string;
}

export const en: GiftTexts = {
  title: 'Gift voucher',
  amount: 'Amount',
  buyerName: 'Your name',
  buyerEmail: 'Your e-mail',
  recipientName: 'Recipient’s name',
  recipientEmail: 'Recipient’s e-mail',
  message: 'Message',
  buy: 'Buy gift voucher',
  chooseAmount: 'Choose an amount.',
  notSold: 'Gift vouchers are not sold online here.',
  sent: 'Thank you! The gift voucher will arrive by e-mail.',
};
