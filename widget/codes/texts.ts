/**
 * The words of the code box (widget/codes/chunk.ts). English travels with the chunk, not in
 * widget.js's catalog; every other language has them as `codes` in its language file
 * (widget/i18n/pt.json…), which the widget has already fetched for a guest who reads it, so the
 * chunk carries one language only. `{0}` is a code, a voucher's mask or an amount.
 */
import type { Messages } from '../i18n/messages.js';
import type { CodeTexts } from './types.js';

export type { CodeTexts } from './types.js';

export const en: CodeTexts = {
  label: 'Promo code or gift voucher',
  apply: 'Apply',
  remove: 'Remove {0}',
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
