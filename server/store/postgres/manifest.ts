import type { Async } from '../index.js';
import type { PgDb } from './db.js';
import type { ManifestBookingRow, manifestStore } from '../manifest.js';

/** SQLite's manifest columns, named as ManifestBookingRow (SQLite maps its raw rows to the same names). */
const SELECT = `SELECT b.id, b.booking_number AS "bookingNumber", b.experience_id AS "experienceId", e.name AS "experienceName",
  b.slot_start AS "slotStart", b.slot_end AS "slotEnd", b.status, b.guest_name AS "guestName", b.guest_email AS "guestEmail",
  b.guest_phone AS "guestPhone", b.participants, b.unit_price AS "unitPrice", b.currency, b.metadata,
  b.checked_in_at AS "checkedInAt",
  (SELECT coalesce(sum(p.amount), 0)::bigint FROM payments p WHERE p.booking_id = b.id AND p.status = 'SUCCEEDED') AS "paidCents",
  b.tickets, b.total_cents AS "totalCents"
  FROM bookings b JOIN experiences e ON e.id = b.experience_id`;
/** Experience names compare byte by byte under the database's C collation, as in SQLite. */
const ORDER = 'ORDER BY b.slot_start, e.name, b.experience_id, b.created_at, b.id';

export function manifestStorePg(db: PgDb): Async<ReturnType<typeof manifestStore>> {
  return {
    /**
     * CONFIRMED and PENDING bookings whose slot starts in [from, to), by slot start, experience
     * name, then creation.
     */
    async listManifestBookings(orgId: string, from: number, to: number, experienceId?: string): Promise<ManifestBookingRow[]> {
      const day = `b.org_id = $1 AND b.slot_start >= $2 AND b.slot_start < $3 AND b.status <> 'CANCELLED'`;
      return experienceId === undefined
        ? await db.all<ManifestBookingRow>(`${SELECT} WHERE ${day} ${ORDER}`, [orgId, from, to])
        : await db.all<ManifestBookingRow>(`${SELECT} WHERE ${day} AND b.experience_id = $4 ${ORDER}`, [orgId, from, to, experienceId]);
    },
  };
}
