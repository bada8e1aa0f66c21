import type { GuestOfferView } from '../domain/waitlist-offer.js';
import type { BookingView } from '../store/bookings.js';
import type { OrganizationRow } from '../store/organizations.js';
import type { WaitlistRow } from '../store/waitlist.js';
import { formatMoney } from '../domain/money.js';
import { serializePublicBooking } from './booking.js';
import { serializeWaitlistEntry } from './waitlist.js';
import type { WaitlistAccepted, WaitlistOffer } from '../../shared/index.js';

type Offer = GuestOfferView<WaitlistRow, BookingView, Pick<OrganizationRow, 'name' | 'email' | 'phone'>>;

/** A guest's offer as `GET /public/v1/waitlist/offer` answers it; `booking` only once BOOKED. */
export function serializeWaitlistOffer(o: Offer): WaitlistOffer {
  return {
    // A guest's offer is never WAITING: no position to give.
    entry: serializeWaitlistEntry(o.entry, o.experienceName, null),
    total: formatMoney(o.totalCents),
    currency: o.currency,
    organization: { name: o.organization.name, email: o.organization.email, phone: o.organization.phone },
    ...(o.booking ? { booking: serializePublicBooking(o.booking) } : {}),
  };
}

/** An accepted offer: the offer, BOOKED, and its booking. */
export function serializeWaitlistAccepted(o: Offer & { booking: BookingView }): WaitlistAccepted {
  return { ...serializeWaitlistOffer(o), booking: serializePublicBooking(o.booking) };
}
