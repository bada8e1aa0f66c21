// The day's manifest before it is formatted: its slots, their places and the bookings in each.

/** The experience of a manifest slot: a booking's may be inactive, or even gone from the schedule. */
export interface ManifestExperience {
  id: string;
  name: string;
  /** The zone its schedule is read in (its own, else the organization's). */
  zone: string;
}

/** One slot of the day; `Booking` is the store's row of a booking on a manifest. */
export interface ManifestSlot<Booking> {
  experience: ManifestExperience;
  start: number;
  end: number;
  /** The departure's capacity: its override, else the experience's. */
  capacity: number;
  booked: number;
  /** Closed by the operator: it keeps its bookings but takes no new places. */
  closed: boolean;
  /** The team's note on the departure. */
  note: string | null;
  /** Its live waitlist entries: WAITING ones and OFFERED ones (whose places count in `booked`). */
  waitlist: { waiting: number; offered: number };
  bookings: Booking[];
}

export interface Manifest<Booking> {
  date: string;
  /** The organization's zone, in which `date` is read. */
  timezone: string;
  slots: ManifestSlot<Booking>[];
}
