/**
 * What a guest's waitlist offer page shows, over the store's rows (given as type parameters, so
 * that the domain stays free of the store): the entry and its experience's name, what booking its
 * party costs, whom to ask, and once BOOKED the booking it became.
 */
export interface GuestOfferView<Entry, Booking, Org> {
  entry: Entry;
  experienceName: string;
  totalCents: number;
  currency: string;
  organization: Org;
  /** The booking the offer became, once BOOKED (and while it exists). */
  booking: Booking | undefined;
}
