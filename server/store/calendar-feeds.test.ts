import { createHash } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Store } from './index.js';
import type { CalendarFeedRow } from './calendar-feeds.js';
import { testEngine, openStoreWithTwoOrganizations, insertExperienceRow } from '../test-helpers/index.js';
import { REFUSALS } from '../test-helpers/engines.js';

const sha256 = (value: string): Buffer => createHash('sha256').update(value).digest();

describe(`calendar feed store (${testEngine()})`, () => {
  let close: () => Promise<void>;
  let store: Store;
  let orgA: string;
  let orgB: string;
  beforeEach(async () => {
    ({ store, close, orgA, orgB } = await openStoreWithTwoOrganizations());
    // A new organization comes with a feed of everything: out of the way, so the lists below are the test's own.
    for (const org of [orgA, orgB]) {
      for (const feed of (await store.calendarFeeds.listCalendarFeeds(org, { limit: 10, offset: 0 })).rows) {
        await store.calendarFeeds.deleteCalendarFeed(org, feed.id);
      }
    }
    await insertExperienceRow(store, orgA);
  });
  afterEach(async () => {
    await close();
  });

  const feed = (id: string, orgId: string, createdAt: number, fields: Partial<CalendarFeedRow> = {}): CalendarFeedRow => ({
    id, orgId, name: `Feed ${id}`, experienceId: null, tokenHash: sha256(id), createdAt, ...fields,
  });
  const ids = (page: { rows: CalendarFeedRow[] }) => page.rows.map((r) => r.id);
  const refusal = (why: keyof typeof REFUSALS) => ({ code: testEngine() === 'sqlite' ? expect.stringMatching(REFUSALS[why].sqlite) : REFUSALS[why].pg });

  it('pages an org’s feeds oldest first, ties by id byte-wise, with the total', async () => {
    const f = store.calendarFeeds;
    expect(await f.listCalendarFeeds(orgA, { limit: 20, offset: 0 })).toEqual({ rows: [], total: 0 });
    await f.insertCalendarFeed(feed('cal_c', orgA, 500));
    await f.insertCalendarFeed(feed('cal_b', orgA, 500, { experienceId: 'exp_1', name: 'Cruise only' }));
    await f.insertCalendarFeed(feed('cal_B', orgA, 500));
    await f.insertCalendarFeed(feed('cal_a', orgA, 900));
    await f.insertCalendarFeed(feed('cal_d', orgA, 100));
    await f.insertCalendarFeed(feed('cal_z', orgB, 1));

    expect(ids(await f.listCalendarFeeds(orgA, { limit: 20, offset: 0 }))).toEqual(['cal_d', 'cal_B', 'cal_b', 'cal_c', 'cal_a']);
    expect(await f.listCalendarFeeds(orgA, { limit: 2, offset: 0 })).toMatchObject({ total: 5 });
    expect(ids(await f.listCalendarFeeds(orgA, { limit: 2, offset: 2 }))).toEqual(['cal_b', 'cal_c']);
    expect(await f.listCalendarFeeds(orgA, { limit: 2, offset: 6 })).toEqual({ rows: [], total: 5 });
    expect(await f.listCalendarFeeds(orgB, { limit: 1, offset: 0 })).toStrictEqual({ rows: [feed('cal_z', orgB, 1)], total: 1 });
    expect(await f.listCalendarFeeds('org_missing', { limit: 20, offset: 0 })).toEqual({ rows: [], total: 0 });
  });

  it('finds a feed by the exact bytes of its token hash, and by id within its org only', async () => {
    const f = store.calendarFeeds;
    await f.insertCalendarFeed(feed('cal_b', orgA, 500, { experienceId: 'exp_1', name: 'Cruise only' }));
    const found = await f.getCalendarFeedByTokenHash(sha256('cal_b'));
    expect(found).toStrictEqual(feed('cal_b', orgA, 500, { experienceId: 'exp_1', name: 'Cruise only' }));
    expect(Buffer.isBuffer(found?.tokenHash)).toBe(true);
    const near = Buffer.from(sha256('cal_b'));
    near.writeUInt8(near.readUInt8(0) ^ 0x80, 0);
    expect(await f.getCalendarFeedByTokenHash(near)).toBeUndefined();
    expect(await f.getCalendarFeedByTokenHash(sha256('cal_b').subarray(1))).toBeUndefined();
    expect(await f.getCalendarFeedByTokenHash(Buffer.alloc(0))).toBeUndefined();

    expect(await f.getCalendarFeed(orgA, 'cal_b')).toMatchObject({ name: 'Cruise only' });
    expect(await f.getCalendarFeed(orgB, 'cal_b')).toBeUndefined(); // another org's
    expect(await f.getCalendarFeed(orgA, 'CAL_B')).toBeUndefined();
  });

  it('refuses a taken token hash or id and unknown references', async () => {
    const f = store.calendarFeeds;
    await f.insertCalendarFeed(feed('cal_a', orgA, 500));
    await expect(f.insertCalendarFeed(feed('cal_e', orgA, 1000, { tokenHash: sha256('cal_a') }))).rejects.toMatchObject(refusal('unique'));
    await expect(f.insertCalendarFeed(feed('cal_a', orgB, 1000, { tokenHash: sha256('other') }))).rejects.toMatchObject(refusal('unique'));
    await expect(f.insertCalendarFeed(feed('cal_f', orgA, 1000, { experienceId: 'exp_missing' }))).rejects.toMatchObject(refusal('foreignKey'));
    await expect(f.insertCalendarFeed(feed('cal_g', 'org_missing', 1000))).rejects.toMatchObject(refusal('foreignKey'));
    expect(ids(await f.listCalendarFeeds(orgA, { limit: 20, offset: 0 }))).toEqual(['cal_a']);
  });

  it('deletes a feed of its own org once, answering whether it did', async () => {
    const f = store.calendarFeeds;
    await f.insertCalendarFeed(feed('cal_a', orgA, 100));
    await f.insertCalendarFeed(feed('cal_b', orgA, 200));
    expect(await f.deleteCalendarFeed(orgB, 'cal_b')).toBe(false); // another org's
    expect(await f.deleteCalendarFeed(orgA, 'cal_b')).toBe(true);
    expect(await f.deleteCalendarFeed(orgA, 'cal_b')).toBe(false);
    expect(await f.deleteCalendarFeed(orgA, 'cal_missing')).toBe(false);
    expect(await f.getCalendarFeedByTokenHash(sha256('cal_b'))).toBeUndefined();
    expect(await f.listCalendarFeeds(orgA, { limit: 3, offset: 0 })).toMatchObject({ total: 1, rows: [{ id: 'cal_a' }] });
  });
});
