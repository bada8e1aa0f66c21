import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migrate, openDatabase, type Db } from './sqlite/db.js';
import { type Store } from './index.js';
import { createStore } from './sqlite/store.js';
import type { BookingFilter, BookingOrder } from './bookings.js';

// The lists' queries read an index in the list's order and never the whole table, for the page and
// for the total. Not a timing: the query plans themselves (EXPLAIN QUERY PLAN), which do not depend
// on the amount of data since Outing keeps no planner statistics (no ANALYZE).

interface Captured {
  sql: string;
  /** The statement's plan, less its uncorrelated subqueries (the total a list's page carries). */
  plan: string[];
  /** The plan lines of those subqueries ("SCALAR SUBQUERY n" and what is under it). */
  subqueries: string[];
}

interface PlanRow {
  id: number;
  parent: number;
  detail: string;
}

function capture(db: Db): { take(): Captured[] } {
  const seen: string[] = [];
  const prepare = db.prepare.bind(db);
  (db as { prepare: Db['prepare'] }).prepare = ((sql: string) => {
    seen.push(sql);
    return prepare(sql);
  }) as Db['prepare'];
  return {
    take() {
      const out = seen.splice(0).map((sql) => {
        let explained: { plan: string[]; subqueries: string[] } | undefined;
        // explained when asked: the store also prepares statements with named parameters
        const explain = () => {
          if (explained) return explained;
          const params = sql.match(/\?/g)?.length ?? 0;
          const rows = prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...Array<unknown>(params).fill(1)) as PlanRow[];
          const inSubquery = new Set<number>();
          for (const r of rows) if (/^SCALAR SUBQUERY/.test(r.detail) || inSubquery.has(r.parent)) inSubquery.add(r.id);
          explained = {
            plan: rows.filter((r) => !inSubquery.has(r.id)).map((r) => r.detail),
            subqueries: rows.filter((r) => inSubquery.has(r.id)).map((r) => r.detail),
          };
          return explained;
        };
        return {
          sql: sql.replace(/\s+/g, ' '),
          get plan(): string[] {
            return explain().plan;
          },
          get subqueries(): string[] {
            return explain().subqueries;
          },
        };
      });
      return out;
    },
  };
}

const ORG = 'org_p';
const EXP = 'exp_p';
const CUS = 'cus_p';
const DAY = Date.UTC(2027, 2, 1);

describe('list query plans', () => {
  let db: Db;
  let store: Store;
  let spy: ReturnType<typeof capture>;
  /** The statements the store prepared when it was made. */
  let prepared: Captured[];
  beforeEach(async () => {
    db = openDatabase(':memory:');
    migrate(db);
    spy = capture(db);
    store = createStore(db);
    prepared = spy.take();
    await store.organizations.insertOrganization({ id: ORG, name: 'P', email: 'p@example.com', phone: null, timezone: 'UTC', currency: 'EUR', onlinePayments: 0, cancellationCutoffHours: 24, guestSelfService: 1, createdAt: 0, updatedAt: 0 });
  });
  afterEach(async () => await store.close());

  /** The statements a list call prepares (each distinct SQL text is prepared once per store). */
  async function plansOf(call: () => Promise<unknown>): Promise<Captured[]> {
    spy.take();
    await call();
    return spy.take();
  }
  const everyLine = (captured: Captured[]) => captured.flatMap((c) => [...c.plan, ...c.subqueries]);
  /** A full scan of a table reads as `SCAN b` / `SCAN c` (an index search reads `SEARCH … USING`). */
  const expectNoFullScan = (captured: Captured[]) => {
    for (const line of everyLine(captured)) expect(line, line).not.toMatch(/^SCAN (b|c|bookings|customers)\b(?! USING COVERING INDEX)/);
  };

  const page = { limit: 100, offset: 200 };
  const cases: { name: string; filter: BookingFilter; index: string; total: 'counter' | 'index'; sortsTies?: boolean }[] = [
    { name: 'unfiltered', filter: {}, index: 'bookings_org_slot', total: 'counter' },
    { name: 'status CONFIRMED', filter: { status: 'CONFIRMED' }, index: 'bookings_org_slot', total: 'counter' },
    { name: 'status CANCELLED', filter: { status: 'CANCELLED' }, index: 'bookings_org_status_order', total: 'counter' },
    { name: 'status PENDING', filter: { status: 'PENDING' }, index: 'bookings_org_status_order', total: 'counter' },
    // Ties of one slot start (at most the slot's capacity) are put in creation order by a small sort.
    { name: 'experience', filter: { experienceId: EXP }, index: 'bookings_experience_slot', total: 'counter', sortsTies: true },
    { name: 'experience + CONFIRMED', filter: { experienceId: EXP, status: 'CONFIRMED' }, index: 'bookings_experience_slot', total: 'counter', sortsTies: true },
    { name: 'experience + PENDING', filter: { experienceId: EXP, status: 'PENDING' }, index: 'bookings_org_status_order', total: 'counter' },
    { name: 'customer', filter: { customerId: CUS }, index: 'bookings_customer', total: 'index', sortsTies: true },
    { name: 'customer + status', filter: { customerId: CUS, status: 'CANCELLED' }, index: 'bookings_customer', total: 'index', sortsTies: true },
    { name: 'date range', filter: { startFrom: DAY, startTo: DAY + 86_400_000 }, index: 'bookings_org_slot', total: 'index' },
    { name: 'date range + CONFIRMED', filter: { startFrom: DAY, startTo: DAY + 86_400_000, status: 'CONFIRMED' }, index: 'bookings_org_slot', total: 'index' },
    { name: 'date range + CANCELLED', filter: { startFrom: DAY, status: 'CANCELLED' }, index: 'bookings_org_status_order', total: 'index' },
    { name: 'date range + experience', filter: { startTo: DAY, experienceId: EXP }, index: 'bookings_experience_slot', total: 'index', sortsTies: true },
  ];

  for (const c of cases) {
    it(`reads bookings by ${c.name} through ${c.index}, total from ${c.total === 'counter' ? 'the counters' : 'an index range'}`, async () => {
      const captured = await plansOf(async () => await store.bookings.listBookings(ORG, c.filter, page));
      expectNoFullScan(captured);
      // One statement: the page, with its total as a subquery computed once (one state of the table).
      // The page of an empty list is followed by its total alone.
      const pages = captured.filter((x) => /ORDER BY b\.slot_start, b\.created_at, b\.id LIMIT/.test(x.sql));
      expect(pages).toHaveLength(1);
      const plan = pages[0]!.plan;
      expect(plan.find((l) => /^SEARCH b USING/.test(l))).toMatch(new RegExp(`USING INDEX ${c.index} \\(`));
      // Never a sort of the whole result: at most a sort of ties on the index's last column.
      for (const line of plan) expect(line).not.toMatch(/^USE TEMP B-TREE FOR ORDER BY/);
      if (!c.sortsTies) expect(plan.some((l) => l.includes('TEMP B-TREE'))).toBe(false);

      const totals = [...pages[0]!.subqueries, ...captured.filter((x) => x !== pages[0]).flatMap((x) => x.plan)];
      expect(totals.length).toBeGreaterThan(0);
      if (c.total === 'counter') {
        // the counters only: no read of the bookings table for the total
        expect(totals.filter((l) => /^(SEARCH|SCAN) /.test(l)).every((l) => /^SEARCH booking_counts USING PRIMARY KEY/.test(l)), totals.join('\n')).toBe(true);
      } else {
        for (const t of totals.filter((l) => /^(SEARCH|SCAN) /.test(l) && l !== 'SCAN CONSTANT ROW')) expect(t).toMatch(/^SEARCH b USING (COVERING )?INDEX /);
      }
    });
  }

  // The other orders: the same indexes read backwards for `-startTime`; bookings_org_created in
  // creation order, ties of one instant sorted by id; a narrowing filter (a date range, a customer,
  // an experience) reads its own index range and sorts those rows, never the organization's list.
  const sorted: { order: BookingOrder; filter: BookingFilter; index: string; sort: 'none' | 'ties' | 'matches' }[] = [
    { order: '-startTime', filter: {}, index: 'bookings_org_slot', sort: 'none' },
    { order: '-startTime', filter: { status: 'CANCELLED' }, index: 'bookings_org_status_order', sort: 'none' },
    { order: '-startTime', filter: { startFrom: DAY, startTo: DAY + 86_400_000 }, index: 'bookings_org_slot', sort: 'none' },
    { order: 'createdAt', filter: {}, index: 'bookings_org_created', sort: 'ties' },
    { order: '-createdAt', filter: {}, index: 'bookings_org_created', sort: 'ties' },
    { order: '-createdAt', filter: { status: 'CONFIRMED' }, index: 'bookings_org_created', sort: 'ties' },
    { order: '-createdAt', filter: { q: 'ada' }, index: 'bookings_org_created', sort: 'ties' },
    { order: 'createdAt', filter: { startFrom: DAY, startTo: DAY + 86_400_000 }, index: 'bookings_org_slot', sort: 'matches' },
    { order: '-createdAt', filter: { customerId: CUS }, index: 'bookings_customer', sort: 'matches' },
    { order: '-createdAt', filter: { experienceId: EXP }, index: 'bookings_experience_slot', sort: 'matches' },
  ];
  for (const c of sorted) {
    for (const offset of [200, 2_000]) {
      it(`sorts ${c.order} by ${JSON.stringify(c.filter)} at offset ${offset} through ${c.index} (${c.sort === 'none' ? 'no sort' : `a sort of the ${c.sort}`})`, async () => {
        const captured = await plansOf(async () => await store.bookings.listBookings(ORG, c.filter, { limit: 100, offset }, c.order));
        expectNoFullScan(captured);
        const pages = captured.filter((x) => / LIMIT \? OFFSET \?/.test(x.sql));
        expect(pages).toHaveLength(1);
        const plan = pages[0]!.plan;
        const why = plan.join('\n');
        // The page's read of bookings is its first search of b (a deep slot-ordered page adds the join back by id).
        expect(plan.find((l) => /^SEARCH b USING/.test(l)), why).toMatch(new RegExp(`USING (COVERING )?INDEX ${c.index} \\(`));
        // Sorts inside the page's read (a deep slot-ordered page also re-sorts its own 100 rows after the join).
        const reads = offset >= 1_000 && c.order.endsWith('startTime') ? plan.slice(0, plan.indexOf('SCAN p')) : plan;
        const sorts = reads.filter((l) => l.includes('TEMP B-TREE'));
        if (c.sort === 'none') expect(sorts, why).toEqual([]);
        else if (c.sort === 'ties') expect(sorts, why).toEqual(['USE TEMP B-TREE FOR LAST TERM OF ORDER BY']);
        else expect(sorts, why).toEqual(['USE TEMP B-TREE FOR ORDER BY']);
      });
    }
  }

  it('counts a CONFIRMED date range from index ranges only (all, less PENDING and CANCELLED)', async () => {
    const captured = await plansOf(async () => await store.bookings.listBookings(ORG, { startFrom: DAY, startTo: DAY + 86_400_000, status: 'CONFIRMED' }, page));
    const counts = captured[0]!.subqueries.filter((l) => /^SEARCH /.test(l));
    expect(counts).toHaveLength(3);
    for (const c of counts) expect(c).toMatch(/^SEARCH b USING COVERING INDEX (bookings_org_slot|bookings_org_status_order) /);
  });

  it('skips a deep offset over the index alone (a deferred join), and gives the same page', async () => {
    await store.experiences.insertExperience({
      id: EXP, orgId: ORG, name: 'E', description: '', duration: 60, price: 100, maxParticipants: 10, maxPerBooking: null, schedule: null,
      minNoticeMinutes: 0, maxAdvanceDays: 365, active: 1, priceCategories: '[]', createdAt: 0, updatedAt: 0,
    });
    await store.customers.insertCustomer({ id: CUS, orgId: ORG, email: 'c@example.com', name: 'C', phone: null, firstBookingAt: 0, lastBookingAt: 0, erasedAt: null, createdAt: 0, updatedAt: 0 });
    await store.transaction(async () => {
      for (let n = 0; n < 1_300; n++) {
        await store.bookings.insertBooking({
          id: `bk_${String(n).padStart(5, '0')}`, orgId: ORG, bookingNumber: `BK-${n}`, experienceId: EXP, customerId: CUS,
          slotStart: DAY + (n % 37) * 3_600_000, slotEnd: DAY + (n % 37) * 3_600_000 + 1, status: n % 7 === 0 ? 'CANCELLED' : 'CONFIRMED',
          guestName: 'G', guestEmail: 'g@example.com', guestPhone: null, participants: 1, unitPrice: 100, currency: 'EUR', source: 'API',
          metadata: '{}', cancellationReason: null, cancelledAt: null, holdExpiresAt: null, checkoutSessionId: null, checkoutUrl: null,
          sequence: 0, checkedInAt: null, tickets: null, places: null, totalCents: null, locale: null, internalNote: null, answers: null, extras: null, promoCodeId: null, discountCode: null, discountType: null, discountValue: null, voucherId: null, voucherMask: null, voucherCents: null, createdAt: n % 5, updatedAt: 0,
        });
      }
    });
    spy.take();
    const deep = { limit: 100, offset: 1_150 };
    const rows = (await store.bookings.listBookings(ORG, {}, deep)).rows.map((r) => r.id);
    const [pageQuery] = spy.take();
    expect(pageQuery!.sql).toContain('SELECT b.id AS pid FROM bookings b');
    expect(pageQuery!.plan).toContain('SEARCH b USING COVERING INDEX bookings_org_slot (org_id=?)');
    expect(pageQuery!.plan.some((l) => /^SCAN (b|bookings)\b/.test(l))).toBe(false);
    const direct = db
      .prepare('SELECT id FROM bookings WHERE org_id = ? ORDER BY slot_start, created_at, id LIMIT ? OFFSET ?')
      .pluck()
      .all(ORG, deep.limit, deep.offset);
    expect(rows).toEqual(direct);
    expect(rows).toHaveLength(100);
    const cancelled = await store.bookings.listBookings(ORG, { status: 'CANCELLED' }, { limit: 20, offset: 1_000 });
    expect(cancelled.rows).toEqual([]);
    expect(cancelled.total).toBe(186);
  });

  it('reads the counters by their primary key', async () => {
    const filters: [BookingFilter, string][] = [
      [{}, '(org_id=?)'],
      [{ status: 'PENDING' }, '(org_id=?)'],
      [{ experienceId: EXP }, '(org_id=? AND experience_id=?)'],
      [{ experienceId: EXP, status: 'CANCELLED' }, '(org_id=? AND experience_id=? AND status=?)'],
    ];
    for (const [filter, key] of filters) {
      const [pageQuery] = await plansOf(async () => await store.bookings.listBookings(ORG, filter, { limit: 10, offset: 0 }));
      expect(pageQuery!.subqueries.filter((l) => /^SEARCH /.test(l))).toEqual([`SEARCH booking_counts USING PRIMARY KEY ${key}`]);
    }
    const customers = prepared.filter((x) => /^SELECT .* FROM customer_counts/.test(x.sql));
    for (const c of customers) expect(c.plan.join(' | ')).toMatch(/^SEARCH customer_counts USING PRIMARY KEY \(org_id=\?/);
  });

  it('reads customers in the list order through customers_recent, the total from the counter', async () => {
    const captured = await plansOf(async () => await store.customers.listCustomers(ORG, undefined, page));
    expectNoFullScan(captured);
    // One statement: the total and the page, from one snapshot.
    expect(captured).toHaveLength(1);
    const plan = captured[0]!.plan;
    const pageAt = plan.indexOf('MATERIALIZE p');
    const outerAt = plan.indexOf('SCAN t');
    expect([pageAt, outerAt].every((i) => i > 0), plan.join('\n')).toBe(true);
    // The total: the counter alone, by its primary key.
    expect(plan.slice(0, pageAt)).toEqual(['CO-ROUTINE t', 'SEARCH customer_counts USING PRIMARY KEY (org_id=?)']);
    // The page: customers_recent in the list's order; each customer's figures from its own
    // bookings, through bookings_customer; only customers with the same last booking instant
    // are sorted (by id).
    const inPage = plan.slice(pageAt + 1, outerAt);
    expect(inPage[0]).toBe('SEARCH c USING INDEX customers_recent (org_id=?)');
    const figures = inPage.filter((l) => /^SEARCH b USING/.test(l));
    expect(figures).toHaveLength(2);
    for (const l of figures) expect(l).toContain('bookings_customer (customer_id=?)');
    expect(inPage.filter((l) => l.includes('TEMP B-TREE'))).toEqual(['USE TEMP B-TREE FOR LAST TERM OF ORDER BY']);
    // Outside it, only the page's own rows are put back in order after the join.
    expect(plan.slice(outerAt)).toEqual(['SCAN t', 'SCAN p LEFT-JOIN', 'USE TEMP B-TREE FOR ORDER BY']);
  });
});
