import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { scheduleZone, slotId, slotProblem, slotsBetween } from './slots.js';
import type { Schedule, Slot, SlotRules } from './slots.js';
import { addDays, zonedTimeToInstant } from './time.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const at = (iso: string): number => Date.parse(iso);
const starts = (slots: Slot[]): string[] => slots.map((s) => new Date(s.start).toISOString());

// Early enough that nothing in the examples below is past, near enough that all of it is bookable.
const EARLY = at('2025-12-31T00:00:00Z');
const EVERY_DAY = (times: string[]): Schedule['weekly'] => ({
  mon: times, tue: times, wed: times, thu: times, fri: times, sat: times, sun: times,
});

function rulesWith(schedule: Schedule | null, overrides: Partial<SlotRules> = {}): SlotRules {
  return { experienceId: 'exp_test', duration: 60, schedule, minNoticeMinutes: 0, maxAdvanceDays: 730, ...overrides };
}

describe('slotsBetween: the schedule', () => {
  it('offers the weekly times on their weekdays', () => {
    // 2026-01-05 is a Monday; Lisbon keeps UTC in winter.
    const rules = rulesWith({ weekly: { mon: ['09:00', '14:00'], sat: ['10:00'] } });
    const slots = slotsBetween(rules, 'Europe/Lisbon', '2026-01-05', '2026-01-11', EARLY);
    expect(starts(slots)).toEqual(['2026-01-05T09:00:00.000Z', '2026-01-05T14:00:00.000Z', '2026-01-10T10:00:00.000Z']);
  });

  it('ends each slot one duration after its start', () => {
    const rules = rulesWith({ weekly: { mon: ['09:00'] } }, { duration: 90 });
    const [slot] = slotsBetween(rules, 'Europe/Lisbon', '2026-01-05', '2026-01-05', EARLY);
    expect(slot?.end).toBe(at('2026-01-05T10:30:00Z'));
  });

  it('offers nothing without a schedule, or with an empty weekly pattern', () => {
    expect(slotsBetween(rulesWith(null), 'Europe/Lisbon', '2026-01-01', '2026-03-01', EARLY)).toEqual([]);
    expect(slotsBetween(rulesWith({ weekly: {} }), 'Europe/Lisbon', '2026-01-01', '2026-03-01', EARLY)).toEqual([]);
  });

  it('keeps only local dates from startDate to endDate, both included', () => {
    const rules = rulesWith({ weekly: EVERY_DAY(['09:00']), startDate: '2026-01-07', endDate: '2026-01-09' });
    const slots = slotsBetween(rules, 'Europe/Lisbon', '2026-01-05', '2026-01-11', EARLY);
    expect(starts(slots)).toEqual(['2026-01-07T09:00:00.000Z', '2026-01-08T09:00:00.000Z', '2026-01-09T09:00:00.000Z']);
  });

  it('closes a date with an exception without times', () => {
    const rules = rulesWith({ weekly: EVERY_DAY(['09:00']), exceptions: [{ date: '2026-01-06', times: [] }] });
    const slots = slotsBetween(rules, 'Europe/Lisbon', '2026-01-05', '2026-01-07', EARLY);
    expect(starts(slots)).toEqual(['2026-01-05T09:00:00.000Z', '2026-01-07T09:00:00.000Z']);
  });

  it("replaces a date's weekly times with the exception's times", () => {
    const rules = rulesWith({ weekly: EVERY_DAY(['09:00']), exceptions: [{ date: '2026-01-06', times: ['18:00', '11:00'] }] });
    const slots = slotsBetween(rules, 'Europe/Lisbon', '2026-01-06', '2026-01-06', EARLY);
    expect(starts(slots)).toEqual(['2026-01-06T11:00:00.000Z', '2026-01-06T18:00:00.000Z']);
  });

  it('opens a date outside the weekly pattern through an exception', () => {
    const rules = rulesWith({ weekly: { mon: ['09:00'] }, exceptions: [{ date: '2026-01-07', times: ['22:00'] }] });
    const slots = slotsBetween(rules, 'Europe/Lisbon', '2026-01-05', '2026-01-11', EARLY);
    expect(starts(slots)).toEqual(['2026-01-05T09:00:00.000Z', '2026-01-07T22:00:00.000Z']);
  });

  it('opens dates before startDate and after endDate through exceptions', () => {
    const rules = rulesWith({
      weekly: EVERY_DAY(['09:00']),
      startDate: '2026-01-07',
      endDate: '2026-01-07',
      exceptions: [
        { date: '2026-01-05', times: ['10:00'] },
        { date: '2026-01-11', times: ['11:00'] },
      ],
    });
    const slots = slotsBetween(rules, 'Europe/Lisbon', '2026-01-01', '2026-01-31', EARLY);
    expect(starts(slots)).toEqual(['2026-01-05T10:00:00.000Z', '2026-01-07T09:00:00.000Z', '2026-01-11T11:00:00.000Z']);
  });

  it('returns nothing for a range that ends before it starts', () => {
    const rules = rulesWith({ weekly: EVERY_DAY(['09:00']) });
    expect(slotsBetween(rules, 'Europe/Lisbon', '2026-01-07', '2026-01-06', EARLY)).toEqual([]);
  });
});

describe('slotsBetween: order and identity', () => {
  it('sorts slots by start whatever the order of the times', () => {
    const rules = rulesWith({ weekly: EVERY_DAY(['17:00', '09:00', '13:00']) });
    const slots = slotsBetween(rules, 'Europe/Lisbon', '2026-01-05', '2026-01-06', EARLY);
    expect(starts(slots)).toEqual([
      '2026-01-05T09:00:00.000Z', '2026-01-05T13:00:00.000Z', '2026-01-05T17:00:00.000Z',
      '2026-01-06T09:00:00.000Z', '2026-01-06T13:00:00.000Z', '2026-01-06T17:00:00.000Z',
    ]);
  });

  it('sorts a gap time moved past a later time after it', () => {
    // New York 2026-03-08: 02:30 becomes 03:30 EDT, after 03:00 EDT.
    const rules = rulesWith({ weekly: { sun: ['02:30', '03:00'] } });
    const slots = slotsBetween(rules, 'America/New_York', '2026-03-08', '2026-03-08', EARLY);
    expect(starts(slots)).toEqual(['2026-03-08T07:00:00.000Z', '2026-03-08T07:30:00.000Z']);
  });

  it('merges duplicated times into one slot', () => {
    const rules = rulesWith({ weekly: { mon: ['09:00', '09:00', '14:00'] } });
    expect(slotsBetween(rules, 'Europe/Lisbon', '2026-01-05', '2026-01-05', EARLY)).toHaveLength(2);
  });

  it('merges times that land on the same instant around a gap into one slot', () => {
    // Lisbon 2026-03-29: 01:30 does not exist and becomes 02:30 WEST, which is also scheduled.
    const rules = rulesWith({ weekly: { sun: ['01:30', '02:30'] } });
    const slots = slotsBetween(rules, 'Europe/Lisbon', '2026-03-29', '2026-03-29', EARLY);
    expect(starts(slots)).toEqual(['2026-03-29T01:30:00.000Z']);
  });

  it('gives each slot the stable id of its experience and start', () => {
    const rules = rulesWith({ weekly: { mon: ['09:00', '14:00'] } });
    const first = slotsBetween(rules, 'Europe/Lisbon', '2026-01-05', '2026-01-05', EARLY);
    const again = slotsBetween(rules, 'Europe/Lisbon', '2026-01-05', '2026-01-05', EARLY - DAY);
    expect(again.map((s) => s.id)).toEqual(first.map((s) => s.id));
    for (const slot of first) expect(slot.id).toBe(slotId('exp_test', slot.start));
    expect(new Set(first.map((s) => s.id)).size).toBe(2);
  });

  it('keeps slot ids the same across releases', () => {
    // Ids reach bookings, webhooks and integrators' databases: changing the scheme breaks them.
    expect(slotId('exp_123', at('2026-06-01T09:00:00Z'))).toBe('ts_2077qwbl44d29671740');
  });

  it('writes ids as ts_ and letters and digits, distinct per experience and per start', () => {
    const start = at('2026-06-01T09:00:00Z');
    const ids = [
      slotId('exp_a', start), slotId('exp_b', start), slotId('exp_a', start + MINUTE),
      slotId('exp_a', start + 1), slotId('exp_a', -MINUTE), slotId('exp_a', 0), slotId('', start),
    ];
    for (const id of ids) expect(id).toMatch(/^ts_[A-Za-z0-9]+$/);
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe('the effective zone', () => {
  it("falls back to the org's zone when the schedule has none", () => {
    expect(scheduleZone(null, 'Asia/Kolkata')).toBe('Asia/Kolkata');
    expect(scheduleZone({ weekly: {} }, 'Asia/Kolkata')).toBe('Asia/Kolkata');
    expect(scheduleZone({ weekly: {}, timezone: null }, 'Asia/Kolkata')).toBe('Asia/Kolkata');
  });

  it("prefers the schedule's own zone", () => {
    expect(scheduleZone({ weekly: {}, timezone: 'Europe/Lisbon' }, 'Asia/Kolkata')).toBe('Europe/Lisbon');
  });

  it('reads the times in the zone it is given', () => {
    const schedule: Schedule = { weekly: { mon: ['09:00'] } };
    const zone = scheduleZone(schedule, 'Asia/Kolkata');
    expect(starts(slotsBetween(rulesWith(schedule), zone, '2026-01-05', '2026-01-05', EARLY))).toEqual(['2026-01-05T03:30:00.000Z']);
  });
});

describe('bookability', () => {
  const daily = rulesWith({ weekly: EVERY_DAY(['09:00']) });
  const nineOnFifth = at('2026-01-05T09:00:00Z');

  it('keeps a slot that starts exactly at the end of the notice period', () => {
    const rules = { ...daily, minNoticeMinutes: 120 };
    const now = nineOnFifth - 120 * MINUTE;
    expect(starts(slotsBetween(rules, 'Europe/Lisbon', '2026-01-05', '2026-01-05', now))).toEqual(['2026-01-05T09:00:00.000Z']);
    expect(slotProblem(rules, 'Europe/Lisbon', nineOnFifth, now)).toBeNull();
  });

  it('leaves out a slot inside the notice period as too soon', () => {
    const rules = { ...daily, minNoticeMinutes: 120 };
    const now = nineOnFifth - 119 * MINUTE;
    expect(slotsBetween(rules, 'Europe/Lisbon', '2026-01-05', '2026-01-05', now)).toEqual([]);
    expect(slotProblem(rules, 'Europe/Lisbon', nineOnFifth, now)).toBe('TOO_SOON');
  });

  it('keeps a slot starting right now and leaves it out once it has started', () => {
    expect(slotsBetween(daily, 'Europe/Lisbon', '2026-01-05', '2026-01-05', nineOnFifth)).toHaveLength(1);
    expect(slotsBetween(daily, 'Europe/Lisbon', '2026-01-05', '2026-01-05', nineOnFifth + 1)).toEqual([]);
    expect(slotProblem(daily, 'Europe/Lisbon', nineOnFifth, nineOnFifth + 1)).toBe('PAST');
  });

  it('keeps the last day of the booking window and leaves out the day after', () => {
    const rules = { ...daily, maxAdvanceDays: 3 };
    const now = at('2026-01-05T12:00:00Z');
    const slots = slotsBetween(rules, 'Europe/Lisbon', '2026-01-01', '2026-01-31', now);
    expect(starts(slots)).toEqual(['2026-01-06T09:00:00.000Z', '2026-01-07T09:00:00.000Z', '2026-01-08T09:00:00.000Z']);
    expect(slotProblem(rules, 'Europe/Lisbon', at('2026-01-08T09:00:00Z'), now)).toBeNull();
    expect(slotProblem(rules, 'Europe/Lisbon', at('2026-01-09T09:00:00Z'), now)).toBe('TOO_FAR');
  });

  it("counts the booking window from today's local date, not UTC's", () => {
    // 20:00Z on the 5th is already 01:30 on the 6th in Kolkata, so the window runs to the 7th.
    const rules = { ...daily, maxAdvanceDays: 1 };
    const now = at('2026-01-05T20:00:00Z');
    const slots = slotsBetween(rules, 'Asia/Kolkata', '2026-01-05', '2026-01-10', now);
    expect(starts(slots)).toEqual(['2026-01-06T03:30:00.000Z', '2026-01-07T03:30:00.000Z']);
  });

  it('names a start the schedule does not have as not a slot, before anything else', () => {
    const now = at('2026-01-01T00:00:00Z');
    expect(slotProblem(daily, 'Europe/Lisbon', nineOnFifth + MINUTE, now)).toBe('NOT_A_SLOT');
    expect(slotProblem(daily, 'Europe/Lisbon', nineOnFifth + MINUTE, nineOnFifth + DAY)).toBe('NOT_A_SLOT');
    expect(slotProblem(rulesWith(null), 'Europe/Lisbon', nineOnFifth, now)).toBe('NOT_A_SLOT');
    expect(slotProblem(daily, 'Europe/Lisbon', Number.NaN, now)).toBe('NOT_A_SLOT');
    expect(slotProblem(daily, 'Europe/Lisbon', 9e15, now)).toBe('NOT_A_SLOT');
  });

  it('names a start on a closed or out-of-range date as not a slot', () => {
    const now = at('2026-01-01T00:00:00Z');
    const closed = rulesWith({ weekly: EVERY_DAY(['09:00']), exceptions: [{ date: '2026-01-05', times: [] }] });
    expect(slotProblem(closed, 'Europe/Lisbon', nineOnFifth, now)).toBe('NOT_A_SLOT');
    const ended = rulesWith({ weekly: EVERY_DAY(['09:00']), endDate: '2026-01-04' });
    expect(slotProblem(ended, 'Europe/Lisbon', nineOnFifth, now)).toBe('NOT_A_SLOT');
  });
});

describe('daylight saving time', () => {
  // Every instant here was checked against Intl (ICU tz 2025c) before being written down.
  const on = (zone: string, date: string, times: string[]): string[] =>
    starts(slotsBetween(rulesWith({ weekly: EVERY_DAY(times) }), zone, date, date, EARLY));

  it('Europe/Lisbon: moves 01:30 to 02:30 WEST in spring and takes 01:30 WEST in autumn', () => {
    expect(on('Europe/Lisbon', '2026-03-29', ['00:30', '01:30', '09:00'])).toEqual([
      '2026-03-29T00:30:00.000Z', '2026-03-29T01:30:00.000Z', '2026-03-29T08:00:00.000Z',
    ]);
    expect(on('Europe/Lisbon', '2026-10-25', ['01:30', '09:00'])).toEqual(['2026-10-25T00:30:00.000Z', '2026-10-25T09:00:00.000Z']);
  });

  it('America/New_York: moves 02:30 to 03:30 EDT in spring and takes 01:30 EDT in autumn', () => {
    expect(on('America/New_York', '2026-03-08', ['02:30', '09:00'])).toEqual(['2026-03-08T07:30:00.000Z', '2026-03-08T13:00:00.000Z']);
    expect(on('America/New_York', '2026-11-01', ['01:30', '09:00'])).toEqual(['2026-11-01T05:30:00.000Z', '2026-11-01T14:00:00.000Z']);
  });

  it('America/New_York: keeps 09:00 local across the change', () => {
    const rules = rulesWith({ weekly: EVERY_DAY(['09:00']) });
    expect(starts(slotsBetween(rules, 'America/New_York', '2026-03-07', '2026-03-09', EARLY))).toEqual([
      '2026-03-07T14:00:00.000Z', '2026-03-08T13:00:00.000Z', '2026-03-09T13:00:00.000Z',
    ]);
  });

  it('Australia/Sydney: moves 02:30 to 03:30 AEDT in October and takes 02:30 AEDT in April', () => {
    // Both local dates fall on the previous UTC date: slots belong to their local date.
    expect(on('Australia/Sydney', '2026-10-04', ['02:30', '09:00'])).toEqual(['2026-10-03T16:30:00.000Z', '2026-10-03T22:00:00.000Z']);
    expect(on('Australia/Sydney', '2026-04-05', ['02:30', '09:00'])).toEqual(['2026-04-04T15:30:00.000Z', '2026-04-04T23:00:00.000Z']);
  });

  it('Pacific/Chatham: moves 03:00 to 04:00 +13:45 in September and takes 03:00 +13:45 in April', () => {
    expect(on('Pacific/Chatham', '2026-09-27', ['03:00', '12:00'])).toEqual(['2026-09-26T14:15:00.000Z', '2026-09-26T22:15:00.000Z']);
    expect(on('Pacific/Chatham', '2026-04-05', ['03:00', '12:00'])).toEqual(['2026-04-04T13:15:00.000Z', '2026-04-04T23:15:00.000Z']);
  });

  it('Asia/Kolkata: keeps +05:30 all year', () => {
    const rules = rulesWith({ weekly: { sun: ['09:00'] } });
    const slots = slotsBetween(rules, 'Asia/Kolkata', '2026-03-01', '2026-11-30', EARLY);
    expect(slots.length).toBe(40); // every Sunday from 1 March to 29 November
    for (const slot of slots) expect(new Date(slot.start).toISOString().slice(11)).toBe('03:30:00.000Z');
  });

  it('dates a slot moved past midnight by its scheduled day (Samoa skipped 2011-12-30)', () => {
    const now = at('2011-12-01T00:00:00Z');
    const daily = rulesWith({ weekly: EVERY_DAY(['10:00']) });
    // 10:00 on the skipped day becomes 10:00 on the 31st: the same instant, so one slot.
    expect(starts(slotsBetween(daily, 'Pacific/Apia', '2011-12-29', '2011-12-31', now))).toEqual([
      '2011-12-29T20:00:00.000Z', '2011-12-30T20:00:00.000Z',
    ]);
    const onlyTheSkippedDay = rulesWith({ weekly: {}, exceptions: [{ date: '2011-12-30', times: ['10:00'] }] });
    expect(slotsBetween(onlyTheSkippedDay, 'Pacific/Apia', '2011-12-31', '2011-12-31', now)).toEqual([]);
    expect(slotsBetween(onlyTheSkippedDay, 'Pacific/Apia', '2011-12-30', '2011-12-30', now)).toHaveLength(1);
    expect(slotProblem(onlyTheSkippedDay, 'Pacific/Apia', at('2011-12-30T20:00:00Z'), now)).toBeNull();
  });

  it('accepts a gap-moved start and refuses the second run of an ambiguous hour', () => {
    const now = at('2026-01-01T00:00:00Z');
    const rules = rulesWith({ weekly: { sun: ['02:30', '01:30'] } });
    expect(slotProblem(rules, 'America/New_York', at('2026-03-08T07:30:00Z'), now)).toBeNull();
    expect(slotProblem(rules, 'America/New_York', at('2026-11-01T05:30:00Z'), now)).toBeNull();
    expect(slotProblem(rules, 'America/New_York', at('2026-11-01T06:30:00Z'), now)).toBe('NOT_A_SLOT');
  });
});

// ---------------------------------------------------------------------------------------------
// Properties, over the five zones and 2026–2028, with an Intl oracle independent of time.ts.

const ZONES = ['Europe/Lisbon', 'America/New_York', 'Australia/Sydney', 'Asia/Kolkata', 'Pacific/Chatham'] as const;
type Zone = (typeof ZONES)[number];

const oracleFormats = new Map<string, Intl.DateTimeFormat>();
function oracleWall(instant: number, zone: string): { date: string; minutes: number; offset: number } {
  let format = oracleFormats.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', {
      timeZone: zone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit',
    });
    oracleFormats.set(zone, format);
  }
  const parts = format.formatToParts(instant);
  const field = (type: string): number => Number(parts.find((p) => p.type === type)?.value);
  const [y, m, d, h, min] = [field('year'), field('month'), field('day'), field('hour'), field('minute')];
  const date = `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
  return { date, minutes: h * 60 + min, offset: Date.UTC(y, m - 1, d, h, min) - Math.floor(instant / MINUTE) * MINUTE };
}

const hhmm = (minutes: number): string =>
  `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;

// Transitions of 2026–2028 read from Intl: the local date and the wall-clock minutes that are
// skipped (spring) or repeated (autumn).
const SPRING: Record<Zone, { dates: string[]; from: number; to: number }> = {
  'America/New_York': { dates: ['2026-03-08', '2027-03-14', '2028-03-12'], from: 120, to: 180 },
  'Europe/Lisbon': { dates: ['2026-03-29', '2027-03-28', '2028-03-26'], from: 60, to: 120 },
  'Australia/Sydney': { dates: ['2026-10-04', '2027-10-03', '2028-10-01'], from: 120, to: 180 },
  'Pacific/Chatham': { dates: ['2026-09-27', '2027-09-26', '2028-09-24'], from: 165, to: 225 },
  'Asia/Kolkata': { dates: [], from: 0, to: 0 },
};
const AUTUMN: Record<Zone, { dates: string[]; from: number; to: number }> = {
  'America/New_York': { dates: ['2026-11-01', '2027-11-07', '2028-11-05'], from: 60, to: 120 },
  'Europe/Lisbon': { dates: ['2026-10-25', '2027-10-31', '2028-10-29'], from: 60, to: 120 },
  'Australia/Sydney': { dates: ['2026-04-05', '2027-04-04', '2028-04-02'], from: 120, to: 180 },
  'Pacific/Chatham': { dates: ['2026-04-05', '2027-04-04', '2028-04-02'], from: 165, to: 225 },
  'Asia/Kolkata': { dates: [], from: 0, to: 0 },
};
const TRANSITION_DATES = Object.values(SPRING).concat(Object.values(AUTUMN)).flatMap((t) => t.dates);

const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
const FIRST = at('2026-01-01T00:00:00Z') / DAY;
const LAST = at('2028-12-31T00:00:00Z') / DAY;

const dateArb = fc.oneof(
  fc.integer({ min: FIRST, max: LAST }).map((day) => new Date(day * DAY).toISOString().slice(0, 10)),
  // Start a few days before a transition so ranges cross it often.
  fc.tuple(fc.constantFrom(...TRANSITION_DATES), fc.integer({ min: -3, max: 0 })).map(([d, n]) => addDays(d, n)),
);
// On a 5-minute grid (every offset here is a multiple of 15 minutes), so a minute after a slot is
// never another slot; biased towards the hours where clocks change.
const timeArb = fc
  .oneof(fc.integer({ min: 0, max: 287 }).map((i) => i * 5), fc.integer({ min: 0, max: 60 }).map((i) => 45 + i * 5))
  .map(hhmm);
const timesArb = fc.array(timeArb, { maxLength: 4 });
const scheduleArb = (from: string, span: number): fc.Arbitrary<Schedule> =>
  fc.record({
    weekly: fc.tuple(...WEEKDAYS.map(() => timesArb)).map((lists) => Object.fromEntries(WEEKDAYS.map((w, i) => [w, lists[i]]))),
    startDate: fc.option(fc.integer({ min: -2, max: span }).map((n) => addDays(from, n))),
    endDate: fc.option(fc.integer({ min: 0, max: span + 2 }).map((n) => addDays(from, n))),
    exceptions: fc.array(fc.record({ date: fc.integer({ min: -1, max: span + 1 }).map((n) => addDays(from, n)), times: timesArb }), { maxLength: 3 }),
  });
const caseArb = fc
  .record({ zone: fc.constantFrom(...ZONES), from: dateArb, span: fc.integer({ min: 0, max: 34 }) })
  .chain(({ zone, from, span }) => scheduleArb(from, span).map((schedule) => ({ zone, from, to: addDays(from, span), schedule })));

const epochDay = (date: string): number => at(`${date}T00:00:00Z`) / DAY;
/** Is there an instant other than `start`, no later than it, showing the same wall time? */
function earlierTwin(start: number, zone: string): boolean {
  const wall = oracleWall(start, zone);
  return [oracleWall(start - DAY, zone).offset, oracleWall(start + DAY, zone).offset].some((offset) => {
    const other = start + wall.offset - offset;
    const twin = oracleWall(other, zone);
    return other < start && twin.date === wall.date && twin.minutes === wall.minutes;
  });
}

describe('slot properties', () => {
  it('puts every slot at its scheduled wall time, or a gap later, within [from, to], sorted and bookable', () => {
    fc.assert(
      fc.property(caseArb, ({ zone, from, to, schedule }) => {
        const now = at(`${from}T00:00:00Z`) - 2 * DAY;
        const rules = rulesWith(schedule, { duration: 45 });
        const slots = slotsBetween(rules, zone, from, to, now);
        // Which scheduled local times each date of the range has, by the schedule's own rules.
        const scheduledOn = (date: string): string[] => {
          const exception = schedule.exceptions?.filter((e) => e.date === date).at(-1);
          if (exception) return exception.times;
          if ((schedule.startDate && date < schedule.startDate) || (schedule.endDate && date > schedule.endDate)) return [];
          return schedule.weekly[WEEKDAYS[(((epochDay(date) + 3) % 7) + 7) % 7] as (typeof WEEKDAYS)[number]] ?? [];
        };
        const expected = new Set<number>();
        for (let date = from; date <= to; date = addDays(date, 1)) {
          for (const time of scheduledOn(date)) expected.add(zonedTimeToInstant(date, time, zone));
        }
        expect(slots.map((s) => s.start)).toEqual([...expected].sort((a, b) => a - b));

        slots.forEach((slot, i) => {
          if (i > 0) expect(slot.start).toBeGreaterThan((slots[i - 1] as Slot).start);
          const wall = oracleWall(slot.start, zone);
          expect(wall.date >= from && wall.date <= to).toBe(true);
          const times = scheduledOn(wall.date);
          if (!times.includes(hhmm(wall.minutes))) {
            // Only a gap explains it: the scheduled time is the wall time minus the gap's length.
            const gap = wall.offset - oracleWall(slot.start - DAY, zone).offset;
            expect(gap).toBeGreaterThan(0);
            expect(times).toContain(hhmm(wall.minutes - gap / MINUTE));
          }
          expect(earlierTwin(slot.start, zone)).toBe(false);
          expect(slot.end).toBe(slot.start + 45 * MINUTE);
          expect(slot.id).toBe(slotId(rules.experienceId, slot.start));
          expect(slotProblem(rules, zone, slot.start, now)).toBeNull();
          expect(slotProblem(rules, zone, slot.start + MINUTE, now)).toBe('NOT_A_SLOT');
        });
      }),
      { numRuns: 300 },
    );
  });

  it('keeps exactly the slots slotProblem finds bookable, for any now, notice and window', () => {
    fc.assert(
      fc.property(
        caseArb,
        fc.integer({ min: -2 * DAY, max: 40 * DAY }),
        fc.integer({ min: 0, max: 3 * 24 * 60 }),
        fc.integer({ min: 1, max: 40 }),
        ({ zone, from, to, schedule }, nowShift, minNoticeMinutes, maxAdvanceDays) => {
          const now = at(`${from}T00:00:00Z`) + nowShift;
          const rules = rulesWith(schedule, { minNoticeMinutes, maxAdvanceDays });
          const all = slotsBetween(rulesWith(schedule), zone, from, to, at(`${from}T00:00:00Z`) - 2 * DAY);
          const bookable = slotsBetween(rules, zone, from, to, now);
          const today = oracleWall(now, zone).date;
          for (const slot of all) {
            const problem = slotProblem(rules, zone, slot.start, now);
            const expected =
              slot.start < now ? 'PAST'
              : slot.start < now + minNoticeMinutes * MINUTE ? 'TOO_SOON'
              : oracleWall(slot.start, zone).date > addDays(today, maxAdvanceDays) ? 'TOO_FAR'
              : null;
            expect(problem).toBe(expected);
          }
          expect(bookable).toEqual(all.filter((s) => slotProblem(rules, zone, s.start, now) === null));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('resolves an ambiguous autumn time to the earlier of its two instants', () => {
    const zoneArb = fc.constantFrom<Zone>('America/New_York', 'Europe/Lisbon', 'Australia/Sydney', 'Pacific/Chatham');
    fc.assert(
      fc.property(zoneArb, fc.integer({ min: 0, max: 2 }), fc.integer({ min: 0, max: 59 }), (zone, year, minute) => {
        const { dates, from } = AUTUMN[zone];
        const date = dates[year] as string;
        const time = hhmm(from + minute);
        const start = zonedTimeToInstant(date, time, zone);
        const later = start + HOUR; // every autumn change here turns the clocks back one hour
        for (const instant of [start, later]) expect(oracleWall(instant, zone)).toMatchObject({ date, minutes: from + minute });
        expect(oracleWall(start, zone).offset - oracleWall(later, zone).offset).toBe(HOUR);
        const rules = rulesWith({ weekly: {}, exceptions: [{ date, times: [time] }] });
        const now = start - 30 * DAY;
        expect(slotsBetween(rules, zone, date, date, now).map((s) => s.start)).toEqual([start]);
        expect(slotProblem(rules, zone, later, now)).toBe('NOT_A_SLOT');
      }),
    );
  });

  it('moves a spring time in the gap forward by exactly the gap', () => {
    const zoneArb = fc.constantFrom<Zone>('America/New_York', 'Europe/Lisbon', 'Australia/Sydney', 'Pacific/Chatham');
    fc.assert(
      fc.property(zoneArb, fc.integer({ min: 0, max: 2 }), fc.integer({ min: 0, max: 59 }), (zone, year, minute) => {
        const { dates, from } = SPRING[zone];
        const date = dates[year] as string;
        const start = zonedTimeToInstant(date, hhmm(from + minute), zone);
        const gap = oracleWall(start, zone).offset - oracleWall(start - DAY, zone).offset;
        expect(gap).toBe(HOUR);
        expect(oracleWall(start, zone)).toMatchObject({ date, minutes: from + minute + 60 });
        // Nothing shows the scheduled wall time itself: it really is in the gap.
        expect(oracleWall(start - HOUR, zone).minutes).not.toBe(from + minute);
      }),
    );
  });
});

describe('ignoreNotice: an operator’s walk-in', () => {
  // 2026-01-05, a Monday in Lisbon (UTC in winter): tours at 09:00 and 14:00 for an hour, two hours' notice.
  const rules = rulesWith({ weekly: { mon: ['09:00', '14:00'] } }, { minNoticeMinutes: 120 });
  const nine = at('2026-01-05T09:00:00Z');

  it('keeps the slots inside the notice period and those under way, until they end', () => {
    const before = nine - 30 * MINUTE;
    expect(starts(slotsBetween(rules, 'Europe/Lisbon', '2026-01-05', '2026-01-05', before))).toEqual(['2026-01-05T14:00:00.000Z']);
    expect(starts(slotsBetween(rules, 'Europe/Lisbon', '2026-01-05', '2026-01-05', before, true))).toEqual([
      '2026-01-05T09:00:00.000Z',
      '2026-01-05T14:00:00.000Z',
    ]);
    expect(starts(slotsBetween(rules, 'Europe/Lisbon', '2026-01-05', '2026-01-05', nine + 59 * MINUTE, true))).toHaveLength(2);
    expect(starts(slotsBetween(rules, 'Europe/Lisbon', '2026-01-05', '2026-01-05', nine + HOUR, true))).toEqual(['2026-01-05T14:00:00.000Z']);
  });

  it('answers the same for one start: bookable until the slot ends, never off the schedule or past the window', () => {
    expect(slotProblem(rules, 'Europe/Lisbon', nine, nine - 30 * MINUTE)).toBe('TOO_SOON');
    expect(slotProblem(rules, 'Europe/Lisbon', nine, nine - 30 * MINUTE, true)).toBeNull();
    expect(slotProblem(rules, 'Europe/Lisbon', nine, nine + 30 * MINUTE)).toBe('PAST');
    expect(slotProblem(rules, 'Europe/Lisbon', nine, nine + 59 * MINUTE, true)).toBeNull();
    expect(slotProblem(rules, 'Europe/Lisbon', nine, nine + HOUR, true)).toBe('PAST');
    expect(slotProblem(rules, 'Europe/Lisbon', nine + 30 * MINUTE, nine, true)).toBe('NOT_A_SLOT');
    expect(slotProblem(rulesWith(rules.schedule, { maxAdvanceDays: 0 }), 'Europe/Lisbon', nine + 7 * DAY, nine, true)).toBe('TOO_FAR');
  });
});
