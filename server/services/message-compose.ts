// A queued guest message turned into the finished e-mail. Loaded on the first send (it brings the
// calendar library), so a server without mail to send never pays for it at start.
import type { BookingView } from '../store/bookings.js';
import type { MessageRow } from '../store/messages.js';
import type { Store } from '../store/index.js';
import { composeGuestMessage, type GuestMessage } from '../mail/compose.js';
import { zoneOf } from './availability.js';
import { issueManageToken } from './messages.js';
import { guestInfoOf } from './self-service.js';

export interface ComposeSettings {
  /** PUBLIC_URL: the manage link's origin, and its host names the Message-ID and calendar UID. */
  publicUrl: string;
}

/**
 * The finished e-mail of a queued message, composed from the booking as it stands now. A message
 * that offers the manage link carries a new token (older ones stay valid). Undefined when the
 * booking is gone.
 */
export async function composeQueuedMessage(store: Store, message: MessageRow, settings: ComposeSettings, now: number): Promise<GuestMessage | undefined> {
  const booking: BookingView | undefined = await store.bookings.getBooking(message.orgId, message.bookingId);
  const org = await store.organizations.getOrganization(message.orgId);
  const exp = booking && await store.experiences.getExperience(message.orgId, booking.experienceId);
  if (!booking || !org || !exp) return undefined;
  const manageUrl =
    message.kind === 'BOOKING_CANCELLED' ? undefined : `${settings.publicUrl}/manage#${await issueManageToken(store, booking.id, now)}`;
  const composed = composeGuestMessage({
    kind: message.kind,
    locale: booking.locale ?? 'en',
    booking,
    timeZone: zoneOf(exp, org.timezone),
    organization: { name: org.name, email: org.email, phone: org.phone },
    ...(manageUrl ? { manageUrl } : {}),
    messageId: message.id,
    host: new URL(settings.publicUrl).host,
    guestInfo: guestInfoOf(exp),
  });
  return { ...composed, to: message.to };
}
