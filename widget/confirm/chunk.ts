/**
 * The confirmation's part in forms.js (widget/forms.ts): what the widget's confirmation shows of a
 * confirmed booking beyond its number and summary (guest information, "Add to calendar"), asked for
 * only once a booking is confirmed, so that widget.js stays within its size budget. It renders with
 * the `h` of widget.js rather than a Preact of its own.
 */
import type { h as H } from 'preact';
import type { PublicBooking, PublicBookingStatus } from '../../shared/index.js';
import type { Widget } from '../components/widget.js';
import { guestInfo } from './guest-info.js';
import { guestInfoTexts } from './texts.js';

/**
 * The confirmation's part for a confirmed booking: who it is for (unless it was asked for on the way
 * back from paying, an answer without personal data), its extras, discount, gift voucher and what is
 * left to pay, and the guest information of its experience when the widget holds it.
 */
export function confirmation(h: typeof H, booking: PublicBookingStatus & Partial<Pick<PublicBooking, 'guestName' | 'guestEmail'>>, w: Widget) {
  const exp = w.model.experience.value;
  const info = exp?.id === booking.experience.id ? exp : null;
  const meetingPoint = info?.meetingPoint ?? null;
  const texts = guestInfoTexts(w.t);
  const money = (amount: number) => w.fmt.money(amount, booking.currency);
  const { discount, voucher } = booking;
  // The booking's lines after its summary's total: each extra (quantity × price, as shared/lines.ts
  // makes them), the discount, the voucher's part; and what is left to pay once a voucher paid some.
  const { t } = w;
  const lines: [string, string][] = [
    ...(booking.extras ?? []).map((x): [string, string] => [`${x.quantity} × ${x.name}`, money((x.quantity * x.unitPrice) / 100)]),
    ...(discount ? [[t.discount.replace('{0}', discount.code), money(-discount.amount)] as [string, string]] : []),
    ...(voucher ? [[t.voucher.replace('{0}', voucher.code), money(-voucher.amount)] as [string, string]] : []),
  ];
  const guest = guestInfo(h, {
    texts,
    info: { meetingPoint, meetingPointUrl: info?.meetingPointUrl ?? null, guestInstructions: info?.guestInstructions ?? null },
    booking: {
      bookingNumber: booking.bookingNumber,
      experience: booking.experience.title,
      startTime: booking.timeSlot.startTime,
      endTime: booking.timeSlot.endTime,
      meetingPoint,
      notes: info?.guestInstructions ?? null,
    },
    heading: 'h3',
    uid: `${booking.bookingNumber}@${new URL(w.origin).host}`,
  });
  return [
    booking.guestName && h('p', null, texts.bookedFor.replace('{0}', booking.guestName).replace('{1}', booking.guestEmail!)),
    lines.length > 0 && w.lines(lines),
    voucher && w.total(t.due, money(+booking.amountDue)),
    guest,
  ];
}

export type ConfirmationChunk = typeof confirmation;
