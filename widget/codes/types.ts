/**
 * The shapes of the code box (widget/codes/chunk.ts), apart from its code: the widget's state and
 * its catalogs name them without importing the chunk.
 */
import type { PublicExperience, Quote } from '../../shared/index.js';

/** What the box holds, in the model's form signal (widget/state/state.ts): changing it renders. */
export interface CodeState {
  /** What is typed. */
  text?: string;
  /** The codes taken, as the guest gave them (trimmed, upper-case). */
  promo?: string | undefined;
  voucher?: string | undefined;
  /** The last quote of the codes taken, what it priced (parts) and at which experience's prices. */
  quote?: Quote;
  key?: string;
  exp?: PublicExperience;
  /** What the box says: a refusal (`P.EXPIRED`: who, then why; or `EMPTY`…), or that a code was `applied` or `removed`. */
  error?: string | undefined;
  said?: string | undefined;
}

export interface CodeTexts {
  label: string;
  apply: string;
  /** A code's "Remove" button, `{0}` the code or the voucher's mask. */
  remove: string;
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
