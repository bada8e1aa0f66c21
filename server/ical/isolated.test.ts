import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readBusyTimes, type BusyContext } from './busy.js';
import { CalendarReadError, readBusyTimesIsolated } from './isolated.js';

const NOW = Date.parse('2027-03-01T00:00:00Z');
const DAY = 86_400_000;
const context: BusyContext = { zone: 'Europe/Lisbon', from: NOW - DAY, to: NOW + 731 * DAY };
const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');

/** About 5 MB of weekly recurring events: the largest calendar a fetch lets through. */
function largeCalendar(): string {
  const events: string[] = [];
  for (let i = 0, size = 0; size < 4_900_000; i++) {
    const day = String((i % 28) + 1).padStart(2, '0');
    const hour = String(i % 24).padStart(2, '0');
    const event = ['BEGIN:VEVENT', `UID:event-${i}@example.com`, `DTSTART;TZID=Europe/Lisbon:202703${day}T${hour}0000`,
      'DURATION:PT30M', 'RRULE:FREQ=WEEKLY;COUNT=20', `SUMMARY:${'Busy '.repeat(40)}`, 'END:VEVENT', ''].join('\r\n');
    events.push(event);
    size += event.length;
  }
  return `BEGIN:VCALENDAR\r\nVERSION:2.0\r\n${events.join('')}END:VCALENDAR\r\n`;
}

describe('reading a calendar off the main thread', () => {
  it('gives the same busy times as reading it in place', async () => {
    const text = fixture('recurring-dst.ics');
    expect(await readBusyTimesIsolated(text, context)).toEqual(readBusyTimes(text, context));
  });

  it('says why a text is not a calendar', async () => {
    await expect(readBusyTimesIsolated(fixture('truncated.ics'), context)).rejects.toThrow(
      new CalendarReadError('The calendar is truncated: it ends before END:VCALENDAR'),
    );
  });

  it('stops a read that takes too long', async () => {
    await expect(readBusyTimesIsolated(largeCalendar(), context, { timeoutMs: 1 })).rejects.toThrow(/took longer than/);
  });

  it('keeps the event loop free while a 5 MB calendar is read', async () => {
    const text = largeCalendar();
    let done = false;
    const read = readBusyTimesIsolated(text, context).finally(() => (done = true));
    // A read on this thread would hold these timers back until it had finished.
    for (let i = 0; i < 5; i++) await new Promise((resolve) => setTimeout(resolve, 1));
    expect(done).toBe(false);
    const busy = await read;
    expect(busy.eventCount).toBeGreaterThan(10_000);
    expect(busy.intervals.length).toBeGreaterThan(0);
  });
});
