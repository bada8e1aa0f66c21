import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Store } from './index.js';
import type { ActivityFilter, ActivityRow } from './activity.js';
import { testEngine, openStoreWithTwoOrganizations } from '../test-helpers/index.js';
import { REFUSALS } from '../test-helpers/engines.js';

describe(`activity store (${testEngine()})`, () => {
  let close: () => Promise<void>;
  let store: Store;
  let orgA: string;
  let orgB: string;
  beforeEach(async () => {
    ({ store, close, orgA, orgB } = await openStoreWithTwoOrganizations());
    // Creating an organization logs its first keys and feed: out of the way, so the log is the test's own.
    await store.activity.deleteActivityBefore(Number.MAX_SAFE_INTEGER);
  });
  afterEach(async () => {
    await close();
  });

  const entry = (id: string, createdAt: number, more: Partial<ActivityRow> = {}): ActivityRow => ({
    id, orgId: orgA, actorType: 'user', actorId: 'usr_a', actorName: 'Ann', action: 'booking.cancelled', targetType: 'booking',
    targetId: 'bkg_1', summary: `Entry ${id}`, ip: '203.0.113.7', createdAt, ...more,
  });
  const insertAll = async (rows: ActivityRow[]) => {
    for (const row of rows) await store.activity.insertActivity(row);
  };
  const list = (orgId: string, filter: ActivityFilter, limit = 100, offset = 0) => store.activity.listActivity(orgId, filter, { limit, offset });
  const ids = async (orgId: string, filter: ActivityFilter = {}) => (await list(orgId, filter)).rows.map((r) => r.id);
  const refusal = (why: keyof typeof REFUSALS) => ({ code: testEngine() === 'sqlite' ? expect.stringMatching(REFUSALS[why].sqlite) : REFUSALS[why].pg });

  // Ids that sort against the insertion order, and instants with ties: the order is the insertion's.
  const sample = (): ActivityRow[] => [
    entry('act_z', 100),
    entry('act_A', 100, { actorType: 'key', actorId: 'key_1', actorName: 'Zapier', targetId: 'bkg_2' }),
    entry('act_m', 100, { actorType: 'guest', actorId: null, actorName: 'Guest', ip: null }),
    entry('act_b', 200, { actorType: 'system', actorId: null, actorName: 'Outing', ip: null, targetId: 'exp_1', targetType: 'experience' }),
    entry('act_o', 250, { orgId: orgB }),
    entry('act_C', 300, { actorType: 'cli', actorId: null, actorName: 'CLI', targetId: 'bkg_2' }),
    entry('act_d', 300, { targetId: 'bkg_2', summary: 'Zoë’s booking: 2 → 3 places' }),
    entry('act_e', 400),
  ];

  it('lists an organization’s entries newest written first, by actor, by target and both, with the total', async () => {
    expect(await list(orgA, {})).toEqual({ rows: [], total: 0 });
    await insertAll(sample());
    expect(await ids(orgA)).toEqual(['act_e', 'act_d', 'act_C', 'act_b', 'act_m', 'act_A', 'act_z']);
    expect(await ids(orgA, { actorId: 'usr_a' })).toEqual(['act_e', 'act_d', 'act_z']);
    expect(await ids(orgA, { actorId: 'key_1' })).toEqual(['act_A']);
    expect(await ids(orgA, { targetId: 'bkg_1' })).toEqual(['act_e', 'act_m', 'act_z']);
    expect(await ids(orgA, { targetId: 'bkg_2' })).toEqual(['act_d', 'act_C', 'act_A']);
    expect(await ids(orgA, { actorId: 'usr_a', targetId: 'bkg_2' })).toEqual(['act_d']);
    expect(await list(orgA, { actorId: 'nobody' })).toEqual({ rows: [], total: 0 });
    expect(await list(orgA, { targetId: 'nothing' })).toEqual({ rows: [], total: 0 });
    expect(await ids(orgB)).toEqual(['act_o']);
    expect(await list('org_none', {})).toEqual({ rows: [], total: 0 });

    // Every field as written, key for key.
    const [d] = (await list(orgA, { targetId: 'bkg_2' }, 1)).rows;
    expect(d).toStrictEqual(entry('act_d', 300, { targetId: 'bkg_2', summary: 'Zoë’s booking: 2 → 3 places' }));
    expect(Object.keys(d!)).toEqual(Object.keys(entry('act_d', 300)));
    expect((await list(orgA, {}, 10, 0)).rows.find((r) => r.id === 'act_m')).toStrictEqual(sample()[2]);
  });

  it('pages every filter with its total, an empty page past the end keeping the total', async () => {
    await insertAll(sample());
    expect(await list(orgA, {}, 3, 0)).toMatchObject({ total: 7, rows: [{ id: 'act_e' }, { id: 'act_d' }, { id: 'act_C' }] });
    expect(await list(orgA, {}, 3, 3)).toMatchObject({ total: 7, rows: [{ id: 'act_b' }, { id: 'act_m' }, { id: 'act_A' }] });
    expect(await list(orgA, {}, 3, 6)).toMatchObject({ total: 7, rows: [{ id: 'act_z' }] });
    expect(await list(orgA, {}, 3, 7)).toEqual({ rows: [], total: 7 });
    expect(await list(orgA, { actorId: 'usr_a' }, 2, 1)).toMatchObject({ total: 3, rows: [{ id: 'act_d' }, { id: 'act_z' }] });
    expect(await list(orgA, { actorId: 'usr_a', targetId: 'bkg_1' }, 1, 5)).toEqual({ rows: [], total: 2 });
  });

  it('prunes the entries older than a moment, every org’s, all of them past the newest', async () => {
    expect(await store.activity.deleteActivityBefore(1000)).toBe(0); // an empty log
    await insertAll(sample());
    expect(await store.activity.deleteActivityBefore(100)).toBe(0);
    expect(await store.activity.deleteActivityBefore(250)).toBe(4);
    expect(await ids(orgA)).toEqual(['act_e', 'act_d', 'act_C']);
    expect(await ids(orgB)).toEqual(['act_o']);
    expect(await store.activity.deleteActivityBefore(300)).toBe(1); // orgB's entry of 250
    expect(await store.activity.deleteActivityBefore(401)).toBe(3); // past the newest: all
    expect(await list(orgA, {})).toEqual({ rows: [], total: 0 });
    // New entries go on after the pruned ones, in insertion order.
    await insertAll([entry('act_q', 500), entry('act_p', 500)]);
    expect(await ids(orgA)).toEqual(['act_p', 'act_q']);
  });

  it('prunes by the order of writing: an entry out of time order goes with those written before the first young one', async () => {
    await insertAll([entry('act_1', 100), entry('act_2', 300), entry('act_3', 150), entry('act_4', 200)]);
    // The first entry at or after 200 is act_2: act_1 goes, act_3 (150) stays behind it.
    expect(await store.activity.deleteActivityBefore(200)).toBe(1);
    expect(await ids(orgA)).toEqual(['act_4', 'act_3', 'act_2']);
  });

  it('refuses a second entry with the same id, an unknown actor type and an unknown organization', async () => {
    await insertAll([entry('act_1', 100)]);
    await expect(store.activity.insertActivity(entry('act_1', 200))).rejects.toMatchObject(refusal('unique'));
    await expect(store.activity.insertActivity(entry('act_2', 200, { actorType: 'robot' as ActivityRow['actorType'] }))).rejects.toMatchObject(refusal('check'));
    await expect(store.activity.insertActivity(entry('act_3', 200, { orgId: 'org_none' }))).rejects.toMatchObject(refusal('foreignKey'));
    expect(await list(orgA, {})).toMatchObject({ total: 1, rows: [{ id: 'act_1' }] });
  });
});
