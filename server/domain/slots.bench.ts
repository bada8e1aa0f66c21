// Micro-benchmark of slot generation (not a test): npx tsx server/domain/slots.bench.ts
// The availability endpoint has a budget of ~10–20 µs for 31 days of slots when warm.
import { slotProblem, slotsBetween } from './slots.js';
import type { SlotRules } from './slots.js';
import { addDays, localTodayOf } from './time.js';

const rules = (zone: string): SlotRules => ({
  experienceId: 'exp_01HZY3bench',
  duration: 90,
  minNoticeMinutes: 120,
  maxAdvanceDays: 365,
  schedule: {
    timezone: zone,
    weekly: {
      mon: ['09:00', '13:00', '17:00'],
      tue: ['09:00', '13:00', '17:00'],
      wed: ['09:00', '13:00', '17:00'],
      thu: ['09:00', '13:00', '17:00'],
      fri: ['09:00', '13:00', '17:00'],
      sat: ['10:00', '14:00', '18:00'],
      sun: ['10:00', '14:00', '18:00'],
    },
    startDate: '2026-01-01',
    exceptions: [{ date: '2026-12-25', times: [] }],
  },
});

function microseconds(iterations: number, run: (i: number) => unknown): number {
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < iterations; i++) run(i);
  return Number(process.hrtime.bigint() - t0) / 1000 / iterations;
}

const now = Date.UTC(2026, 2, 1, 10, 0); // a range that crosses the March transitions
console.log(`node ${process.version}`);
for (const zone of ['Europe/Lisbon', 'America/New_York', 'Pacific/Chatham', 'Asia/Kolkata']) {
  const r = rules(zone);
  const from = localTodayOf(now, zone);
  const to = addDays(from, 30);
  const cold = microseconds(1, () => slotsBetween(r, zone, from, to, now));
  const count = slotsBetween(r, zone, from, to, now).length;
  microseconds(20_000, () => slotsBetween(r, zone, from, to, now)); // warm up the JIT
  const warm = microseconds(100_000, () => slotsBetween(r, zone, from, to, now));
  // A request stream: `now` moves on by a second per request.
  const moving = microseconds(100_000, (i) => slotsBetween(r, zone, from, to, now + i * 1000));
  const slots = slotsBetween(r, zone, from, to, now);
  const problem = microseconds(100_000, (i) => slotProblem(r, zone, slots[i % slots.length]!.start, now));
  console.log(
    `${zone.padEnd(17)} ${count} slots/31 days  cold ${cold.toFixed(0)} µs  ` +
      `warm ${warm.toFixed(2)} µs  moving now ${moving.toFixed(2)} µs  slotProblem ${problem.toFixed(2)} µs`,
  );
}
