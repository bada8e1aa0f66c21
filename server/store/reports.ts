import type { Sql } from './sql.js';

/** What one day (or any span) holds of the bookings created in it and not cancelled. */
export interface CreatedTotals {
  bookings: number;
  participants: number;
  totalCents: number;
}

/** An experience's figures over one span: as CreatedTotals, with the cancellations made in the span. */
export interface ExperienceTotals extends CreatedTotals {
  experienceId: string;
  experienceName: string;
  cancellations: number;
}

/** The sums behind the daily report, one entry per span between consecutive bounds. */
export interface ReportStore {
  /**
   * Totals of the bookings created between consecutive bounds and not cancelled: entry i covers
   * [bounds[i], bounds[i + 1]). Bounds are instants in ascending order (local midnights); fewer
   * than two answer no entry. A ticketed booking counts its total, any other participants × unit price.
   */
  createdTotalsBetween(orgId: string, bounds: readonly number[]): Promise<CreatedTotals[]>;
  /** Bookings cancelled between consecutive bounds, as `createdTotalsBetween` spans them. */
  cancellationsBetween(orgId: string, bounds: readonly number[]): Promise<number[]>;
  /**
   * The figures of [from, to) per experience, counted as the daily report counts them: the bookings
   * created in it and not cancelled, their participants and totals, and the bookings cancelled in
   * it. One entry per experience with any of these, in experience id order.
   */
  totalsByExperience(orgId: string, from: number, to: number): Promise<ExperienceTotals[]>;
}

/**
 * The spans of `bounds` as the relation `spans(i, lo, hi)`: span i is [bounds[i], bounds[i + 1]).
 * Every span is read in one statement (a statement per span would cost a year's report on
 * PostgreSQL 365 round trips). Each sum is a subquery correlated to its span, so that each reads
 * one range of its index on both engines: joined instead, PostgreSQL without statistics (a young
 * database) reads the organization's whole history once and filters it by span.
 *
 * Both drivers keep each distinct statement text, so the list is padded with empty spans to a
 * power of two: a report of any length up to a year uses one of ten texts, not one per length.
 */
function spansOf(bounds: readonly number[]): { values: string; params: number[]; count: number } {
  const count = Math.max(bounds.length - 1, 0);
  let rows = 1;
  while (rows < count) rows *= 2;
  const last = bounds[bounds.length - 1] ?? 0;
  const params: number[] = [];
  for (let i = 0; i < rows; i++) params.push(bounds[i] ?? last, bounds[i + 1] ?? last);
  // CAST: PostgreSQL types a bare parameter in VALUES as text.
  const values = Array.from({ length: rows }, (_, i) => `(${i}, CAST(? AS BIGINT), CAST(? AS BIGINT))`).join(', ');
  return { values: `spans(i, lo, hi) AS (VALUES ${values})`, params, count };
}

/** The bookings of the organization created in the span and standing. */
const CREATED_IN_SPAN = "FROM bookings WHERE org_id = ? AND created_at >= spans.lo AND created_at < spans.hi AND status <> 'CANCELLED'";

export function reportStore(sql: Sql): ReportStore {
  return {
    async createdTotalsBetween(orgId, bounds) {
      const spans = spansOf(bounds);
      if (spans.count === 0) return [];
      // The first sum within a covering index of migration 006, bookings_org_created, for every
      // booking (a ticketed one has unit_price 0 there); the second over the bookings with a stored
      // total (bookings_org_created_tickets, migration 007: the ticketed ones, and those by
      // participants with extras), less what the first already counted of them (0 for a ticketed
      // one). sum() of integers is NUMERIC on PostgreSQL: cast back.
      const rows = await sql.all<CreatedTotals>(
        `WITH ${spans.values}
        SELECT (SELECT count(*) ${CREATED_IN_SPAN}) AS bookings,
          (SELECT CAST(coalesce(sum(participants), 0) AS BIGINT) ${CREATED_IN_SPAN}) AS participants,
          (SELECT CAST(coalesce(sum(participants * unit_price), 0) AS BIGINT) ${CREATED_IN_SPAN})
            + (SELECT CAST(coalesce(sum(total_cents - participants * unit_price), 0) AS BIGINT) ${CREATED_IN_SPAN} AND total_cents IS NOT NULL) AS "totalCents"
        FROM spans
        ORDER BY spans.i`,
        [...spans.params, orgId, orgId, orgId, orgId],
      );
      return rows.slice(0, spans.count);
    },
    async cancellationsBetween(orgId, bounds) {
      const spans = spansOf(bounds);
      if (spans.count === 0) return [];
      // bookings_org_cancelled (org_id, cancelled_at), a range per span.
      const rows = await sql.values<[number]>(
        `WITH ${spans.values}
        SELECT (SELECT count(*) FROM bookings WHERE org_id = ? AND cancelled_at >= spans.lo AND cancelled_at < spans.hi)
        FROM spans
        ORDER BY spans.i`,
        [...spans.params, orgId],
      );
      return rows.slice(0, spans.count).map(([n]) => n);
    },
    async totalsByExperience(orgId, from, to) {
      // Two ranges, each of its own index (bookings_org_created, bookings_org_cancelled), as the
      // daily report reads them, tagged and summed per experience. Only the bookings of the range
      // are read; each joins its experience by primary key for the name.
      return await sql.all<ExperienceTotals>(
        `SELECT x.experience_id AS "experienceId", e.name AS "experienceName",
          CAST(sum(x.made) AS BIGINT) AS bookings,
          CAST(sum(x.participants) AS BIGINT) AS participants,
          CAST(sum(x.cents) AS BIGINT) AS "totalCents",
          CAST(sum(x.cancelled) AS BIGINT) AS cancellations
        FROM (
          SELECT experience_id, 1 AS made, participants, coalesce(total_cents, participants * unit_price) AS cents, 0 AS cancelled
            FROM bookings WHERE org_id = ? AND created_at >= ? AND created_at < ? AND status <> 'CANCELLED'
          UNION ALL
          SELECT experience_id, 0, 0, 0, 1
            FROM bookings WHERE org_id = ? AND cancelled_at >= ? AND cancelled_at < ?
        ) x
        JOIN experiences e ON e.id = x.experience_id
        GROUP BY x.experience_id, e.name
        ORDER BY x.experience_id`,
        [orgId, from, to, orgId, from, to],
      );
    },
  };
}
