import type { Db } from './db.js';

/** What one day (or any span) holds of the bookings created in it and not cancelled. */
export interface CreatedTotals {
  bookings: number;
  participants: number;
  totalCents: number;
}

export function reportStore(db: Db) {
  // Each reads one range of a covering index of migrations 006 and 007 (bookings_org_created,
  // bookings_org_cancelled): the cost follows the bookings of the range, never the history.
  const created = db
    .prepare(`SELECT count(*), coalesce(sum(participants), 0), coalesce(sum(participants * unit_price), 0)
      FROM bookings WHERE org_id = ? AND created_at >= ? AND created_at < ? AND status <> 'CANCELLED'`)
    .raw(true);
  // Ticketed bookings (unit_price 0 above) add their totals from bookings_org_created_tickets.
  const ticketed = db
    .prepare(`SELECT coalesce(sum(total_cents), 0) FROM bookings
      WHERE org_id = ? AND created_at >= ? AND created_at < ? AND status <> 'CANCELLED' AND total_cents IS NOT NULL`)
    .pluck();
  const cancelled = db
    .prepare('SELECT count(*) FROM bookings WHERE org_id = ? AND cancelled_at >= ? AND cancelled_at < ?')
    .pluck();

  return {
    /**
     * Totals of the bookings created between consecutive bounds: entry i covers
     * [bounds[i], bounds[i + 1]). Bounds are instants in ascending order (local midnights).
     */
    createdTotalsBetween(orgId: string, bounds: readonly number[]): CreatedTotals[] {
      const out: CreatedTotals[] = [];
      for (let i = 0; i + 1 < bounds.length; i++) {
        const [bookings, participants, plainCents] = created.get(orgId, bounds[i], bounds[i + 1]) as [number, number, number];
        const ticketCents = ticketed.get(orgId, bounds[i], bounds[i + 1]) as number;
        out.push({ bookings, participants, totalCents: plainCents + ticketCents });
      }
      return out;
    },
    /** Bookings cancelled between consecutive bounds, as `createdTotalsBetween` spans them. */
    cancellationsBetween(orgId: string, bounds: readonly number[]): number[] {
      const out: number[] = [];
      for (let i = 0; i + 1 < bounds.length; i++) out.push(cancelled.get(orgId, bounds[i], bounds[i + 1]) as number);
      return out;
    },
  };
}
