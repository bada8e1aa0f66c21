// The booking use case without HTTP: what one thread can do when nothing but the database work of a
// booking runs on it. `createBooking` through the same group commit the server uses, on a seeded
// SQLite file with the server's settings (synchronous=FULL), by 50 callers that each book again as
// soon as their last booking is durable, as the benchmark's 50 connections do over HTTP.
//
// Run by bench/run.ts (phase `bookings`), beside POST /v1/bookings: the gap between the two rows is
// what HTTP, authentication, validation, the Idempotency-Key and the serializers add to a booking.
//
//   node --import tsx bench/booking-floor.ts --dir DIR --size 10000 --duration 10 --warmup 3
// prints one line of JSON: { bookings, seconds, cpuUs, systemUs }.
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { GroupCommit } from '../server/services/group-commit.js';
import { createBooking } from '../server/services/bookings.js';
import { openStore } from '../server/store/sqlite/store.js';
import { benchBooking, seed } from './seed.js';

const { values: args } = parseArgs({
  options: {
    dir: { type: 'string', default: '/tmp' },
    size: { type: 'string', default: '10000' },
    duration: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '3' },
    callers: { type: 'string', default: '50' },
  },
});

const seeded = await seed(join(args.dir, `floor-${args.size}.db`), Number(args.size));
const store = openStore(seeded.dbPath);
const commits = new GroupCommit(store);
const actor = { type: 'key', id: null, name: 'bench', ip: null } as const;

let n = 0;
function bookOne(): Promise<unknown> {
  const input = benchBooking(seeded, n++);
  return commits.run(() => createBooking(store, seeded.orgId, input, { source: 'API', actor }, Date.now()));
}

/** Books with every caller until `until` (a performance.now() instant); answers how many were booked. */
async function load(until: number): Promise<number> {
  let done = 0;
  const caller = async () => {
    while (performance.now() < until) {
      await bookOne();
      done++;
    }
  };
  await Promise.all(Array.from({ length: Number(args.callers) }, caller));
  return done;
}

await load(performance.now() + Number(args.warmup) * 1000);
const cpu = process.cpuUsage();
const began = performance.now();
const bookings = await load(began + Number(args.duration) * 1000);
const seconds = (performance.now() - began) / 1000;
const used = process.cpuUsage(cpu);
await store.close();
process.stdout.write(`${JSON.stringify({ bookings, seconds, cpuUs: used.user + used.system, systemUs: used.system })}\n`);
