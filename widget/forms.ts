/**
 * widget/forms.js: one chunk for the widget's less common paths, which widget.js loads as a classic
 * script (widget/chunks.ts) the first time one of them is to show: the booking form's step (an
 * experience that asks questions or sells extras, widget/form/chunk.ts), the "Have a code?" box once
 * pressed (widget/codes/chunk.ts), the gift-voucher mode (widget/gift/chunk.ts), a full time's
 * waitlist (widget/waitlist/chunk.ts) and the confirmation's part of a confirmed booking (guest
 * information, "Add to calendar": widget/confirm/chunk.ts). One file rather than five: each script
 * is a gzip stream of its own, and the five share words and code, so together they cost over a
 * kilobyte less. A guest who books an experience without questions or extras and enters no code
 * loads it only once the booking is confirmed. It adds no global: it hands its parts to the
 * <script> element that loaded it.
 */
import type { ChunkScript } from './chunks.js';
// In this order the parts compress best (the bundle follows the imports; measured over every order).
import { bookingForm } from './form/chunk.js';
import { giftVoucher } from './gift/chunk.js';
import { codes } from './codes/chunk.js';
import { waitlist } from './waitlist/chunk.js';
import { confirmation } from './confirm/chunk.js';

export const forms = { form: bookingForm, codes, gift: giftVoucher, waitlist, confirmation };
export type FormsChunk = typeof forms;

const script = document.currentScript as ChunkScript<FormsChunk> | null;
if (script) script.outing = forms;
