// The ceiling: the smallest Hono app on @hono/node-server answering JSON, in its own process like the
// real server. No Outing request can be faster than `/` on the same machine; `/slots` answers a
// fixed object of the size and shape of the benchmark's 30-day availability (62 slots, ~12 KB):
// the ceiling for a response that large. Plain JavaScript, so that its start (the "hello" of the
// cold-start figure) loads no compiler: `node bench/ceiling.mjs [port]`.
import { Hono } from 'hono';
import { serve } from '@hono/node-server';

const start = Date.UTC(2027, 2, 1, 9);
const slots = Array.from({ length: 62 }, (_, i) => {
  const t = start + Math.floor(i / 2) * 86_400_000 + (i % 2) * 18_000_000;
  return {
    id: `ts_0abcdefghij${28_000_000 + i * 150}`,
    startTime: new Date(t).toISOString(),
    endTime: new Date(t + 5_400_000).toISOString(),
    capacity: 200,
    booked: 34,
    remaining: 166,
    available: true,
    unavailableReason: null,
  };
});
const availability = { experienceId: 'exp_0123456789abcdefghij', timezone: 'Europe/Lisbon', startDate: '2027-03-01', endDate: '2027-03-31', slots };

const app = new Hono();
app.get('/', (c) => c.json({ ok: true }));
app.get('/slots', (c) => c.json({ success: true, data: availability }));
serve({ fetch: app.fetch, port: Number(process.argv[2] ?? 0), hostname: '127.0.0.1' }, (info) => {
  process.stdout.write(`listening on http://127.0.0.1:${info.port}\n`);
});
process.on('SIGTERM', () => process.exit(0));
