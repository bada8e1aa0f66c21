import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migrate, openDatabase, type Db } from './sqlite/db.js';
import { type Store } from './index.js';
import { createStore } from './sqlite/store.js';

// The manifest and the reports read one range of an index in the order of their question, never
// the whole history: checked on the query plans themselves (EXPLAIN QUERY PLAN), which do not
// depend on the amount of data since Outing keeps no planner statistics (no ANALYZE).

function statementsOf(db: Db): string[] {
  const seen: string[] = [];
  const prepare = db.prepare.bind(db);
  (db as { prepare: Db['prepare'] }).prepare = ((sql: string) => {
    seen.push(sql);
    return prepare(sql);
  }) as Db['prepare'];
  return seen;
}

describe('manifest, report and reminder query plans', () => {
  let db: Db;
  let store: Store;
  let prepared: string[];
  beforeEach(() => {
    db = openDatabase(':memory:');
    migrate(db);
    prepared = statementsOf(db);
    store = createStore(db);
  });
  afterEach(async () => await store.close());

  function planOf(fragment: RegExp): string[] {
    const matching = prepared.filter((sql) => fragment.test(sql.replace(/\s+/g, ' ')));
    expect(matching, String(fragment)).toHaveLength(1);
    const sql = matching[0]!;
    const named = Object.fromEntries([...sql.matchAll(/@(\w+)/g)].map(([, name]) => [name!, 1]));
    const params = Object.keys(named).length > 0 ? [named] : Array<unknown>(sql.match(/\?/g)?.length ?? 0).fill(1);
    return (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[]).map((r) => r.detail);
  }

  it('reads one day of the manifest through the slot-start index, and each booking’s payments through their index', async () => {
    // Statements are prepared when first run.
    await store.manifest.listManifestBookings('org', 0, 1);
    await store.manifest.listManifestBookings('org', 0, 1, 'exp');
    const day = planOf(/FROM bookings b JOIN experiences e .* WHERE b\.org_id = \? AND b\.slot_start >= \?/);
    expect(day).toContainEqual(expect.stringMatching(/^SEARCH b USING INDEX bookings_org_slot \(org_id=\? AND slot_start>\? AND slot_start<\?\)$/));
    expect(day).toContainEqual(expect.stringMatching(/^SEARCH e USING INTEGER PRIMARY KEY|^SEARCH e USING INDEX sqlite_autoindex_experiences_1 \(id=\?\)$/));
    expect(day).toContainEqual(expect.stringMatching(/^SEARCH p USING INDEX payments_booking \(booking_id=\?\)$/));
    expect(day.some((d) => /^SCAN (b|p)\b/.test(d))).toBe(false);

    const one = planOf(/WHERE b\.org_id = \? AND b\.experience_id = \? AND b\.slot_start >= \?/);
    expect(one).toContainEqual(
      expect.stringMatching(/^SEARCH b USING INDEX (bookings_experience_slot \(experience_id=\? AND slot_start>\? AND slot_start<\?\)|bookings_org_slot \(org_id=\? AND slot_start>\? AND slot_start<\?\))$/),
    );
    expect(one.some((d) => /^SCAN (b|p)\b/.test(d))).toBe(false);
  });

  it('sums each day of the daily report from one range of an index per day, never the history', async () => {
    // Statements are prepared when first run.
    await store.reports.createdTotalsBetween('org', [0, 1, 2]);
    await store.reports.cancellationsBetween('org', [0, 1, 2]);
    const reads = (plan: string[]) => plan.filter((d) => /\bbookings\b/.test(d));
    // Count, participants and plain totals from a covering index; bookings with a stored total (tickets,
    // or extras) add it from their own partial index (migration 007), less their participants × unit
    // price (read from those rows alone: the ones without a stored total are never visited).
    expect(reads(planOf(/count\(\*\) FROM bookings WHERE org_id = \? AND created_at >= spans\.lo/))).toEqual([
      ...Array<string>(3).fill('SEARCH bookings USING COVERING INDEX bookings_org_created (org_id=? AND created_at>? AND created_at<?)'),
      'SEARCH bookings USING INDEX bookings_org_created_tickets (org_id=? AND created_at>? AND created_at<?)',
    ]);
    expect(reads(planOf(/FROM bookings WHERE org_id = \? AND cancelled_at >= spans\.lo/))).toEqual([
      'SEARCH bookings USING COVERING INDEX bookings_org_cancelled (org_id=? AND cancelled_at>? AND cancelled_at<?)',
    ]);
  });

  it('sums a span per experience from the ranges of the created and cancelled indexes, never a scan of the history', async () => {
    await store.reports.totalsByExperience('org', 0, 1); // prepared on first use
    const plan = planOf(/FROM bookings WHERE org_id = \? AND created_at >= \? AND created_at < \? AND status <> 'CANCELLED' UNION ALL/);
    expect(plan).toContainEqual(expect.stringMatching(/^SEARCH bookings USING INDEX bookings_org_created \(org_id=\? AND created_at>\? AND created_at<\?\)$/));
    expect(plan).toContainEqual(expect.stringMatching(/^SEARCH bookings USING INDEX bookings_org_cancelled \(org_id=\? AND cancelled_at>\? AND cancelled_at<\?\)$/));
    expect(plan).toContainEqual(expect.stringMatching(/^SEARCH e USING INDEX sqlite_autoindex_experiences_1 \(id=\?\)$/));
    expect(plan.some((d) => /^SCAN (bookings|e)\b/.test(d)), plan.join('\n')).toBe(false);
  });

  it('finds the reminders due in each experience’s range of slot starts, never by a scan of every booking', async () => {
    await store.messages.listRemindersDue(0, 1, 1); // prepared on first use
    const due = planOf(/FROM experiences e (CROSS )?JOIN bookings b .* b\.status = 'CONFIRMED'/);
    expect(due).toContainEqual('SEARCH b USING INDEX bookings_experience_slot (experience_id=? AND slot_start>? AND slot_start<?)');
    expect(due).toContainEqual('SEARCH m USING INDEX messages_booking (booking_id=?)');
    expect(due.some((d) => /^SCAN (b|m)\b/.test(d))).toBe(false);
  });
});
