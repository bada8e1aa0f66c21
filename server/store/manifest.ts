import type { Db } from './db.js';
import type { BookingRow } from './bookings.js';

/** A booking as the day's manifest shows it: the booking, its experience's name and what was paid. */
export interface ManifestBookingRow {
  id: string;
  bookingNumber: string;
  experienceId: string;
  experienceName: string;
  slotStart: number;
  slotEnd: number;
  status: BookingRow['status'];
  guestName: string;
  guestEmail: string;
  guestPhone: string | null;
  participants: number;
  unitPrice: number;
  currency: string;
  metadata: string; // JSON object
  checkedInAt: number | null;
  /** The booking's tickets (JSON) or null, and their total in cents or null (migration 007). */
  tickets: string | null;
  totalCents: number | null;
  /** Cents of its SUCCEEDED payments. */
  paidCents: number;
}

type RawManifestBooking = [
  string, string, string, string, number, number, BookingRow['status'], string, string, string | null, number, number,
  string, string, number | null, number, string | null, number | null,
];

export function manifestStore(db: Db) {
  const select = `SELECT b.id, b.booking_number, b.experience_id, e.name, b.slot_start, b.slot_end, b.status, b.guest_name,
    b.guest_email, b.guest_phone, b.participants, b.unit_price, b.currency, b.metadata, b.checked_in_at,
    (SELECT coalesce(sum(p.amount), 0) FROM payments p WHERE p.booking_id = b.id AND p.status = 'SUCCEEDED'),
    b.tickets, b.total_cents
    FROM bookings b JOIN experiences e ON e.id = b.experience_id`;
  const order = 'ORDER BY b.slot_start, e.name, b.experience_id, b.created_at, b.id';
  // bookings_org_slot (org, slot_start) reads only the day asked for, whatever the history; one
  // experience's day comes from bookings_experience_slot. Each row's payments are read through
  // payments_booking. Rows are read raw: a day of a thousand bookings is a thousand objects less.
  const inDay = db
    .prepare(`${select} WHERE b.org_id = ? AND b.slot_start >= ? AND b.slot_start < ? AND b.status <> 'CANCELLED' ${order}`)
    .raw(true);
  const inDayForExperience = db
    .prepare(`${select} WHERE b.org_id = ? AND b.experience_id = ? AND b.slot_start >= ? AND b.slot_start < ?
      AND b.status <> 'CANCELLED' ${order}`)
    .raw(true);

  return {
    /**
     * CONFIRMED and PENDING bookings whose slot starts in [from, to), by slot start, experience
     * name, then creation.
     */
    listManifestBookings(orgId: string, from: number, to: number, experienceId?: string): ManifestBookingRow[] {
      const raw = (experienceId === undefined
        ? inDay.all(orgId, from, to)
        : inDayForExperience.all(orgId, experienceId, from, to)) as RawManifestBooking[];
      return raw.map((r) => ({
        id: r[0], bookingNumber: r[1], experienceId: r[2], experienceName: r[3], slotStart: r[4], slotEnd: r[5], status: r[6],
        guestName: r[7], guestEmail: r[8], guestPhone: r[9], participants: r[10], unitPrice: r[11], currency: r[12],
        metadata: r[13], checkedInAt: r[14], paidCents: r[15], tickets: r[16], totalCents: r[17],
      }));
    },
  };
}
