import type { Sql } from './sql.js';
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
  /** Null for a reseller's guest given without a name or an address (OCTO). */
  guestName: string | null;
  guestEmail: string | null;
  guestPhone: string | null;
  participants: number;
  unitPrice: number;
  currency: string;
  metadata: string; // JSON object
  checkedInAt: number | null;
  /** The booking's tickets (JSON) or null, and their total in cents or null (migration 007). */
  tickets: string | null;
  totalCents: number | null;
  /** The booking's answers and extras (JSON) or null (migration 017). */
  answers: string | null;
  extras: string | null;
  /** Cents of its SUCCEEDED payments. */
  paidCents: number;
  /** The operator's note (migration 012). */
  internalNote: string | null;
}

/** The bookings of a day as the manifest lists them. */
export interface ManifestStore {
  /**
   * CONFIRMED and PENDING bookings of the organization whose slot starts in [from, to) (of one
   * experience when given), by slot start, experience name (byte by byte), experience id, creation
   * and id.
   */
  listManifestBookings(orgId: string, from: number, to: number, experienceId?: string): Promise<ManifestBookingRow[]>;
}

type RawManifestBooking = [
  string, string, string, string, number, number, BookingRow['status'], string | null, string | null, string | null, number, number,
  string, string, number | null, number, string | null, number | null, string | null, string | null, string | null,
];

// sum() of a BIGINT column is NUMERIC on PostgreSQL: cast back to an integer.
const SELECT = `SELECT b.id, b.booking_number, b.experience_id, e.name, b.slot_start, b.slot_end, b.status, b.guest_name,
  b.guest_email, b.guest_phone, b.participants, b.unit_price, b.currency, b.metadata, b.checked_in_at,
  (SELECT CAST(coalesce(sum(p.amount), 0) AS BIGINT) FROM payments p WHERE p.booking_id = b.id AND p.status = 'SUCCEEDED'),
  b.tickets, b.total_cents, b.internal_note, b.answers, b.extras
  FROM bookings b JOIN experiences e ON e.id = b.experience_id`;
/** Names compare byte by byte: SQLite's BINARY collation, and the C collation Outing's PostgreSQL database is made with. */
const ORDER = 'ORDER BY b.slot_start, e.name, b.experience_id, b.created_at, b.id';

export function manifestStore(sql: Sql): ManifestStore {
  return {
    async listManifestBookings(orgId, from, to, experienceId) {
      // bookings_org_slot (org, slot_start) reads only the day asked for, whatever the history; one
      // experience's day comes from bookings_experience_slot. Each row's payments are read through
      // payments_booking. Rows are read as arrays: a day of a thousand bookings is a thousand objects less.
      const raw = experienceId === undefined
        ? await sql.values<RawManifestBooking>(
          `${SELECT} WHERE b.org_id = ? AND b.slot_start >= ? AND b.slot_start < ? AND b.status <> 'CANCELLED' ${ORDER}`,
          [orgId, from, to],
        )
        : await sql.values<RawManifestBooking>(
          `${SELECT} WHERE b.org_id = ? AND b.experience_id = ? AND b.slot_start >= ? AND b.slot_start < ?
            AND b.status <> 'CANCELLED' ${ORDER}`,
          [orgId, experienceId, from, to],
        );
      return raw.map((r) => ({
        id: r[0], bookingNumber: r[1], experienceId: r[2], experienceName: r[3], slotStart: r[4], slotEnd: r[5], status: r[6],
        guestName: r[7], guestEmail: r[8], guestPhone: r[9], participants: r[10], unitPrice: r[11], currency: r[12],
        metadata: r[13], checkedInAt: r[14], paidCents: r[15], tickets: r[16], totalCents: r[17],
        internalNote: r[18], answers: r[19], extras: r[20],
      }));
    },
  };
}
