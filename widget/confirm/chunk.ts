/**
 * widget/confirmation.js: what the widget's confirmation shows of a confirmed booking beyond its
 * number and summary (guest information, "Add to calendar"). widget.js loads it as a classic
 * script only once a booking is confirmed (widget/chunks.ts), so that widget.js stays within its size
 * budget. It adds no global: it hands its one function to the <script> element that loaded it, and
 * renders with the `h` of that widget.js rather than a Preact of its own.
 */
import type { h as H } from 'preact';
import type { PublicBooking } from '../../shared/index.js';
import type { ChunkScript } from '../chunks.js';
import type { Widget } from '../components/widget.js';
import { bookingLines } from '../../shared/lines.js';
import { guestInfo } from './guest-info.js';
import { guestInfoTexts } from './texts.js';

/** The confirmation's part for a confirmed booking, with the guest information of its experience when the widget holds it. */
export function confirmation(
  h: typeof H,
  booking: Pick<PublicBooking, 'bookingNumber' | 'experience' | 'timeSlot' | 'currency'> & Partial<Pick<PublicBooking, 'extras'>>,
  w: Widget,
) {
  const exp = w.model.experience.value;
  const info = exp?.id === booking.experience.id ? exp : null;
  const meetingPoint = info?.meetingPoint ?? null;
  // The extras booked, a line each as the booking's own lines have them (shared/lines.ts).
  const extras = bookingLines({ tickets: [], participants: 0, unitPrice: 0, extras: booking.extras ?? [] }).lines.filter((l) => l.kind === 'EXTRA');
  const guest = guestInfo(h, {
    texts: guestInfoTexts(w.locale),
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
    extras.length > 0 &&
      h(
        'ul',
        { class: 'lines' },
        ...extras.map((l) => h('li', { key: l.ref }, h('span', null, `${l.quantity} × ${l.name}`), ' ', h('span', null, w.fmt.money(l.amount / 100, booking.currency)))),
      ),
    guest,
  ];
}

export type ConfirmationChunk = typeof confirmation;

const script = document.currentScript as ChunkScript<ConfirmationChunk> | null;
if (script) script.outing = confirmation;
