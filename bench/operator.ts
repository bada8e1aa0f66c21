// The operator's reads on seeded databases of 10k and 1M bookings, each figure beside a bare Hono
// "hello" measured in the same run (bench/ceiling.mjs), as bench/run.ts measures the rest:
//
//   - GET /v1/manifest (and manifest.csv) for a day holding 1,000 bookings;
//   - GET /v1/reports/daily over a year in which 100,000 bookings were made.
//
// Both questions are the same in every database: on top of bench/seed.ts's history, the same day
// of 1,000 bookings (100 days ahead, where the seed books nothing) and the same year of 100,000
// bookings (made before the seed's history begins) are added, so only the rest of the history
// differs, and the largest / smallest ratio shows whether it costs anything (target ≥ 0.80).
// Server CPU per request comes from /proc/<pid>/stat, as in bench/run.ts: on a busy machine its
// ratio is the figure to read, req/s follows the load. Figures, not a test.
//
//   npm run build:server && node --import tsx bench/operator.ts
//   node --import tsx bench/operator.ts --sizes 10000,1000000 --duration 10 --connections 10
//   node --import tsx bench/run.ts --only operator --sizes 10000,1000000   (its smallest and largest sizes)
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon, { type Options } from 'autocannon';
import { BENCH_ZONE, seed, type SeedResult } from './seed.js';
import { openDatabase } from '../server/store/sqlite/db.js';
import { createStore } from '../server/store/sqlite/store.js';
import { newBookingNumber, newId } from '../server/domain/ids.js';
import { addDays, localTodayOf, zonedTimeToInstant } from '../server/domain/time.js';
import type { BookingRow } from '../server/store/bookings.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const DAY_MS = 86_400_000;
const MANIFEST_BOOKINGS = 1_000;
const YEAR_BOOKINGS = 100_000;
const MANIFEST_DAY_AHEAD = 100; // the seed books up to 90 days ahead
const YEAR_ENDS_DAYS_AGO = 700; // the seed's history starts 670 days ago
const CUSTOMERS = 2_000;

export interface OperatorLoad {
  manifestDate: string;
  yearStart: string;
  yearEnd: string;
}

/**
 * Adds the day of 1,000 bookings and the year of 100,000 to a seeded database, through the store's
 * own inserts (counters and slot counts kept as the API keeps them). Every booking sits on a real
 * 10:00 or 15:00 slot of the seed's daily schedules; one in ten of the year's is cancelled an hour
 * after it was made, and half of the day's are paid.
 */
export async function addOperatorLoad(s: SeedResult, now: number): Promise<OperatorLoad> {
  const db = openDatabase(s.dbPath);
  db.pragma('synchronous = OFF');
  const store = createStore(db);
  const today = localTodayOf(now, BENCH_ZONE);
  const manifestDate = addDays(today, MANIFEST_DAY_AHEAD);
  const yearEnd = addDays(today, -YEAR_ENDS_DAYS_AGO);
  const yearStart = addDays(yearEnd, -364);
  const experiences = await Promise.all(s.experienceIds.map(async (id) => (await store.experiences.getExperience(s.orgId, id))!));

  const customers: { id: string; email: string; name: string }[] = [];
  await store.transaction(async () => {
    for (let c = 0; c < CUSTOMERS; c++) {
      const row = { id: newId('customer'), orgId: s.orgId, email: `operator${c}@bench.example`, name: `Operator Guest ${c}`, phone: null,
        firstBookingAt: null, lastBookingAt: null, erasedAt: null, createdAt: now, updatedAt: now };
      await store.customers.insertCustomer(row);
      customers.push(row);
    }
  });

  const bookingNumber = async (): Promise<string> => {
    for (;;) {
      const candidate = newBookingNumber();
      if (!await store.bookings.bookingNumberTaken(candidate)) return candidate;
    }
  };
  let n = 0;
  const places = new Map<string, { experienceId: string; start: number; booked: number }>();
  const book = async (e: number, start: number, createdAt: number, cancelled: boolean, participants: number): Promise<BookingRow> => {
    const exp = experiences[e % experiences.length]!;
    const guest = customers[n++ % customers.length]!;
    // Typed whole, so that a column the row gains breaks the type check rather than the run.
    const row: BookingRow = {
      id: newId('booking'), orgId: s.orgId, bookingNumber: await bookingNumber(), experienceId: exp.id, customerId: guest.id,
      slotStart: start, slotEnd: start + exp.duration * 60_000, status: cancelled ? 'CANCELLED' : 'CONFIRMED',
      guestName: guest.name, guestEmail: guest.email, guestPhone: n % 3 === 0 ? '+351 912 000 000' : null, participants,
      unitPrice: exp.price, currency: 'EUR', source: 'API', metadata: n % 5 === 0 ? '{"channel":"partner"}' : '{}',
      cancellationReason: cancelled ? 'Changed plans' : null, cancelledAt: cancelled ? createdAt + 3_600_000 : null,
      holdExpiresAt: null, checkoutSessionId: null, checkoutUrl: null, checkedInAt: null, sequence: cancelled ? 1 : 0,
      tickets: null, places: null, totalCents: null, locale: null, internalNote: null, answers: null, extras: null, promoCodeId: null, discountCode: null, discountType: null, discountValue: null, voucherId: null, voucherMask: null, voucherCents: null,
      createdAt, updatedAt: cancelled ? createdAt + 3_600_000 : createdAt,
    };
    await store.bookings.insertBooking(row);
    if (!cancelled) {
      const key = `${exp.id} ${start}`;
      const slot = places.get(key) ?? { experienceId: exp.id, start, booked: 0 };
      slot.booked += participants;
      places.set(key, slot);
    }
    return row;
  };

  await store.transaction(async () => {
    // The day: 25 bookings in each of the 40 slots (20 experiences × 10:00 and 15:00).
    const starts = ['10:00', '15:00'].map((t) => zonedTimeToInstant(manifestDate, t, BENCH_ZONE));
    for (let i = 0; i < MANIFEST_BOOKINGS; i++) {
      const row = await book(i, starts[Math.floor(i / experiences.length) % 2]!, now - (i % 90) * DAY_MS, false, 1 + (i % 3));
      if (i % 2 === 0) {
        await store.payments.insertPayment({ id: newId('payment'), orgId: s.orgId, bookingId: row.id, amount: row.unitPrice * row.participants,
          currency: 'EUR', status: 'SUCCEEDED', provider: 'manual', method: 'CASH', reference: null, failureReason: null, refundRequired: 0, createdAt: now });
      }
    }
  });
  // The year: made evenly through it, each for the 10:00 slot three days after it was made.
  const from = zonedTimeToInstant(yearStart, '00:00', BENCH_ZONE);
  const step = (365 * DAY_MS) / YEAR_BOOKINGS;
  for (let b0 = 0; b0 < YEAR_BOOKINGS; b0 += 50_000) {
    await store.transaction(async () => {
      for (let i = b0; i < Math.min(YEAR_BOOKINGS, b0 + 50_000); i++) {
        const createdAt = Math.floor(from + i * step);
        const slotDate = addDays(yearStart, Math.floor((createdAt - from) / DAY_MS) + 3);
        await book(i, zonedTimeToInstant(slotDate, '10:00', BENCH_ZONE), createdAt, i % 10 === 9, 1 + (i % 2));
      }
    });
  }
  await store.transaction(async () => {
    for (const slot of places.values()) await store.bookings.addBookedPlaces(slot.experienceId, slot.start, slot.booked);
  });
  await store.close();
  return { manifestDate, yearStart, yearEnd };
}

interface Figure {
  name: string;
  size: number;
  reqPerSec: number;
  cpuUsPerReq: number;
  p99: number;
  bytes: number;
  other: string;
}

function cpuSecondsOf(pid: number | undefined): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime + stime, in clock ticks of 1/100 s
  } catch {
    return Number.NaN;
  }
}

function start(command: string[], pattern: RegExp, env: Record<string, string> = {}): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, command, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  return new Promise((done, fail) => {
    const onData = (d: Buffer) => {
      output += d.toString();
      const m = pattern.exec(output);
      if (!m) return;
      child.stdout?.off('data', onData).resume();
      child.stderr?.off('data', onData).resume();
      done({ url: m[1]!, child });
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => fail(new Error(`${command.join(' ')} exited with ${code}:\n${output}`)));
  });
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((done) => {
    if (child.exitCode !== null || child.signalCode !== null) return done();
    child.once('exit', () => done());
    child.kill('SIGTERM');
  });
}

export interface OperatorBenchOptions {
  sizes: number[];
  duration: number;
  warmup: number;
  connections: number;
  dir: string;
}

async function measure(name: string, size: number, options: Options, pid: number | undefined, o: OperatorBenchOptions): Promise<Figure> {
  const probe = await fetch(`${options.url}`, { headers: options.headers });
  const bytes = (await probe.arrayBuffer()).byteLength;
  if (probe.status !== 200) throw new Error(`${name}: ${probe.status}`);
  if (o.warmup > 0) await autocannon({ connections: o.connections, ...options, duration: o.warmup });
  const before = cpuSecondsOf(pid);
  const r = await autocannon({ connections: o.connections, ...options, duration: o.duration });
  const cpu = cpuSecondsOf(pid) - before;
  const other = Object.entries(r.statusCodeStats ?? {}).filter(([code]) => !code.startsWith('2')).map(([code, s]) => `${code}×${s.count}`);
  if (r.errors) other.push(`errors×${r.errors}`);
  return { name, size, reqPerSec: r['2xx'] / r.duration, cpuUsPerReq: (cpu * 1e6) / Math.max(1, r.requests.total), p99: r.latency.p99, bytes, other: other.join(' ') || '-' };
}

const fmt = (n: number, digits = 0) => (Number.isFinite(n) ? n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits }) : '-');
const labelOf = (size: number) => (size >= 1_000_000 ? `${size / 1_000_000}M` : `${size / 1000}k`);

/** Seeds, measures and returns the report's lines (the server must be built: npm run build:server). */
export async function operatorBench(o: OperatorBenchOptions): Promise<string[]> {
  mkdirSync(o.dir, { recursive: true });
  const figures: Figure[] = [];
  const notes: string[] = [];
  const ceiling = await start(['bench/ceiling.mjs'], /listening on (\S+)/);
  const hello = await measure('hello: bare Hono JSON', 0, { url: ceiling.url }, ceiling.child.pid, o);
  await stop(ceiling.child);

  for (const size of o.sizes) {
    const label = labelOf(size);
    const now = Date.now();
    process.stderr.write(`Seeding ${label} bookings and the operator's day and year…\n`);
    const began = performance.now();
    const s = await seed(join(o.dir, `operator-${label}.db`), size, now);
    const load = await addOperatorLoad(s, now);
    notes.push(`${label}: ${fmt(size + MANIFEST_BOOKINGS + YEAR_BOOKINGS)} bookings seeded in ${((performance.now() - began) / 1000).toFixed(1)} s`);

    const env = { RATE_LIMIT_PER_MINUTE: '0', LOG_LEVEL: 'warn' };
    const server = await start(['bin/outing.js', 'serve', '--host', '127.0.0.1', '--port', '0', '--db', s.dbPath], /Outing is listening on (\S+)/, env);
    const headers = { authorization: `Bearer ${s.apiKey}` };
    const pid = server.child.pid;
    try {
      const manifest = (await (await fetch(`${server.url}/v1/manifest?date=${load.manifestDate}`, { headers })).json()) as {
        data: { slots: { bookings: unknown[] }[] };
      };
      const daily = (await (await fetch(`${server.url}/v1/reports/daily?startDate=${load.yearStart}&endDate=${load.yearEnd}`, { headers })).json()) as {
        data: { days: { bookings: number; cancellations: number }[] };
      };
      const onDay = manifest.data.slots.reduce((sum, slot) => sum + slot.bookings.length, 0);
      const inYear = daily.data.days.reduce((sum, d) => sum + d.bookings + d.cancellations, 0);
      notes.push(`${label}: the manifest day holds ${fmt(onDay)} bookings; the year ${fmt(inYear)} (made and not cancelled, plus cancelled)`);

      const manifestUrl = `${server.url}/v1/manifest?date=${load.manifestDate}`;
      figures.push(await measure('GET /v1/manifest, 1,000 bookings', size, { url: manifestUrl, headers }, pid, o));
      figures.push(await measure('GET /v1/manifest.csv, 1,000 bookings', size, { url: manifestUrl.replace('/manifest?', '/manifest.csv?'), headers }, pid, o));
      const dailyUrl = `${server.url}/v1/reports/daily?startDate=${load.yearStart}&endDate=${load.yearEnd}`;
      figures.push(await measure('GET /v1/reports/daily, a year of 100k', size, { url: dailyUrl, headers }, pid, o));
    } finally {
      await stop(server.child);
    }
  }

  const head = ['endpoint', 'history', 'req/s', '× hello', 'CPU µs/req', '× hello', 'p99 ms', 'KB'];
  const rows = [
    [hello.name, '-', fmt(hello.reqPerSec), '1.00×', fmt(hello.cpuUsPerReq), '1.00×', fmt(hello.p99, 1), fmt(hello.bytes / 1024, 1)],
    ...figures.map((f) => [
      f.name, labelOf(f.size), fmt(f.reqPerSec), `${fmt(f.reqPerSec / hello.reqPerSec, 3)}×`, fmt(f.cpuUsPerReq),
      `${fmt(f.cpuUsPerReq / hello.cpuUsPerReq, 1)}×`, fmt(f.p99, 1), fmt(f.bytes / 1024, 1) + (f.other === '-' ? '' : ` (${f.other})`),
    ]),
  ];
  const widths = head.map((_, i) => Math.max(...[head, ...rows].map((r) => r[i]!.length)));
  const line = (r: string[]) => r.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ');
  const lines = [line(head), ...rows.map(line), ''];
  const smallest = o.sizes[0]!;
  const largest = o.sizes[o.sizes.length - 1]!;
  for (const name of new Set(figures.map((f) => f.name))) {
    const a = figures.find((f) => f.name === name && f.size === smallest);
    const b = figures.find((f) => f.name === name && f.size === largest);
    if (a && b && a !== b) {
      lines.push(`${name}: ${labelOf(largest)} / ${labelOf(smallest)} req/s ${fmt(b.reqPerSec / a.reqPerSec, 2)} (target ≥ 0.80), CPU µs/req ${fmt(b.cpuUsPerReq / a.cpuUsPerReq, 2)}`);
    }
  }
  lines.push('', ...notes, `machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}, load average ${loadavg()[0]?.toFixed(2)} at end`);
  return lines;
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  const { values } = parseArgs({
    options: {
      sizes: { type: 'string', default: '10000,1000000' },
      duration: { type: 'string', default: '10' },
      warmup: { type: 'string', default: '3' },
      connections: { type: 'string', default: '10' },
      dir: { type: 'string', default: join(tmpdir(), 'outing-bench') },
    },
  });
  const lines = await operatorBench({
    sizes: values.sizes.split(',').map(Number),
    duration: Number(values.duration),
    warmup: Number(values.warmup),
    connections: Number(values.connections),
    dir: values.dir,
  });
  process.stdout.write(`\n${lines.join('\n')}\n`);
}
