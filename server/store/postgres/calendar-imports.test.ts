import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bothEngines, type BothEngines } from '../../test-helpers/engines.js';
import { testDatabaseUrl } from '../../test-helpers/postgres.js';
import { MAX_PIECE_MS, type BusyInterval, type CalendarImportRow, type calendarImportStore } from '../calendar-imports.js';
import type { Async } from '../index.js';
import { calendarImportStorePg } from './calendar-imports.js';

type Imports = Async<ReturnType<typeof calendarImportStore>>;

const NOW = 1_800_000_000_000;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

function importRow(id: string, fields: Partial<CalendarImportRow>): CalendarImportRow {
  return {
    id,
    orgId: 'a',
    name: `Calendar ${id}`,
    url: `https://calendars.example/${id}.ics`,
    experienceId: null,
    etag: null,
    lastModified: null,
    lastSyncedAt: null,
    lastError: null,
    eventCount: 0,
    nextSyncAt: null,
    expandedAt: null,
    expandedZone: null,
    syncNote: null,
    createdAt: NOW - DAY,
    updatedAt: NOW - DAY,
    ...fields,
  };
}

describe.skipIf(!testDatabaseUrl())('calendarImportStorePg matches calendarImportStore', () => {
  let e: BothEngines;
  let pg: Imports;

  /** Runs the same call on both engines (SQLite first) and holds the answers equal. */
  async function both<T>(call: (s: Imports) => Promise<T>): Promise<T> {
    const expected = await call(e.sqlite);
    const actual = await call(pg);
    expect(actual).toStrictEqual(expected);
    return expected;
  }

  async function bothReject(call: (s: Imports) => Promise<unknown>): Promise<void> {
    await expect(call(e.sqlite)).rejects.toThrow();
    await expect(call(pg)).rejects.toThrow();
  }

  /** Replaces an import's intervals on both engines, each in a transaction as the sync does it. */
  async function replace(row: Pick<CalendarImportRow, 'id' | 'orgId' | 'experienceId'>, intervals: BusyInterval[]): Promise<void> {
    await e.sqlite.transaction(async () => await e.sqlite.replaceBusyIntervals(row, intervals));
    await e.pgDb.transaction(async () => await pg.replaceBusyIntervals(row, intervals));
  }

  /** The stored pieces of one import, on both engines (held equal). */
  async function pieces(importId: string): Promise<{ n: number; first: number | null; last: number | null }> {
    const sql = 'SELECT count(*) AS n, min(start_at) AS first, max(end_at) AS last FROM busy_intervals WHERE import_id = ';
    const expected = e.sqliteDb.prepare(`${sql}?`).get(importId);
    const actual = await e.pgDb.get(`${sql}$1`, [importId]);
    expect(actual).toStrictEqual(expected);
    return actual as { n: number; first: number | null; last: number | null };
  }

  /** A row the imports do not own, written with plain SQL on both engines. */
  async function plant(table: string, row: Record<string, unknown>): Promise<void> {
    const cols = Object.keys(row);
    const values = Object.values(row);
    e.sqliteDb.prepare(`INSERT INTO ${table} (${cols.join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`).run(...values);
    await e.pgDb.run(`INSERT INTO ${table} (${cols.join(', ')}) VALUES (${cols.map((_, i) => `$${i + 1}`).join(', ')})`, values);
  }

  beforeAll(async () => {
    e = await bothEngines();
    pg = calendarImportStorePg(e.pgDb);
    for (const org of ['a', 'b']) {
      await plant('organizations', { id: org, name: `Org ${org}`, email: `${org}@example.com`, timezone: 'Europe/Lisbon', created_at: NOW - 9 * DAY, updated_at: NOW - 9 * DAY });
    }
    for (const [id, org] of [['exp_a1', 'a'], ['exp_a2', 'a'], ['exp_b1', 'b']] as const) {
      await plant('experiences', { id, org_id: org, name: id, description: '', duration: 60, price: 1500, max_participants: 10, created_at: NOW - 9 * DAY, updated_at: NOW - 9 * DAY });
    }
  });

  afterAll(async () => {
    await e?.close();
  });

  it('inserts, reads and pages imports', async () => {
    // imp_c and imp_a at the same instant, inserted against id order: the list breaks the tie by id.
    await both((s) => s.insertCalendarImport(importRow('imp_c', {})));
    await both((s) => s.insertCalendarImport(importRow('imp_a', { experienceId: 'exp_a1', nextSyncAt: NOW - 1000, etag: '"v1"', lastModified: 'Tue, 01 Jan 2030 00:00:00 GMT' })));
    await both((s) => s.insertCalendarImport(importRow('imp_b', { createdAt: NOW - 2 * DAY, updatedAt: NOW - 2 * DAY })));
    await both((s) => s.insertCalendarImport(importRow('imp_e', { createdAt: NOW, nextSyncAt: NOW - 1000, lastSyncedAt: NOW - HOUR, eventCount: 12 })));
    await both((s) => s.insertCalendarImport(importRow('imp_d', { orgId: 'b', experienceId: 'exp_b1', nextSyncAt: NOW + 1000 })));
    await bothReject((s) => s.insertCalendarImport(importRow('imp_a', {}))); // the id is taken
    await bothReject((s) => s.insertCalendarImport(importRow('imp_x', { experienceId: 'exp_none' })));

    for (const id of ['imp_a', 'imp_d', 'imp_none']) {
      await both((s) => s.getCalendarImportById(id));
      await both((s) => s.getCalendarImport('a', id));
      await both((s) => s.getCalendarImport('b', id));
    }
    const first = await both((s) => s.listCalendarImports('a', { limit: 2, offset: 0 }));
    expect(first).toMatchObject({ total: 4, rows: [{ id: 'imp_b' }, { id: 'imp_a' }] });
    await both((s) => s.listCalendarImports('a', { limit: 2, offset: 2 }));
    await both((s) => s.listCalendarImports('a', { limit: 10, offset: 9 }));
    await both((s) => s.listCalendarImports('b', { limit: 10, offset: 0 }));
    await both((s) => s.listCalendarImports('nobody', { limit: 10, offset: 0 }));
  });

  it('lists the due imports, never synced first', async () => {
    expect(await both((s) => s.listDueCalendarImports(NOW, 10))).toEqual(['imp_b', 'imp_c', 'imp_a', 'imp_e']);
    await both((s) => s.listDueCalendarImports(NOW, 3));
    await both((s) => s.listDueCalendarImports(NOW - 1001, 10));
    await both((s) => s.listDueCalendarImports(NOW + 1000, 10));
    // A claim moves a due import's next sync and answers true; a second claim of the same due time finds it taken.
    expect(await both((s) => s.scheduleCalendarImport('imp_c', NOW, NOW - 5000))).toBe(true);
    expect(await both((s) => s.scheduleCalendarImport('imp_none', NOW, NOW))).toBe(false);
    await both((s) => s.getCalendarImportById('imp_c'));
    expect(await both((s) => s.listDueCalendarImports(NOW, 10))).toEqual(['imp_b', 'imp_c', 'imp_a', 'imp_e']);
    expect(await both((s) => s.scheduleCalendarImport('imp_b', NOW, NOW + 5000))).toBe(true);
    expect(await both((s) => s.scheduleCalendarImport('imp_b', NOW, NOW + 6000))).toBe(false);
    expect((await both((s) => s.getCalendarImportById('imp_b')))?.nextSyncAt).toBe(NOW + 5000);
    // Not due at the `now` the caller saw (imp_d is due at NOW + 1000): untouched.
    expect(await both((s) => s.scheduleCalendarImport('imp_d', NOW, NOW + HOUR))).toBe(false);
    expect((await both((s) => s.getCalendarImportById('imp_d')))?.nextSyncAt).toBe(NOW + 1000);
    // Exactly due (next_sync_at = now) is due.
    expect(await both((s) => s.scheduleCalendarImport('imp_b', NOW + 5000, NOW + 5000))).toBe(true);
    await both((s) => s.listDueCalendarImports(NOW, 10));
  });

  it('lets one of many concurrent claims of a due import win on PostgreSQL', async () => {
    await pg.insertCalendarImport(importRow('imp_race', { nextSyncAt: NOW - 1 }));
    const claims = await Promise.all(Array.from({ length: 8 }, (_, i) => pg.scheduleCalendarImport('imp_race', NOW, NOW + HOUR + i)));
    expect(claims.filter(Boolean)).toHaveLength(1);
    await e.pgDb.run('DELETE FROM calendar_imports WHERE id = $1', ['imp_race']);
  });

  it('records syncs', async () => {
    await both((s) => s.recordCalendarImportCopy('imp_a', {
      etag: '"v2"', lastModified: null, eventCount: 7, syncNote: '2 events skipped', expandedZone: 'Europe/Lisbon', syncedAt: NOW, nextSyncAt: NOW + HOUR,
    }));
    await both((s) => s.getCalendarImport('a', 'imp_a'));
    await both((s) => s.recordCalendarImportFailure('imp_a', 'The server answered 500', NOW + HOUR, NOW + 2 * HOUR));
    await both((s) => s.getCalendarImport('a', 'imp_a'));
    // A 304 after a failure: the note of the last good copy is the error shown again.
    await both((s) => s.recordCalendarImportUnchanged('imp_a', NOW + 2 * HOUR, NOW + 3 * HOUR));
    await both((s) => s.getCalendarImport('a', 'imp_a'));
    await both((s) => s.recordCalendarImportCopy('imp_e', {
      etag: null, lastModified: 'Wed, 02 Jan 2030 00:00:00 GMT', eventCount: 0, syncNote: null, expandedZone: 'UTC', syncedAt: NOW, nextSyncAt: NOW + HOUR,
    }));
    await both((s) => s.recordCalendarImportUnchanged('imp_e', NOW + HOUR, NOW + 2 * HOUR));
    await both((s) => s.recordCalendarImportFailure('imp_none', 'x', NOW, NOW));
    await both((s) => s.listCalendarImports('a', { limit: 10, offset: 0 }));
    await both((s) => s.listDueCalendarImports(NOW + 10 * HOUR, 10));
  });

  it('keeps busy intervals in pieces and merges them on reading', async () => {
    const orgWide = { id: 'imp_c', orgId: 'a', experienceId: null };
    const firstOnly = { id: 'imp_a', orgId: 'a', experienceId: 'exp_a1' };
    await replace(orgWide, [
      { start: NOW + HOUR, end: NOW + 2 * HOUR },
      { start: NOW + 90 * 60_000, end: NOW + 3 * HOUR }, // overlaps the one before
      { start: NOW + 10 * DAY, end: NOW + 30 * DAY }, // three pieces
    ]);
    await replace(firstOnly, [
      { start: NOW + 3 * HOUR, end: NOW + 4 * HOUR }, // touches imp_c's: merged
      { start: NOW + 5 * DAY, end: NOW + 5 * DAY + HOUR },
      { start: NOW + 5 * DAY, end: NOW + 5 * DAY + HOUR }, // the same twice
    ]);
    await replace({ id: 'imp_d', orgId: 'b', experienceId: 'exp_b1' }, [{ start: NOW, end: NOW + DAY }]);
    expect((await pieces('imp_c')).n).toBe(5);

    expect(await both((s) => s.busyIntervalsFor('a', 'exp_a1', NOW, NOW + 40 * DAY))).toEqual([
      { start: NOW + HOUR, end: NOW + 4 * HOUR },
      { start: NOW + 5 * DAY, end: NOW + 5 * DAY + HOUR },
      { start: NOW + 10 * DAY, end: NOW + 30 * DAY },
    ]);
    await both((s) => s.busyIntervalsFor('a', 'exp_a2', NOW, NOW + 40 * DAY)); // the org-wide import only
    // Inside a long interval: the piece that started before the range is found.
    await both((s) => s.busyIntervalsFor('a', 'exp_a2', NOW + 25 * DAY, NOW + 25 * DAY + HOUR));
    await both((s) => s.busyIntervalsFor('a', 'exp_a1', NOW + 2 * HOUR, NOW + 3 * HOUR));
    // The range's edges: [from, to) overlaps neither an interval ending at `from` nor one starting at `to`.
    await both((s) => s.busyIntervalsFor('a', 'exp_a1', NOW + 4 * HOUR, NOW + 5 * DAY));
    await both((s) => s.busyIntervalsFor('b', 'exp_b1', NOW, NOW + DAY));
    await both((s) => s.busyIntervalsFor('b', 'exp_a1', NOW, NOW + DAY));
    await both((s) => s.busyIntervalsFor('nobody', 'exp_a1', NOW, NOW + DAY));

    // Replacing drops what was there before.
    await replace(orgWide, [{ start: NOW + 2 * DAY, end: NOW + 2 * DAY + HOUR }]);
    await pieces('imp_c');
    await both((s) => s.busyIntervalsFor('a', 'exp_a2', NOW, NOW + 40 * DAY));
    await replace(firstOnly, []);
    expect((await pieces('imp_a')).n).toBe(0);
    await both((s) => s.busyIntervalsFor('a', 'exp_a1', NOW, NOW + 40 * DAY));
    // Outside a transaction too, and an import that does not exist is refused by its foreign key.
    await both((s) => s.replaceBusyIntervals(firstOnly, [{ start: NOW + DAY, end: NOW + DAY + HOUR }]));
    await pieces('imp_a');
    await bothReject((s) => s.replaceBusyIntervals({ id: 'imp_none', orgId: 'a', experienceId: null }, [{ start: NOW, end: NOW + HOUR }]));
  });

  it('stores a big calendar in batches', async () => {
    // More rows than one multi-row INSERT of five columns could carry (65,535 parameters).
    const intervals: BusyInterval[] = Array.from({ length: 25_000 }, (_, i) => ({ start: NOW + i * 2 * HOUR, end: NOW + i * 2 * HOUR + HOUR }));
    intervals.push({ start: NOW - 400 * DAY, end: NOW - DAY }); // 57 pieces
    await replace({ id: 'imp_e', orgId: 'a', experienceId: 'exp_a2' }, intervals);
    expect(await pieces('imp_e')).toStrictEqual({ n: 25_000 + Math.ceil((399 * DAY) / MAX_PIECE_MS), first: NOW - 400 * DAY, last: NOW + 49_999 * HOUR });
    const all = await both((s) => s.busyIntervalsFor('a', 'exp_a2', NOW - 500 * DAY, NOW + 3000 * DAY));
    expect(all.length).toBe(25_001);
    await both((s) => s.busyIntervalsFor('a', 'exp_a2', NOW - 200 * DAY, NOW + 10 * DAY));
  });

  it('deletes an import with its intervals', async () => {
    await pieces('imp_d');
    // Another organization's import: not deleted, false on both.
    expect(await both((s) => s.deleteCalendarImport('a', 'imp_d'))).toBe(false);
    await both((s) => s.getCalendarImportById('imp_d'));
    // …and its busy time stays, on both.
    expect(await both((s) => s.busyIntervalsFor('b', 'exp_b1', NOW, NOW + DAY))).toEqual([{ start: NOW, end: NOW + DAY }]);

    expect(await both((s) => s.deleteCalendarImport('a', 'imp_c'))).toBe(true);
    expect(await both((s) => s.deleteCalendarImport('a', 'imp_c'))).toBe(false);
    expect(await both((s) => s.deleteCalendarImport('a', 'imp_none'))).toBe(false);
    await both((s) => s.getCalendarImport('a', 'imp_c'));
    expect((await pieces('imp_c')).n).toBe(0);
    await both((s) => s.busyIntervalsFor('a', 'exp_a2', NOW, NOW + 40 * DAY));
    expect(await both((s) => s.deleteCalendarImport('a', 'imp_e'))).toBe(true);
    expect((await pieces('imp_e')).n).toBe(0);
    await both((s) => s.listCalendarImports('a', { limit: 10, offset: 0 }));
    await both((s) => s.listDueCalendarImports(NOW + 10 * HOUR, 10));
  });
});
