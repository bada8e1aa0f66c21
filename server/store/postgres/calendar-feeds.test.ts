import { createHash } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CalendarFeedRow, calendarFeedStore } from '../calendar-feeds.js';
import type { Async } from '../index.js';
import { bothEngines, refusedOnBoth, sameOnBoth, REFUSALS, type BothEngines } from '../../test-helpers/engines.js';
import { testDatabaseUrl } from '../../test-helpers/postgres.js';
import { calendarFeedStorePg } from './calendar-feeds.js';

type Engine = Async<ReturnType<typeof calendarFeedStore>>;


const sha256 = (value: string): Buffer => createHash('sha256').update(value).digest();

describe.skipIf(!testDatabaseUrl())('calendarFeedStorePg answers as the SQLite store does', () => {
  let e: BothEngines;
  let pg: Engine;
  beforeEach(async () => {
    e = await bothEngines();
    pg = calendarFeedStorePg(e.pgDb);
    for (const id of ['org_A', 'org_B']) await plant('organizations', { id, name: id, email: `${id}@example.com`, timezone: 'UTC', created_at: 1, updated_at: 1 });
    await plant('experiences', {
      id: 'exp_1', org_id: 'org_A', name: 'Cruise', description: '', duration: 60, price: 1500, max_participants: 10, created_at: 1, updated_at: 1,
    });
  });
  afterEach(async () => {
    await e.close();
  });

  const plant = (table: string, row: Record<string, unknown>) => e.plant(table, row);

  const same = <T>(call: (s: Engine) => Promise<T>) => sameOnBoth<Engine, T>(e.sqlite, pg, call);

  const bothRefuse = (call: (s: Engine) => Promise<unknown>, why: keyof typeof REFUSALS) => refusedOnBoth<Engine>(e.sqlite, pg, call, why);

  const feed = (id: string, orgId: string, createdAt: number, fields: Partial<CalendarFeedRow> = {}): CalendarFeedRow => ({
    id, orgId, name: `Feed ${id}`, experienceId: null, tokenHash: sha256(id), createdAt, ...fields,
  });

  const ids = (page: { rows: CalendarFeedRow[] }) => page.rows.map((r) => r.id);

  it('keeps feeds, finds them by exact token hash, pages and deletes them', async () => {
    expect(await same((s) => s.listCalendarFeeds('org_A', { limit: 20, offset: 0 }))).toEqual({ rows: [], total: 0 });

    await same((s) => s.insertCalendarFeed(feed('cal_c', 'org_A', 500)));
    await same((s) => s.insertCalendarFeed(feed('cal_b', 'org_A', 500, { experienceId: 'exp_1', name: 'Cruise only' })));
    await same((s) => s.insertCalendarFeed(feed('cal_B', 'org_A', 500)));
    await same((s) => s.insertCalendarFeed(feed('cal_a', 'org_A', 900)));
    await same((s) => s.insertCalendarFeed(feed('cal_d', 'org_A', 100)));
    await same((s) => s.insertCalendarFeed(feed('cal_z', 'org_B', 1)));

    // Oldest first, ties by id byte-wise.
    expect(ids(await same((s) => s.listCalendarFeeds('org_A', { limit: 20, offset: 0 })))).toEqual(['cal_d', 'cal_B', 'cal_b', 'cal_c', 'cal_a']);
    expect(await same((s) => s.listCalendarFeeds('org_A', { limit: 2, offset: 0 }))).toMatchObject({ total: 5 });
    expect(ids(await same((s) => s.listCalendarFeeds('org_A', { limit: 2, offset: 2 })))).toEqual(['cal_b', 'cal_c']);
    expect(await same((s) => s.listCalendarFeeds('org_A', { limit: 2, offset: 6 }))).toEqual({ rows: [], total: 5 });
    expect(ids(await same((s) => s.listCalendarFeeds('org_B', { limit: 1, offset: 0 })))).toEqual(['cal_z']);
    expect(await same((s) => s.listCalendarFeeds('org_missing', { limit: 20, offset: 0 }))).toEqual({ rows: [], total: 0 });

    // The hash comes back as a Buffer and only an identical one finds the feed.
    const found = await same((s) => s.getCalendarFeedByTokenHash(sha256('cal_b')));
    expect(found).toMatchObject({ id: 'cal_b', orgId: 'org_A', experienceId: 'exp_1' });
    expect(Buffer.isBuffer(found?.tokenHash)).toBe(true);
    const near = Buffer.from(sha256('cal_b'));
    near.writeUInt8(near.readUInt8(0) ^ 0x80, 0);
    expect(await same((s) => s.getCalendarFeedByTokenHash(near))).toBeUndefined();
    expect(await same((s) => s.getCalendarFeedByTokenHash(sha256('cal_b').subarray(1)))).toBeUndefined();
    expect(await same((s) => s.getCalendarFeedByTokenHash(Buffer.alloc(0)))).toBeUndefined();

    expect(await same((s) => s.getCalendarFeed('org_A', 'cal_b'))).toMatchObject({ name: 'Cruise only' });
    expect(await same((s) => s.getCalendarFeed('org_B', 'cal_b'))).toBeUndefined(); // another org's
    expect(await same((s) => s.getCalendarFeed('org_A', 'CAL_B'))).toBeUndefined();

    await bothRefuse((s) => s.insertCalendarFeed(feed('cal_e', 'org_A', 1000, { tokenHash: sha256('cal_a') })), 'unique');
    await bothRefuse((s) => s.insertCalendarFeed(feed('cal_a', 'org_B', 1000, { tokenHash: sha256('other') })), 'unique');
    await bothRefuse((s) => s.insertCalendarFeed(feed('cal_f', 'org_A', 1000, { experienceId: 'exp_missing' })), 'foreignKey');
    await bothRefuse((s) => s.insertCalendarFeed(feed('cal_g', 'org_missing', 1000)), 'foreignKey');

    expect(await same((s) => s.deleteCalendarFeed('org_B', 'cal_b'))).toBe(false); // another org's
    expect(await same((s) => s.deleteCalendarFeed('org_A', 'cal_b'))).toBe(true);
    expect(await same((s) => s.deleteCalendarFeed('org_A', 'cal_b'))).toBe(false);
    expect(await same((s) => s.deleteCalendarFeed('org_A', 'cal_missing'))).toBe(false);
    expect(await same((s) => s.getCalendarFeedByTokenHash(sha256('cal_b')))).toBeUndefined();
    expect(ids(await same((s) => s.listCalendarFeeds('org_A', { limit: 3, offset: 1 })))).toEqual(['cal_B', 'cal_c', 'cal_a']);
    expect(await same((s) => s.listCalendarFeeds('org_A', { limit: 3, offset: 1 }))).toMatchObject({ total: 4 });
  });
});
