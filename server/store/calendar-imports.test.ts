import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Store } from './index.js';
import { MAX_PIECE_MS, type BusyInterval, type CalendarImportRow } from './calendar-imports.js';
import { testEngine, openStoreWithTwoOrganizations } from '../test-helpers/index.js';
import { REFUSALS } from '../test-helpers/engines.js';

const NOW = 1_800_000_000_000;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe(`calendar import store (${testEngine()})`, () => {
  let close: () => Promise<void>;
  let store: Store;
  let a: string;
  let b: string;
  beforeEach(async () => {
    ({ store, close, orgA: a, orgB: b } = await openStoreWithTwoOrganizations());
    for (const [id, orgId] of [['exp_a1', a], ['exp_a2', a], ['exp_b1', b]] as const) {
      await store.experiences.insertExperience({
        id, orgId, name: id, description: '', duration: 60, price: 1500, maxParticipants: 10, maxPerBooking: null, schedule: null,
        minNoticeMinutes: 0, maxAdvanceDays: 365, active: 1, priceCategories: '[]', createdAt: NOW - 9 * DAY, updatedAt: NOW - 9 * DAY,
      });
    }
  });
  afterEach(async () => {
    await close();
  });

  const importRow = (id: string, fields: Partial<CalendarImportRow> = {}): CalendarImportRow => ({
    id, orgId: a, name: `Calendar ${id}`, url: `https://calendars.example/${id}.ics`, experienceId: null, etag: null, lastModified: null,
    lastSyncedAt: null, lastError: null, eventCount: 0, nextSyncAt: null, expandedAt: null, expandedZone: null, syncNote: null,
    createdAt: NOW - DAY, updatedAt: NOW - DAY, ...fields,
  });
  const refusal = (why: keyof typeof REFUSALS) => ({ code: testEngine() === 'sqlite' ? expect.stringMatching(REFUSALS[why].sqlite) : REFUSALS[why].pg });
  const ids = (page: { rows: CalendarImportRow[] }) => page.rows.map((r) => r.id);

  /** Five imports: imp_c and imp_a at the same instant (inserted against id order), imp_d of org b. */
  async function insertSample(): Promise<void> {
    const i = store.calendarImports;
    await i.insertCalendarImport(importRow('imp_c'));
    await i.insertCalendarImport(importRow('imp_a', { experienceId: 'exp_a1', nextSyncAt: NOW - 1000, etag: '"v1"', lastModified: 'Tue, 01 Jan 2030 00:00:00 GMT' }));
    await i.insertCalendarImport(importRow('imp_b', { createdAt: NOW - 2 * DAY, updatedAt: NOW - 2 * DAY }));
    await i.insertCalendarImport(importRow('imp_e', { createdAt: NOW, nextSyncAt: NOW - 1000, lastSyncedAt: NOW - HOUR, eventCount: 12 }));
    await i.insertCalendarImport(importRow('imp_d', { orgId: b, experienceId: 'exp_b1', nextSyncAt: NOW + 1000 }));
  }

  it('inserts, reads and pages imports, oldest first and id breaking ties', async () => {
    const i = store.calendarImports;
    await insertSample();
    await expect(i.insertCalendarImport(importRow('imp_a'))).rejects.toMatchObject(refusal('unique'));
    await expect(i.insertCalendarImport(importRow('imp_x', { experienceId: 'exp_none' }))).rejects.toMatchObject(refusal('foreignKey'));

    const imported = importRow('imp_a', { experienceId: 'exp_a1', nextSyncAt: NOW - 1000, etag: '"v1"', lastModified: 'Tue, 01 Jan 2030 00:00:00 GMT' });
    expect(await i.getCalendarImportById('imp_a')).toStrictEqual(imported);
    expect(await i.getCalendarImport(a, 'imp_a')).toStrictEqual(imported);
    expect(await i.getCalendarImport(b, 'imp_a')).toBeUndefined();
    expect(await i.getCalendarImport(b, 'imp_d')).toMatchObject({ orgId: b, experienceId: 'exp_b1' });
    expect(await i.getCalendarImportById('imp_none')).toBeUndefined();

    expect(await i.listCalendarImports(a, { limit: 2, offset: 0 })).toMatchObject({ total: 4, rows: [{ id: 'imp_b' }, { id: 'imp_a' }] });
    expect(ids(await i.listCalendarImports(a, { limit: 2, offset: 2 }))).toEqual(['imp_c', 'imp_e']);
    expect(await i.listCalendarImports(a, { limit: 10, offset: 9 })).toEqual({ rows: [], total: 4 });
    expect(ids(await i.listCalendarImports(b, { limit: 10, offset: 0 }))).toEqual(['imp_d']);
    expect(await i.listCalendarImports('nobody', { limit: 10, offset: 0 })).toEqual({ rows: [], total: 0 });
  });

  it('lists the due imports, never scheduled first, and lets a claim move a due one only', async () => {
    const i = store.calendarImports;
    await insertSample();
    expect(await i.listDueCalendarImports(NOW, 10)).toEqual(['imp_b', 'imp_c', 'imp_a', 'imp_e']);
    expect(await i.listDueCalendarImports(NOW, 3)).toEqual(['imp_b', 'imp_c', 'imp_a']);
    expect(await i.listDueCalendarImports(NOW - 1001, 10)).toEqual(['imp_b', 'imp_c']);
    expect(await i.listDueCalendarImports(NOW + 1000, 10)).toEqual(['imp_b', 'imp_c', 'imp_a', 'imp_e', 'imp_d']);
    // A claim moves a due import's next sync and answers true; a second claim of the same due time finds it taken.
    expect(await i.scheduleCalendarImport('imp_c', NOW, NOW - 5000)).toBe(true);
    expect(await i.scheduleCalendarImport('imp_none', NOW, NOW)).toBe(false);
    expect((await i.getCalendarImportById('imp_c'))?.nextSyncAt).toBe(NOW - 5000);
    expect(await i.listDueCalendarImports(NOW, 10)).toEqual(['imp_b', 'imp_c', 'imp_a', 'imp_e']);
    expect(await i.scheduleCalendarImport('imp_b', NOW, NOW + 5000)).toBe(true);
    expect(await i.scheduleCalendarImport('imp_b', NOW, NOW + 6000)).toBe(false);
    expect((await i.getCalendarImportById('imp_b'))?.nextSyncAt).toBe(NOW + 5000);
    // Not due at the `now` the caller saw (imp_d is due at NOW + 1000): untouched.
    expect(await i.scheduleCalendarImport('imp_d', NOW, NOW + HOUR)).toBe(false);
    expect((await i.getCalendarImportById('imp_d'))?.nextSyncAt).toBe(NOW + 1000);
    // Exactly due (next_sync_at = now) is due.
    expect(await i.scheduleCalendarImport('imp_b', NOW + 5000, NOW + 5000)).toBe(true);
    expect(await i.listDueCalendarImports(NOW, 10)).toEqual(['imp_c', 'imp_a', 'imp_e']);
  });

  it('lets one of many concurrent claims of a due import win', async () => {
    await store.calendarImports.insertCalendarImport(importRow('imp_race', { nextSyncAt: NOW - 1 }));
    const claims = await Promise.all(Array.from({ length: 8 }, (_, n) => store.calendarImports.scheduleCalendarImport('imp_race', NOW, NOW + HOUR + n)));
    expect(claims.filter(Boolean)).toHaveLength(1);
    expect((await store.calendarImports.getCalendarImportById('imp_race'))?.nextSyncAt).toBe(NOW + HOUR + claims.indexOf(true));
  });

  it('records a new copy, a 304 and a failure', async () => {
    const i = store.calendarImports;
    await insertSample();
    const base = importRow('imp_a', { experienceId: 'exp_a1', etag: '"v1"', lastModified: 'Tue, 01 Jan 2030 00:00:00 GMT' });
    await i.recordCalendarImportCopy('imp_a', {
      etag: '"v2"', lastModified: null, eventCount: 7, syncNote: '2 events skipped', expandedZone: 'Europe/Lisbon', syncedAt: NOW, nextSyncAt: NOW + HOUR,
    });
    const copied = {
      ...base, etag: '"v2"', lastModified: null, eventCount: 7, syncNote: '2 events skipped', lastError: '2 events skipped', expandedZone: 'Europe/Lisbon',
      lastSyncedAt: NOW, expandedAt: NOW, nextSyncAt: NOW + HOUR, updatedAt: NOW,
    };
    expect(await i.getCalendarImport(a, 'imp_a')).toStrictEqual(copied);
    await i.recordCalendarImportFailure('imp_a', 'The server answered 500', NOW + HOUR, NOW + 2 * HOUR);
    const failed = { ...copied, lastError: 'The server answered 500', nextSyncAt: NOW + 2 * HOUR, updatedAt: NOW + HOUR };
    expect(await i.getCalendarImport(a, 'imp_a')).toStrictEqual(failed);
    // A 304 after a failure: the note of the last good copy is the error shown again.
    await i.recordCalendarImportUnchanged('imp_a', NOW + 2 * HOUR, NOW + 3 * HOUR);
    expect(await i.getCalendarImport(a, 'imp_a')).toStrictEqual({
      ...failed, lastError: '2 events skipped', lastSyncedAt: NOW + 2 * HOUR, nextSyncAt: NOW + 3 * HOUR, updatedAt: NOW + 2 * HOUR,
    });
    // A copy without a note clears the error.
    await i.recordCalendarImportCopy('imp_e', {
      etag: null, lastModified: 'Wed, 02 Jan 2030 00:00:00 GMT', eventCount: 0, syncNote: null, expandedZone: 'UTC', syncedAt: NOW, nextSyncAt: NOW + HOUR,
    });
    await i.recordCalendarImportUnchanged('imp_e', NOW + HOUR, NOW + 2 * HOUR);
    expect(await i.getCalendarImport(a, 'imp_e')).toMatchObject({ lastError: null, syncNote: null, lastSyncedAt: NOW + HOUR, expandedAt: NOW, eventCount: 0 });
    await i.recordCalendarImportFailure('imp_none', 'x', NOW, NOW); // nothing to change
    expect(await i.listDueCalendarImports(NOW + 10 * HOUR, 10)).toEqual(['imp_b', 'imp_c', 'imp_d', 'imp_e', 'imp_a']);
  });

  it('keeps busy intervals in pieces of a week and merges them on reading', async () => {
    const i = store.calendarImports;
    await insertSample();
    const orgWide = { id: 'imp_c', orgId: a, experienceId: null };
    const firstOnly = { id: 'imp_a', orgId: a, experienceId: 'exp_a1' };
    await i.replaceBusyIntervals(orgWide, [
      { start: NOW + HOUR, end: NOW + 2 * HOUR },
      { start: NOW + 90 * 60_000, end: NOW + 3 * HOUR }, // overlaps the one before
      { start: NOW + 10 * DAY, end: NOW + 30 * DAY }, // three pieces
    ]);
    await i.replaceBusyIntervals(firstOnly, [
      { start: NOW + 3 * HOUR, end: NOW + 4 * HOUR }, // touches imp_c's: merged
      { start: NOW + 5 * DAY, end: NOW + 5 * DAY + HOUR },
      { start: NOW + 5 * DAY, end: NOW + 5 * DAY + HOUR }, // the same twice
    ]);
    await i.replaceBusyIntervals({ id: 'imp_d', orgId: b, experienceId: 'exp_b1' }, [{ start: NOW, end: NOW + DAY }]);

    expect(await i.busyIntervalsFor(a, 'exp_a1', NOW, NOW + 40 * DAY)).toEqual([
      { start: NOW + HOUR, end: NOW + 4 * HOUR },
      { start: NOW + 5 * DAY, end: NOW + 5 * DAY + HOUR },
      { start: NOW + 10 * DAY, end: NOW + 30 * DAY },
    ]);
    // The org-wide import only.
    expect(await i.busyIntervalsFor(a, 'exp_a2', NOW, NOW + 40 * DAY)).toEqual([
      { start: NOW + HOUR, end: NOW + 3 * HOUR },
      { start: NOW + 10 * DAY, end: NOW + 30 * DAY },
    ]);
    // Inside a long interval: the piece that holds the range is found (pieces start at +10, +17 and +24 days).
    expect(await i.busyIntervalsFor(a, 'exp_a2', NOW + 25 * DAY, NOW + 25 * DAY + HOUR)).toEqual([{ start: NOW + 24 * DAY, end: NOW + 30 * DAY }]);
    expect(await i.busyIntervalsFor(a, 'exp_a2', NOW + 20 * DAY, NOW + 25 * DAY)).toEqual([{ start: NOW + 17 * DAY, end: NOW + 30 * DAY }]);
    expect(await i.busyIntervalsFor(a, 'exp_a1', NOW + 2 * HOUR, NOW + 3 * HOUR)).toEqual([{ start: NOW + 90 * 60_000, end: NOW + 3 * HOUR }]);
    // The range's edges: [from, to) overlaps neither an interval ending at `from` nor one starting at `to`.
    expect(await i.busyIntervalsFor(a, 'exp_a1', NOW + 4 * HOUR, NOW + 5 * DAY)).toEqual([]);
    expect(await i.busyIntervalsFor(b, 'exp_b1', NOW, NOW + DAY)).toEqual([{ start: NOW, end: NOW + DAY }]);
    expect(await i.busyIntervalsFor(b, 'exp_a1', NOW, NOW + DAY)).toEqual([]);
    expect(await i.busyIntervalsFor('nobody', 'exp_a1', NOW, NOW + DAY)).toEqual([]);

    // Replacing drops what was there before.
    await i.replaceBusyIntervals(orgWide, [{ start: NOW + 2 * DAY, end: NOW + 2 * DAY + HOUR }]);
    expect(await i.busyIntervalsFor(a, 'exp_a2', NOW, NOW + 40 * DAY)).toEqual([{ start: NOW + 2 * DAY, end: NOW + 2 * DAY + HOUR }]);
    await i.replaceBusyIntervals(firstOnly, []);
    expect(await i.busyIntervalsFor(a, 'exp_a1', NOW + 3 * DAY, NOW + 40 * DAY)).toEqual([]);
    // Inside the caller's transaction: undone with it.
    await expect(
      store.transaction(async () => {
        await i.replaceBusyIntervals(orgWide, []);
        throw new Error('the copy could not be recorded');
      }),
    ).rejects.toThrow('the copy could not be recorded');
    expect(await i.busyIntervalsFor(a, 'exp_a2', NOW, NOW + 40 * DAY)).toEqual([{ start: NOW + 2 * DAY, end: NOW + 2 * DAY + HOUR }]);
    // An import that does not exist is refused by the foreign key.
    await expect(i.replaceBusyIntervals({ id: 'imp_none', orgId: a, experienceId: null }, [{ start: NOW, end: NOW + HOUR }])).rejects.toMatchObject(
      refusal('foreignKey'),
    );
  });

  it('stores a big calendar, more pieces than one statement may carry', async () => {
    const i = store.calendarImports;
    await insertSample();
    // Five parameters a piece: more than SQLite's 32,766 parameters per statement, and PostgreSQL's 65,535.
    const intervals: BusyInterval[] = Array.from({ length: 25_000 }, (_, n) => ({ start: NOW + n * 2 * HOUR, end: NOW + n * 2 * HOUR + HOUR }));
    intervals.push({ start: NOW - 400 * DAY, end: NOW - DAY }); // 57 pieces
    expect(Math.ceil((399 * DAY) / MAX_PIECE_MS)).toBe(57);
    await store.transaction(() => i.replaceBusyIntervals({ id: 'imp_e', orgId: a, experienceId: 'exp_a2' }, intervals));
    const all = await i.busyIntervalsFor(a, 'exp_a2', NOW - 500 * DAY, NOW + 3000 * DAY);
    expect(all).toHaveLength(25_001);
    expect(all[0]).toEqual({ start: NOW - 400 * DAY, end: NOW - DAY });
    expect(all[1]).toEqual({ start: NOW, end: NOW + HOUR });
    expect(all.at(-1)).toEqual({ start: NOW + 49_998 * HOUR, end: NOW + 49_999 * HOUR });
    // Inside the long interval, only its pieces from a week before the range on.
    expect(await i.busyIntervalsFor(a, 'exp_a2', NOW - 200 * DAY, NOW - 199 * DAY)).toEqual([{ start: NOW - 204 * DAY, end: NOW - 197 * DAY }]);
    // Replaced as a whole again, to a calendar of a size no power of two.
    await i.replaceBusyIntervals({ id: 'imp_e', orgId: a, experienceId: 'exp_a2' }, intervals.slice(0, 1_500));
    expect(await i.busyIntervalsFor(a, 'exp_a2', NOW - 500 * DAY, NOW + 3000 * DAY)).toHaveLength(1_500);
  });

  it('deletes an import of its own org with its intervals', async () => {
    const i = store.calendarImports;
    await insertSample();
    await i.replaceBusyIntervals({ id: 'imp_c', orgId: a, experienceId: null }, [{ start: NOW, end: NOW + HOUR }]);
    await i.replaceBusyIntervals({ id: 'imp_d', orgId: b, experienceId: 'exp_b1' }, [{ start: NOW, end: NOW + DAY }]);
    // Another organization's import: not deleted, and its busy time stays.
    expect(await i.deleteCalendarImport(a, 'imp_d')).toBe(false);
    expect(await i.getCalendarImportById('imp_d')).toBeDefined();
    expect(await i.busyIntervalsFor(b, 'exp_b1', NOW, NOW + DAY)).toEqual([{ start: NOW, end: NOW + DAY }]);

    expect(await i.deleteCalendarImport(a, 'imp_c')).toBe(true);
    expect(await i.deleteCalendarImport(a, 'imp_c')).toBe(false);
    expect(await i.deleteCalendarImport(a, 'imp_none')).toBe(false);
    expect(await i.getCalendarImport(a, 'imp_c')).toBeUndefined();
    expect(await i.busyIntervalsFor(a, 'exp_a2', NOW - DAY, NOW + DAY)).toEqual([]);
    expect(ids(await i.listCalendarImports(a, { limit: 10, offset: 0 }))).toEqual(['imp_b', 'imp_a', 'imp_e']);
    expect(await i.listDueCalendarImports(NOW + 10 * HOUR, 10)).toEqual(['imp_b', 'imp_a', 'imp_e', 'imp_d']);
  });
});
