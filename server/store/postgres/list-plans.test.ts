import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BookingFilter, BookingOrder } from '../bookings.js';
import type { Store } from '../index.js';
import { createTestDatabase, testDatabaseUrl, type TestDatabase } from '../../test-helpers/postgres.js';
import { connectPostgres, type Params, type PgDb } from './db.js';
import { createPostgresStore } from './index.js';

// The PostgreSQL side of list-plans.test.ts: the booking and customer lists read an index in the
// list's order and never the whole table, for the page and for the total. SQLite keeps no planner
// statistics, so its plans are the same on an empty database; PostgreSQL's planner chooses by
// statistics, so this file fills a database with tens of thousands of bookings, lets VACUUM ANALYZE
// settle it as autovacuum would, and then explains the very statements the store sends (captured
// with their parameters) with EXPLAIN (FORMAT JSON). Plans, not timings.
//
// The fill stays under 30 000 bookings: ANALYZE then reads every row instead of a random sample,
// so the statistics, and the plans, are the same on every run.

interface Sent {
  sql: string;
  params: Params;
}

/** A PgDb that notes every statement it is given, with its parameters, before running it. */
function noting(db: PgDb, sent: Sent[]): PgDb {
  return {
    ...db,
    pool: db.pool,
    all: (sql, params = []) => (sent.push({ sql, params }), db.all(sql, params)),
    get: (sql, params = []) => (sent.push({ sql, params }), db.get(sql, params)),
    values: (sql, params = []) => (sent.push({ sql, params }), db.values(sql, params)),
    run: (sql, params = []) => (sent.push({ sql, params }), db.run(sql, params)),
  };
}

/** A node of EXPLAIN (FORMAT JSON), with the fields these tests read. */
interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Parent Relationship'?: string;
  'Presorted Key'?: string[];
  'Plan Rows': number;
  Plans?: PlanNode[];
}

/** Every node under `node` (itself included), each with the nodes above it. */
function walk(node: PlanNode, above: PlanNode[] = []): { node: PlanNode; above: PlanNode[] }[] {
  return [{ node, above }, ...(node.Plans ?? []).flatMap((child) => walk(child, [...above, node]))];
}

const isScanOf = (n: PlanNode, table: string) => n['Relation Name'] === table;
/** The indexes a node reads itself, or through the bitmap index scans under it. */
const indexesOf = (n: PlanNode): string[] => walk(n).flatMap(({ node }) => (node['Index Name'] ? [node['Index Name']] : []));
/** A one-line outline of a plan, for failure messages. */
const outline = (root: PlanNode) =>
  walk(root)
    .map(({ node, above }) => `${'  '.repeat(above.length)}${node['Node Type']} ${node['Relation Name'] ?? ''} ${node['Index Name'] ?? ''}`.trimEnd())
    .join('\n');

/** The subtrees of the statement's uncorrelated subqueries (InitPlans): the total, which the page carries. */
const initPlans = (root: PlanNode): PlanNode[] => walk(root).filter(({ node }) => node['Parent Relationship'] === 'InitPlan').map(({ node }) => node);

/**
 * A list statement's plan cut in two: `page`, the Limit that reads the page, and `total`, the
 * nodes outside it (the total's subquery, an InitPlan the page's rows carry: one statement, so one
 * snapshot).
 */
function split(root: PlanNode, table: 'bookings' | 'customers') {
  const inTotal = new Set(initPlans(root).flatMap((n) => walk(n).map((x) => x.node)));
  const all = walk(root);
  const limits = all.filter(({ node }) => node['Node Type'] === 'Limit' && !inTotal.has(node) && walk(node).some((x) => !inTotal.has(x.node) && isScanOf(x.node, table)));
  expect(limits, outline(root)).toHaveLength(1);
  const page = limits[0]!.node;
  const inPage = new Set(walk(page).map((x) => x.node).filter((n) => !inTotal.has(n)));
  return { page, total: all.filter(({ node }) => !inPage.has(node)).map((x) => x.node) };
}

/** The nodes from the page's Limit down to the first scan of `table` that it reads (depth first), both included. */
function pathToScan(page: PlanNode, table: string): PlanNode[] {
  const inTotal = new Set(initPlans(page).flatMap((n) => walk(n).map((x) => x.node)));
  const found = walk(page).find((x) => !inTotal.has(x.node) && isScanOf(x.node, table));
  expect(found, outline(page)).toBeDefined();
  return [...found!.above.slice(found!.above.indexOf(page)), found!.node];
}

const ORG = 'org_p';
const EXP = 'exp_p_0';
const CUS = 'cus_p_7';
const DAY = Date.UTC(2027, 2, 1);
const HOUR = 3_600_000;
/** org_p's bookings; org_q has a third as many. */
const BOOKINGS = 21_000;

describe.skipIf(!testDatabaseUrl())('PostgreSQL list query plans', () => {
  let database: TestDatabase;
  let db: PgDb;
  let store: Store;
  const sent: Sent[] = [];

  beforeAll(async () => {
    database = await createTestDatabase({ migrated: true });
    db = connectPostgres(database.url, { max: 2 });
    // Two organizations, four experiences each, 2 000 customers each (one in fifty without a
    // booking yet), and bookings spread over 2 000 hourly slots: 85 % CONFIRMED, 10 % CANCELLED,
    // 5 % PENDING, as in a real history where the rare statuses are rare, and each status spread
    // evenly over the experiences.
    await db.run(`INSERT INTO organizations (id, name, email, timezone, created_at, updated_at)
      VALUES ('org_p', 'P', 'p@example.com', 'UTC', 0, 0), ('org_q', 'Q', 'q@example.com', 'UTC', 0, 0)`);
    await db.run(`INSERT INTO experiences (id, org_id, name, description, duration, price, max_participants, created_at, updated_at)
      SELECT 'exp_' || substr(o, 5) || '_' || k, o, 'E', '', 60, 100, 50, k, k FROM unnest(ARRAY['org_p', 'org_q']) o, generate_series(0, 3) k`);
    await db.run(
      `INSERT INTO customers (id, org_id, email, name, last_booking_at, created_at, updated_at)
        SELECT 'cus_' || substr(o, 5) || '_' || k, o, 'c' || k || '@example.com', 'C', CASE WHEN k % 50 = 0 THEN NULL ELSE $1::bigint + k * 1000 END, 0, 0
        FROM unnest(ARRAY['org_p', 'org_q']) o, generate_series(0, 1999) k`,
      [DAY],
    );
    // The counting triggers are off for the bulk insert (a row trigger per booking would cost
    // seconds); the counters are then filled from the rows as migration 003 fills them.
    await db.run('ALTER TABLE bookings DISABLE TRIGGER USER');
    await db.run(
      `INSERT INTO bookings (id, org_id, booking_number, experience_id, customer_id, slot_start, slot_end, status, guest_name,
          guest_email, participants, unit_price, currency, source, created_at, updated_at)
        SELECT 'bk_' || o || '_' || lpad(n::text, 6, '0'), o, 'BK-' || o || n, 'exp_' || substr(o, 5) || '_' || (n / 3 % 4),
          'cus_' || substr(o, 5) || '_' || (n % 2000), $1::bigint + (n % 2000)::bigint * ${HOUR}, $1::bigint + (n % 2000)::bigint * ${HOUR} + ${HOUR},
          CASE WHEN n % 20 = 0 THEN 'PENDING' WHEN n % 10 = 5 THEN 'CANCELLED' ELSE 'CONFIRMED' END,
          'G', 'g@example.com', 1, 100, 'EUR', 'API', n % 7, n % 7
        FROM unnest(ARRAY['org_p', 'org_q']) o, generate_series(1, CASE WHEN o = 'org_p' THEN $2 ELSE $2 / 3 END) n`,
      [DAY, BOOKINGS],
    );
    await db.run('ALTER TABLE bookings ENABLE TRIGGER USER');
    await db.run(`INSERT INTO booking_counts (org_id, experience_id, status, n)
      SELECT org_id, experience_id, status, count(*) FROM bookings GROUP BY org_id, experience_id, status`);
    // What autovacuum does to a table after such a load: statistics, and the visibility map that
    // lets an index-only scan skip the table.
    await db.run('VACUUM ANALYZE organizations, experiences, customers, bookings, booking_counts, customer_counts');
    store = createPostgresStore(noting(db, sent));
  });
  afterAll(async () => {
    await store?.close();
    await database?.drop();
  });

  /** The plans of the statements a call sends, explained with their own parameters. */
  async function plansOf(call: () => Promise<unknown>): Promise<{ sql: string; plan: PlanNode }[]> {
    sent.splice(0);
    await call();
    const out: { sql: string; plan: PlanNode }[] = [];
    for (const s of sent.splice(0)) {
      const row = await db.get<{ 'QUERY PLAN': { Plan: PlanNode }[] }>(`EXPLAIN (FORMAT JSON) ${s.sql}`, s.params);
      out.push({ sql: s.sql, plan: row!['QUERY PLAN'][0]!.Plan });
    }
    return out;
  }

  /** The statement of a list call (total and page together), and its plan. */
  async function listPlan(call: () => Promise<unknown>): Promise<PlanNode> {
    const plans = await plansOf(call);
    // An empty page (a customer's few bookings, offset 200) is followed by its total alone.
    expect(plans.length).toBeGreaterThanOrEqual(1);
    expect(plans.length).toBeLessThanOrEqual(2);
    if (plans.length === 2) expect(walk(plans[1]!.plan).some(({ node }) => node['Node Type'] === 'Limit')).toBe(false);
    const plan = plans[0]!.plan;
    for (const { node } of walk(plan)) {
      expect(node['Node Type'] === 'Seq Scan' && ['bookings', 'customers'].includes(node['Relation Name'] ?? ''), outline(plan)).toBe(false);
    }
    return plan;
  }

  const page = { limit: 100, offset: 200 };
  /**
   * `order` says how the page comes out in the list's order (slot start, creation, id):
   * - `index`: read from the index in that order, the Limit stopping the scan, no sort at all;
   * - `ties`: read from bookings_experience_slot in slot order, only bookings of the same slot
   *   start put in order by an Incremental Sort (SQLite sorts them too: its "LAST TERM" sort);
   * - `matches`: the planner reads the few matching bookings (one customer's; one experience's
   *   rare status, found by both indexes) and sorts them: a sort of that handful, estimated from
   *   the statistics, never of the organization's list.
   * `total`: from the counters (no read of bookings outside the page), or counted over an index range.
   */
  const cases: { name: string; filter: BookingFilter; index: string[]; order: 'index' | 'ties' | 'matches'; total: 'counter' | 'index' }[] = [
    { name: 'unfiltered', filter: {}, index: ['bookings_org_slot'], order: 'index', total: 'counter' },
    { name: 'status CONFIRMED', filter: { status: 'CONFIRMED' }, index: ['bookings_org_slot'], order: 'index', total: 'counter' },
    { name: 'status CANCELLED', filter: { status: 'CANCELLED' }, index: ['bookings_org_status_order'], order: 'index', total: 'counter' },
    { name: 'status PENDING', filter: { status: 'PENDING' }, index: ['bookings_org_status_order'], order: 'index', total: 'counter' },
    { name: 'experience', filter: { experienceId: EXP }, index: ['bookings_experience_slot'], order: 'ties', total: 'counter' },
    { name: 'experience + CONFIRMED', filter: { experienceId: EXP, status: 'CONFIRMED' }, index: ['bookings_experience_slot'], order: 'ties', total: 'counter' },
    {
      name: 'experience + PENDING', filter: { experienceId: EXP, status: 'PENDING' },
      index: ['bookings_org_status_order', 'bookings_experience_slot'], order: 'matches', total: 'counter',
    },
    { name: 'customer', filter: { customerId: CUS }, index: ['bookings_customer'], order: 'matches', total: 'index' },
    { name: 'customer + status', filter: { customerId: CUS, status: 'CANCELLED' }, index: ['bookings_customer'], order: 'matches', total: 'index' },
    { name: 'date range', filter: { startFrom: DAY, startTo: DAY + 86_400_000 }, index: ['bookings_org_slot'], order: 'index', total: 'index' },
    {
      name: 'date range + CONFIRMED', filter: { startFrom: DAY, startTo: DAY + 86_400_000, status: 'CONFIRMED' },
      index: ['bookings_org_slot'], order: 'index', total: 'index',
    },
    { name: 'date range + CANCELLED', filter: { startFrom: DAY, status: 'CANCELLED' }, index: ['bookings_org_status_order'], order: 'index', total: 'index' },
    // A month of one experience: the org's index in list order, the experience as a filter.
    { name: 'date range + experience', filter: { startTo: DAY + 30 * 86_400_000, experienceId: EXP }, index: ['bookings_org_slot'], order: 'index', total: 'index' },
  ];

  for (const c of cases) {
    it(`reads bookings by ${c.name} through ${c.index.join(' and ')} (${c.order}), total from ${c.total === 'counter' ? 'the counters' : 'an index range'}`, async () => {
      const plan = await listPlan(() => store.bookings.listBookings(ORG, c.filter, page));
      const { page: limit, total } = split(plan, 'bookings');
      const path = pathToScan(limit, 'bookings');
      const scan = path.at(-1)!;
      const between = path.slice(1, -1).map((n) => n['Node Type']);
      const why = outline(plan);
      expect(indexesOf(scan).sort(), why).toEqual([...c.index].sort());
      if (c.order === 'index') {
        expect(scan['Node Type'], why).toMatch(/^Index (Only )?Scan$/);
        expect(between.filter((t) => t.endsWith('Sort')), why).toEqual([]);
      } else if (c.order === 'ties') {
        expect(scan['Node Type'], why).toMatch(/^Index (Only )?Scan$/);
        const sorts = path.filter((n) => n['Node Type'].endsWith('Sort'));
        expect(sorts.map((n) => [n['Node Type'], n['Presorted Key']]), why).toEqual([['Incremental Sort', ['b.slot_start']]]);
      } else {
        const sorts = path.filter((n) => n['Node Type'] === 'Sort');
        expect(sorts, why).toHaveLength(1);
        // The handful the sort is given (here ~200 rows estimated): under 2 % of the organization's bookings.
        expect(sorts[0]!['Plan Rows'], why).toBeLessThan(BOOKINGS / 50);
      }

      // Outside the page, a sort only ever puts the page's own rows back in order after the join.
      for (const n of total.filter((x) => x['Node Type'].endsWith('Sort'))) expect(n['Plan Rows'], why).toBeLessThanOrEqual(page.limit);
      // The total's reads of bookings: the scans themselves, since the nodes above the page (that
      // join, that sort) are outside it too and hold the page's scans beneath them.
      const totalReads = total.filter((n) => isScanOf(n, 'bookings') || n['Index Name']?.startsWith('bookings_'));
      if (c.total === 'counter') {
        expect(totalReads, why).toEqual([]);
        expect(total.some((n) => isScanOf(n, 'booking_counts')), why).toBe(true);
      } else {
        expect(totalReads.length, why).toBeGreaterThan(0);
        for (const n of totalReads.filter((x) => isScanOf(x, 'bookings'))) {
          expect(n['Node Type'], why).toMatch(/^(Index Scan|Index Only Scan|Bitmap Heap Scan)$/);
          expect(indexesOf(n).length, why).toBeGreaterThan(0);
        }
      }
    });
  }

  // The other orders (see the SQLite file): `-startTime` reads the same indexes backwards;
  // creation order reads bookings_org_created, its ties of one instant put in id order; a narrowing
  // filter reads its own index range and sorts those rows. Never a sequential scan (listPlan).
  const sorted: { order: BookingOrder; filter: BookingFilter; index: string[]; sort: 'none' | 'ties' | 'matches' }[] = [
    { order: '-startTime', filter: {}, index: ['bookings_org_slot'], sort: 'none' },
    { order: '-startTime', filter: { status: 'CANCELLED' }, index: ['bookings_org_status_order'], sort: 'none' },
    { order: '-startTime', filter: { startFrom: DAY, startTo: DAY + 86_400_000 }, index: ['bookings_org_slot'], sort: 'none' },
    { order: 'createdAt', filter: {}, index: ['bookings_org_created'], sort: 'ties' },
    { order: '-createdAt', filter: {}, index: ['bookings_org_created'], sort: 'ties' },
    { order: '-createdAt', filter: { status: 'CONFIRMED' }, index: ['bookings_org_created'], sort: 'ties' },
    { order: 'createdAt', filter: { startFrom: DAY, startTo: DAY + 86_400_000 }, index: ['bookings_org_slot'], sort: 'matches' },
    { order: '-createdAt', filter: { customerId: CUS }, index: ['bookings_customer'], sort: 'matches' },
  ];
  for (const c of sorted) {
    // Not deep into a rare status: at offset 2 000 of its 2 100 rows the planner rightly sorts them all.
    for (const offset of c.filter.status === 'CANCELLED' ? [200] : [200, 2_000]) {
      it(`sorts ${c.order} by ${JSON.stringify(c.filter)} at offset ${offset} through ${c.index.join(' and ')}`, async () => {
        const plan = await listPlan(() => store.bookings.listBookings(ORG, c.filter, { limit: 100, offset }, c.order));
        const { page: limit } = split(plan, 'bookings');
        const path = pathToScan(limit, 'bookings');
        const scan = path.at(-1)!;
        const why = outline(plan);
        expect(indexesOf(scan).sort(), why).toEqual([...c.index].sort());
        const sorts = path.filter((n) => n['Node Type'].endsWith('Sort'));
        if (c.sort === 'none') expect(sorts, why).toEqual([]);
        else if (c.sort === 'ties') expect(sorts.map((n) => n['Node Type']), why).toEqual(['Incremental Sort']);
        else for (const n of sorts) expect(n['Plan Rows'], why).toBeLessThan(BOOKINGS / 10);
      });
    }
  }

  it('counts a CONFIRMED date range from index-only ranges (all, less PENDING and CANCELLED)', async () => {
    const plan = await listPlan(() => store.bookings.listBookings(ORG, { startFrom: DAY, startTo: DAY + 86_400_000, status: 'CONFIRMED' }, page));
    const { total } = split(plan, 'bookings');
    const reads = total.filter((n) => isScanOf(n, 'bookings'));
    expect(reads.map((n) => [n['Node Type'], n['Index Name']]), outline(plan)).toEqual([
      ['Index Only Scan', 'bookings_org_slot'],
      ['Index Only Scan', 'bookings_org_status_order'],
      ['Index Only Scan', 'bookings_org_status_order'],
    ]);
  });

  it('skips a deep offset over the index alone (a deferred join on the primary key), and gives the same page', async () => {
    const deep = { limit: 100, offset: 15_000 };
    const plan = await listPlan(() => store.bookings.listBookings(ORG, {}, deep));
    const { page: limit } = split(plan, 'bookings');
    const path = pathToScan(limit, 'bookings');
    expect(path.map((n) => [n['Node Type'], n['Index Name']]), outline(plan)).toEqual([['Limit', undefined], ['Index Only Scan', 'bookings_org_slot']]);
    expect(walk(plan).some(({ node }) => node['Index Name'] === 'bookings_pkey'), outline(plan)).toBe(true);

    const rows = (await store.bookings.listBookings(ORG, {}, deep)).rows.map((r) => r.id);
    const direct = await db.all<{ id: string }>('SELECT id FROM bookings WHERE org_id = $1 ORDER BY slot_start, created_at, id LIMIT $2 OFFSET $3', [
      ORG, deep.limit, deep.offset,
    ]);
    expect(rows).toEqual(direct.map((r) => r.id));
    expect(rows).toHaveLength(100);
  });

  it('reads customers in the list order through customers_recent, the total from the counter', async () => {
    const plan = await listPlan(() => store.customers.listCustomers(ORG, undefined, page));
    const why = outline(plan);
    const { page: limit, total } = split(plan, 'customers');
    const path = pathToScan(limit, 'customers');
    expect(path.at(-1)!['Index Name'], why).toBe('customers_recent');
    // Only customers with the same last booking instant are put in id order (the index has id
    // ascending, the list descending), as in SQLite.
    const sorts = path.filter((n) => n['Node Type'].endsWith('Sort'));
    expect(sorts.map((n) => [n['Node Type'], n['Presorted Key']]), why).toEqual([['Incremental Sort', ['c.last_booking_at']]]);
    // Each customer's figures from its own bookings, through bookings_customer.
    const figures = walk(limit).filter(({ node }) => isScanOf(node, 'bookings')).map(({ node }) => node);
    expect(figures.length, why).toBeGreaterThan(0);
    for (const n of figures) expect(indexesOf(n), why).toEqual(['bookings_customer']);
    // The total from customer_counts, with no read of customers beside the page.
    expect(total.some((n) => isScanOf(n, 'customer_counts')), why).toBe(true);
    expect(total.filter((n) => isScanOf(n, 'customers')), why).toEqual([]);
  });

  it('sums a span per experience from the created and cancelled indexes, never a sequential scan of bookings', async () => {
    // A day of org_p's history: its bookings were made at instants 0–6 (a seventh each).
    const plans = await plansOf(() => store.reports.totalsByExperience(ORG, 3, 4));
    expect(plans).toHaveLength(1);
    const plan = plans[0]!.plan;
    const why = outline(plan);
    const reads = walk(plan).map(({ node }) => node).filter((n) => isScanOf(n, 'bookings'));
    expect(reads.length, why).toBe(2);
    for (const n of reads) expect(n['Node Type'], why).not.toBe('Seq Scan');
    expect(reads.flatMap(indexesOf).sort(), why).toEqual(['bookings_org_cancelled', 'bookings_org_created']);
    const rows = await store.reports.totalsByExperience(ORG, 3, 4);
    expect(rows.map((r) => r.experienceId)).toEqual(['exp_p_0', 'exp_p_1', 'exp_p_2', 'exp_p_3']);
    expect(rows.reduce((n, r) => n + r.bookings, 0)).toBe(
      (await db.get<{ n: number }>(`SELECT count(*) AS n FROM bookings WHERE org_id = $1 AND created_at = 3 AND status <> 'CANCELLED'`, [ORG]))!.n,
    );
  });

  it('gives the totals the rows have', async () => {
    const count = async (where: string) => (await db.get<{ n: number }>(`SELECT count(*) AS n FROM bookings WHERE org_id = $1 AND ${where}`, [ORG]))!.n;
    expect((await store.bookings.listBookings(ORG, {}, page)).total).toBe(BOOKINGS);
    expect((await store.bookings.listBookings(ORG, { status: 'PENDING' }, page)).total).toBe(await count(`status = 'PENDING'`));
    expect((await store.bookings.listBookings(ORG, { experienceId: EXP, status: 'CANCELLED' }, page)).total).toBe(
      await count(`experience_id = '${EXP}' AND status = 'CANCELLED'`),
    );
    expect((await store.customers.listCustomers(ORG, undefined, page)).total).toBe(2_000);
  });
});
