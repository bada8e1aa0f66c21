/**
 * widget/confirmation.js: what the widget's confirmation shows of a confirmed booking beyond its
 * number and summary (guest information, "Add to calendar"). widget.js loads it as a classic
 * script only once a booking is confirmed (load.ts), so that widget.js stays within its size
 * budget. It adds no global: it hands its one function to the <script> element that loaded it, and
 * renders with the `h` of that widget.js rather than a Preact of its own.
 */
import type { h as H } from 'preact';
import type { PublicBooking } from '../../shared/index.js';
import type { Widget } from '../components/widget.js';
import { guestInfo } from './guest-info.js';
import { guestInfoTexts } from './texts.js';

/** The confirmation's part for a confirmed booking, with the guest information of its experience when the widget holds it. */
export function confirmation(h: typeof H, booking: Pick<PublicBooking, 'bookingNumber' | 'experience' | 'timeSlot'>, w: Widget) {
  const exp = w.model.experience.value;
  const info = exp?.id === booking.experience.id ? exp : null;
  const meetingPoint = info?.meetingPoint ?? null;
  return guestInfo(h, {
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
}

export type ConfirmationChunk = typeof confirmation;

/** The <script> element that loads the chunk, which the chunk gives its function to. */
export type ChunkScript = HTMLScriptElement & { outing?: ConfirmationChunk };

const script = document.currentScript as ChunkScript | null;
if (script) script.outing = confirmation;
