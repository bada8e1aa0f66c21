import type { Sql } from './sql.js';

/**
 * What a reseller's booking keeps beside its Outing booking (migration 021): the reseller's uuid and
 * reference, the contact and unit items as last given, the digest of the reservation (a repeated
 * uuid is answered only for the same body), whether guest e-mails were asked for, and the instants
 * the booking object shows that the booking itself does not keep.
 */
export interface OctoBookingRow {
  bookingId: string;
  orgId: string;
  /** Lower case; unique in the organization. */
  uuid: string;
  /** The key that reserved it. */
  apiKeyId: string;
  resellerReference: string | null;
  /** JSON of the contact as last given (every field, null when not given). */
  contact: string;
  /** JSON array of the unit items (uuid, unit, reference, contact, price in cents). */
  unitItems: string;
  requestDigest: string;
  /** 1 once a confirmation or change asked for guest e-mails. */
  emailReceipt: number;
  confirmedAt: number | null;
  /** The end of a hold that lapsed (the booking is then cancelled as `expired`); null otherwise. */
  expiredAt: number | null;
}

/** What a list of a reseller's bookings may ask for; every given field must match. */
export interface OctoBookingFilter {
  resellerReference?: string;
  bookingNumber?: string;
  experienceId?: string;
  /** Slot start in [startFrom, startTo). */
  startFrom?: number;
  startTo?: number;
}

export interface OctoBookingStore {
  insertOctoBooking(row: OctoBookingRow): Promise<void>;
  /** What a booking may change: never its booking, organization, uuid, key or digest. */
  updateOctoBooking(row: OctoBookingRow): Promise<void>;
  getOctoBookingByUuid(orgId: string, uuid: string): Promise<OctoBookingRow | undefined>;
  getOctoBooking(bookingId: string): Promise<OctoBookingRow | undefined>;
  /**
   * Moves a booking to another experience at a new unit price (a reseller's change of product);
   * the booking's places move with its next change, saved in the same transaction.
   */
  moveBookingToExperience(bookingId: string, experienceId: string, unitPrice: number): Promise<void>;
  /** The organization's OCTO bookings matching `filter`, by slot start, then creation; at most `limit`. */
  listOctoBookings(orgId: string, filter: OctoBookingFilter, limit: number): Promise<OctoBookingRow[]>;
}

const COLUMNS = `o.booking_id AS "bookingId", o.org_id AS "orgId", o.uuid, o.api_key_id AS "apiKeyId",
  o.reseller_reference AS "resellerReference", o.contact, o.unit_items AS "unitItems", o.request_digest AS "requestDigest",
  o.email_receipt AS "emailReceipt", o.confirmed_at AS "confirmedAt", o.expired_at AS "expiredAt"`;

/** Numbers as numbers on both engines (PostgreSQL's BIGINT may come back as text). */
const rowOf = (r: OctoBookingRow): OctoBookingRow => ({
  ...r,
  emailReceipt: Number(r.emailReceipt),
  confirmedAt: r.confirmedAt === null ? null : Number(r.confirmedAt),
  expiredAt: r.expiredAt === null ? null : Number(r.expiredAt),
});

export function octoBookingStore(sql: Sql): OctoBookingStore {
  const one = async (where: string, params: unknown[]) => {
    const row = await sql.get<OctoBookingRow>(`SELECT ${COLUMNS} FROM octo_bookings o WHERE ${where}`, params);
    return row && rowOf(row);
  };
  return {
    async insertOctoBooking(r) {
      await sql.run(
        `INSERT INTO octo_bookings (booking_id, org_id, uuid, api_key_id, reseller_reference, contact, unit_items, request_digest,
          email_receipt, confirmed_at, expired_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [r.bookingId, r.orgId, r.uuid, r.apiKeyId, r.resellerReference, r.contact, r.unitItems, r.requestDigest, r.emailReceipt, r.confirmedAt, r.expiredAt],
      );
    },
    async updateOctoBooking(r) {
      await sql.run(
        `UPDATE octo_bookings SET reseller_reference = ?, contact = ?, unit_items = ?, email_receipt = ?, confirmed_at = ?, expired_at = ?
          WHERE booking_id = ?`,
        [r.resellerReference, r.contact, r.unitItems, r.emailReceipt, r.confirmedAt, r.expiredAt, r.bookingId],
      );
    },
    async moveBookingToExperience(bookingId, experienceId, unitPrice) {
      await sql.run('UPDATE bookings SET experience_id = ?, unit_price = ? WHERE id = ?', [experienceId, unitPrice, bookingId]);
    },
    getOctoBookingByUuid: (orgId, uuid) => one('o.org_id = ? AND o.uuid = ?', [orgId, uuid]),
    getOctoBooking: (bookingId) => one('o.booking_id = ?', [bookingId]),
    async listOctoBookings(orgId, f, limit) {
      const clauses = ['o.org_id = ?'];
      const params: unknown[] = [orgId];
      if (f.resellerReference !== undefined) (clauses.push('o.reseller_reference = ?'), params.push(f.resellerReference));
      if (f.bookingNumber !== undefined) (clauses.push('b.booking_number = ?'), params.push(f.bookingNumber));
      if (f.experienceId !== undefined) (clauses.push('b.experience_id = ?'), params.push(f.experienceId));
      if (f.startFrom !== undefined) (clauses.push('b.slot_start >= ?'), params.push(f.startFrom));
      if (f.startTo !== undefined) (clauses.push('b.slot_start < ?'), params.push(f.startTo));
      params.push(limit);
      const rows = await sql.all<OctoBookingRow>(
        `SELECT ${COLUMNS} FROM octo_bookings o JOIN bookings b ON b.id = o.booking_id
          WHERE ${clauses.join(' AND ')} ORDER BY b.slot_start, b.created_at, b.id LIMIT ?`,
        params,
      );
      return rows.map(rowOf);
    },
  };
}
