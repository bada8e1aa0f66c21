// Seeds a benchmark database: one organization, 20 experiences on daily schedules, and N bookings with
// their customers and per-slot counts, consistent with what the API would have written (every booking
// sits on a real slot, no slot holds more than its capacity, slot_counts equals the live places,
// customers' first/last booking times match their bookings). Events are not seeded: they expire
// after EVENT_RETENTION_DAYS, so a long history holds none for its old bookings anyway.
//
// Speed: the store's prepared inserts inside transactions of 50,000 rows, with no journal and
// synchronous=OFF on this connection only (the server opens its own with synchronous=FULL), and the
// secondary indexes of bookings and customers rebuilt once at the end.
//
//   node --import tsx bench/seed.ts --bookings 1000000 --db /tmp/outing-bench/1m.db
import { existsSync, rmSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { openDatabase, migrate } from '../server/store/sqlite/db.js';
import { SYSTEM } from '../server/domain/actor.js';
import { createStore } from '../server/store/sqlite/store.js';
import { createOrganization } from '../server/services/organizations.js';
import { createExperience } from '../server/services/experiences.js';
import { slotsBetween, type Schedule, type SlotRules } from '../server/domain/slots.js';
import { addDays, localTodayOf } from '../server/domain/time.js';
import { randomBytes } from 'node:crypto';
import type { BookingRow } from '../server/store/bookings.js';
import type { CustomerRow } from '../server/store/customers.js';

export const BENCH_ZONE = 'Europe/Lisbon';
export const EXPERIENCES = 20;
export const CAPACITY = 200;
const TIMES = ['10:00', '15:00']; // two departures a day, like the demo's walks: 62 slots in a 31-day answer
const HISTORY_DAYS = 640; // past slots, so that history dominates
const FUTURE_DAYS = 90;
const BATCH = 50_000;
const DAY_MS = 86_400_000;

export interface SeedResult {
  dbPath: string;
  bookings: number;
  customers: number;
  slots: number;
  seconds: number;
  orgId: string;
  apiKey: string;
  experienceIds: string[];
  /** Bookable slot starts (ISO) per experience, from tomorrow on: targets for POST /v1/bookings. */
  futureSlots: Record<string, string[]>;
}

/**
 * The body of the benchmark's `i`-th booking. Spread over every experience and future slot, so that
 * capacity never runs out; e-mails from a pool, so that both new and returning customers are written.
 */
export function benchBooking(s: SeedResult, i: number) {
  const experienceId = s.experienceIds[i % s.experienceIds.length]!;
  const slots = s.futureSlots[experienceId]!;
  return {
    experienceId,
    startTime: slots[Math.floor(i / s.experienceIds.length) % slots.length]!,
    participants: 1,
    customerName: `Guest ${i % 50_000}`,
    customerEmail: `guest${i % 50_000}@bench.example`,
    metadata: { source: 'bench' },
  };
}

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
let pool = Buffer.alloc(0);
let poolAt = 0;

/** Ids of the product's shape (`bk_` + 20 random base62 characters), from a pool of random bytes:
 * one `randomBytes` call per id was a sixth of the seeding time. */
function seedId(prefix: 'bk' | 'cus'): string {
  let out = `${prefix}_`;
  while (out.length < prefix.length + 21) {
    if (poolAt >= pool.length) {
      pool = randomBytes(1 << 20);
      poolAt = 0;
    }
    const byte = pool[poolAt++]!;
    if (byte < 248) out += BASE62[byte % 62];
  }
  return out;
}

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const NUMBER_SPACE = 2 ** 40; // 8 Crockford characters

/** A distinct booking number for each i: an odd multiplier is a bijection modulo 2^40. */
function benchBookingNumber(i: number): string {
  let n = (i * 0x9e3779b1) % NUMBER_SPACE;
  let out = '';
  for (let k = 0; k < 8; k++) {
    out = CROCKFORD[n % 32] + out;
    n = Math.floor(n / 32);
  }
  return `BK-${out}`;
}

export async function seed(dbPath: string, bookings: number, now = Date.now()): Promise<SeedResult> {
  const started = performance.now();
  for (const suffix of ['', '-wal', '-shm', '.lock']) if (existsSync(dbPath + suffix)) rmSync(dbPath + suffix);
  const db = openDatabase(dbPath);
  migrate(db);
  // Bulk-load settings for this connection only: no journal, no fsync, a large page cache, and the
  // secondary indexes of the big tables built once at the end (a sort) instead of row by row.
  db.pragma('journal_mode = OFF');
  db.pragma('synchronous = OFF');
  db.pragma('cache_size = -262144'); // 256 MiB
  const indexes = db
    .prepare(`SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL AND tbl_name IN ('bookings', 'customers')`)
    .all() as { name: string; sql: string }[];
  for (const index of indexes) db.exec(`DROP INDEX ${index.name}`);
  const store = createStore(db);

  const created = await createOrganization(store, { name: 'Bench Tours', email: 'bench@example.com', timezone: BENCH_ZONE, currency: 'EUR' }, 'http://localhost', now);
  const orgId = created.organization.id;
  const weekly = Object.fromEntries(['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((d) => [d, TIMES]));
  const experiences = [];
  for (let e = 0; e < EXPERIENCES; e++) {
    experiences.push(
      await createExperience(
        store,
        orgId,
        { name: `Experience ${e + 1}`, description: 'Benchmark', duration: 90, price: 2500 + e * 100, maxParticipants: CAPACITY, maxPerBooking: 10, schedule: { weekly } },
        now,
        SYSTEM,
      ),
    );
  }

  // Every slot of every experience from HISTORY_DAYS ago to FUTURE_DAYS ahead, as the schedule gives them.
  const today = localTodayOf(now, BENCH_ZONE);
  const from = addDays(today, -HISTORY_DAYS);
  const to = addDays(today, FUTURE_DAYS);
  const since = Date.parse(`${from}T00:00:00Z`) - DAY_MS;
  const slots: { experience: (typeof experiences)[number]; start: number; end: number }[] = [];
  const futureSlots: Record<string, string[]> = {};
  for (const exp of experiences) {
    // The experience's slot rules, read from its row here rather than through a service, so that the
    // seed does not follow the services' layout.
    const rules: SlotRules = {
      experienceId: exp.id,
      duration: exp.duration,
      schedule: exp.schedule === null ? null : (JSON.parse(exp.schedule) as Schedule),
      minNoticeMinutes: exp.minNoticeMinutes,
      maxAdvanceDays: 730,
    };
    // Slots from more than a year back: generated in two spans, as the generator looks at most 730 days ahead.
    const mid = addDays(from, 365);
    const spans = [slotsBetween(rules, BENCH_ZONE, from, addDays(mid, -1), since), slotsBetween(rules, BENCH_ZONE, mid, to, since + 365 * DAY_MS)];
    for (const s of spans.flat()) slots.push({ experience: exp, start: s.start, end: s.end });
    futureSlots[exp.id] = spans
      .flat()
      .filter((s) => s.start > now + DAY_MS)
      .map((s) => new Date(s.start).toISOString());
  }

  // Bookable slots first: the round-robin below gives every future slot its bookings (and its
  // slot_counts row) before the past fills up, so that a small and a large history answer the same
  // availability question over equally booked slots, and only the history differs.
  slots.sort((a, b) => Number(b.start > now) - Number(a.start > now));

  const customerCount = Math.max(1, Math.floor(bookings / 5));
  const historyStart = now - (HISTORY_DAYS + 30) * DAY_MS;
  const step = Math.max(1, Math.floor(((HISTORY_DAYS + 30) * DAY_MS) / Math.max(1, bookings)));
  const createdAt = (i: number) => historyStart + i * step;
  const customerIds: string[] = new Array(customerCount);

  // Customers first (bookings reference them): first and latest bookings follow from i ≡ c (mod C).
  for (let c0 = 0; c0 < customerCount; c0 += BATCH) {
    await store.transaction(async () => {
      for (let c = c0; c < Math.min(customerCount, c0 + BATCH); c++) {
        const last = c + Math.floor((bookings - 1 - c) / customerCount) * customerCount;
        const row: CustomerRow = {
          id: seedId('cus'),
          orgId,
          email: `guest${c}@bench.example`,
          name: `Guest ${c}`,
          phone: c % 3 === 0 ? `+351 91${String(c).padStart(7, '0')}` : null,
          firstBookingAt: createdAt(c),
          lastBookingAt: createdAt(last),
          erasedAt: null,
          createdAt: createdAt(c),
          updatedAt: createdAt(last),
        };
        customerIds[c] = row.id;
        await store.customers.insertCustomer(row);
      }
    });
  }

  const places = new Map<number, number>(); // slot index → live places
  for (let b0 = 0; b0 < bookings; b0 += BATCH) {
    await store.transaction(async () => {
      for (let i = b0; i < Math.min(bookings, b0 + BATCH); i++) {
        const slotIndex = i % slots.length;
        const slot = slots[slotIndex]!;
        const c = i % customerCount;
        const participants = 1 + (i % 3);
        const cancelled = i % 10 === 9;
        const at = createdAt(i);
        const row: BookingRow = {
          id: seedId('bk'),
          orgId,
          bookingNumber: benchBookingNumber(i),
          experienceId: slot.experience.id,
          customerId: customerIds[c]!,
          slotStart: slot.start,
          slotEnd: slot.end,
          status: cancelled ? 'CANCELLED' : 'CONFIRMED',
          guestName: `Guest ${c}`,
          guestEmail: `guest${c}@bench.example`,
          guestPhone: null,
          participants,
          unitPrice: slot.experience.price,
          currency: 'EUR',
          source: i % 4 === 0 ? 'WIDGET' : 'API',
          metadata: i % 5 === 0 ? '{"channel":"partner"}' : '{}',
          cancellationReason: cancelled ? 'Changed plans' : null,
          cancelledAt: cancelled ? at + 3_600_000 : null,
          holdExpiresAt: null,
          checkoutSessionId: null,
          checkoutUrl: null,
          sequence: cancelled ? 1 : 0,
          checkedInAt: null,
          tickets: null,
          places: null,
          totalCents: null,
          locale: null,
          internalNote: null,
          answers: null,
          extras: null,
          promoCodeId: null,
          discountCode: null,
          discountType: null,
          discountValue: null,
          voucherId: null,
          voucherMask: null,
          voucherCents: null,
          createdAt: at,
          updatedAt: cancelled ? at + 3_600_000 : at,
        };
        await store.bookings.insertBooking(row);
        if (!cancelled) places.set(slotIndex, (places.get(slotIndex) ?? 0) + participants);
      }
    });
  }
  await store.transaction(async () => {
    for (const [slotIndex, booked] of places) {
      const slot = slots[slotIndex]!;
      if (booked > CAPACITY) throw new Error(`seed would overbook slot ${slotIndex}: ${booked}`);
      await store.bookings.addBookedPlaces(slot.experience.id, slot.start, booked);
    }
  });
  for (const index of indexes) db.exec(index.sql);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  await store.close();

  return {
    dbPath,
    bookings,
    customers: customerCount,
    slots: slots.length,
    seconds: (performance.now() - started) / 1000,
    orgId,
    apiKey: created.apiKey,
    experienceIds: experiences.map((e) => e.id),
    futureSlots,
  };
}

// As a command: seed one database and print what was made.
if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  const { values } = parseArgs({ options: { bookings: { type: 'string', default: '10000' }, db: { type: 'string' } } });
  if (!values.db) throw new Error('--db PATH is required');
  const result = await seed(values.db, Number(values.bookings));
  const { futureSlots: _slots, ...summary } = result;
  process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
}
