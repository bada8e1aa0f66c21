/**
 * The words of the code box (widget/codes/chunk.ts). English travels with the chunk, not in
 * widget.js's catalog; every other language has them as `codes` in its language file
 * (widget/i18n/pt.json…), which the widget has already fetched for a guest who reads it, so the
 * chunk carries one language only. `{0}` is a code, a voucher's mask or an amount.
 */
import type { Messages } from '../i18n/messages.js';

export interface CodeTexts {
  label: string;
  apply: string;
  /** A code's "Remove" button, `{0}` the code or the voucher's mask. */
  remove: string;
  /** The line of a promo code's discount, `{0}` the code. */
  discount: string;
  /** The line of a gift voucher's part, `{0}` its mask. */
  voucher: string;
  /** What is left to pay once the voucher has paid its part. */
  due: string;
  applied: string;
  removed: string;
  /** Who a refusal is about: a promo code (`P`), a gift voucher (`V`). */
  P: string;
  V: string;
  /**
   * Why a code was not taken: after its subject ("This code", "This gift voucher"), by
   * `details.reason` of PROMO_CODE_INVALID and VOUCHER_INVALID; alone: none typed, too many tries
   * (429), no answer.
   */
  refused: Record<string, string>;
}

export const en: CodeTexts = {
  label: 'Promo code or gift voucher',
  apply: 'Apply',
  remove: 'Remove {0}',
  discount: 'Discount ({0})',
  voucher: 'Gift voucher ({0})',
  due: 'Left to pay',
  applied: 'Code applied.',
  removed: 'Code removed.',
  P: 'This code',
  V: 'This gift voucher',
  refused: {
    NOT_FOUND: 'is not one we know.',
    INACTIVE: 'is not active.',
    NOT_YET_VALID: 'is not valid yet.',
    EXPIRED: 'has expired.',
    NOT_FOR_EXPERIENCE: 'is not valid for this experience.',
    USED_UP: 'has been used up.',
    USED: 'has been used up.',
    DISABLED: 'has been disabled.',
    CURRENCY: 'is in another currency.',
    EMPTY: 'Enter a code.',
    RATE_LIMITED: 'Too many tries. Please wait a few minutes.',
    NETWORK: 'The code could not be checked. Please try again.',
  },
};

export const codeTexts = (t: Messages): CodeTexts => t.codes ?? en;
