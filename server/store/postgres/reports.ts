import type { Async } from '../index.js';
import type { PgDb } from './db.js';
import type { CreatedTotals, reportStore } from '../reports.js';

/**
 * The spans of `bounds` as a relation `r(lo, hi, i)`: span i is [bounds[i], bounds[i + 1]). Each
 * report reads every span in one statement (a round trip per span would cost a year's report 365
 * of them), each span still one range of its index through the lateral join.
 */
const SPANS = 'unnest($2::bigint[], $3::bigint[]) WITH ORDINALITY AS r(lo, hi, i)';

/** The lower and upper bounds of the spans, as the two arrays SPANS unnests. */
function spansOf(bounds: readonly number[]): [number[], number[]] {
  return [bounds.slice(0, -1), bounds.slice(1)];
}

export function reportStorePg(db: PgDb): Async<ReturnType<typeof reportStore>> {
  return {
    /**
     * Totals of the bookings created between consecutive bounds: entry i covers
     * [bounds[i], bounds[i + 1]). Bounds are instants in ascending order (local midnights).
     */
    async createdTotalsBetween(orgId: string, bounds: readonly number[]): Promise<CreatedTotals[]> {
      if (bounds.length < 2) return [];
      // Two subqueries, as SQLite's two statements: each stays within a covering index of
      // migrations 006 and 007 (bookings_org_created; bookings_org_created_tickets for the
      // ticketed bookings, whose unit_price is 0 in the first sum).
      return await db.all<CreatedTotals>(
        `SELECT plain.bookings, plain.participants, (plain.cents + ticketed.cents)::bigint AS "totalCents"
          FROM ${SPANS}
          CROSS JOIN LATERAL (SELECT count(*) AS bookings, coalesce(sum(participants), 0)::bigint AS participants,
              coalesce(sum(participants * unit_price), 0)::bigint AS cents
            FROM bookings WHERE org_id = $1 AND created_at >= r.lo AND created_at < r.hi AND status <> 'CANCELLED') plain
          CROSS JOIN LATERAL (SELECT coalesce(sum(total_cents), 0)::bigint AS cents
            FROM bookings WHERE org_id = $1 AND created_at >= r.lo AND created_at < r.hi AND status <> 'CANCELLED'
              AND total_cents IS NOT NULL) ticketed
          ORDER BY r.i`,
        [orgId, ...spansOf(bounds)],
      );
    },
    /** Bookings cancelled between consecutive bounds, as `createdTotalsBetween` spans them. */
    async cancellationsBetween(orgId: string, bounds: readonly number[]): Promise<number[]> {
      if (bounds.length < 2) return [];
      const rows = await db.all<{ n: number }>(
        `SELECT c.n FROM ${SPANS}
          CROSS JOIN LATERAL (SELECT count(*) AS n FROM bookings
            WHERE org_id = $1 AND cancelled_at >= r.lo AND cancelled_at < r.hi) c
          ORDER BY r.i`,
        [orgId, ...spansOf(bounds)],
      );
      return rows.map((r) => r.n);
    },
  };
}
