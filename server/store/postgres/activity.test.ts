import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Async } from '../index.js';
import type { ActivityFilter, ActivityRow, activityStore } from '../activity.js';
import { bothEngines, type BothEngines } from '../../test-helpers/engines.js';
import { testDatabaseUrl } from '../../test-helpers/postgres.js';
import { activityStorePg } from './activity.js';

type Activity = Async<ReturnType<typeof activityStore>>;

/**
 * activity.ts over PostgreSQL, held to its SQLite twin: the same calls on both engines, the same
 * answers (key order included: it is the order of the JSON the API writes).
 */
describe.skipIf(!testDatabaseUrl())('activity store on PostgreSQL', () => {
  let e: BothEngines;
  let pg: Activity;
  beforeEach(async () => {
    e = await bothEngines();
    pg = activityStorePg(e.pgDb);
    for (const org of ['org_a', 'org_b']) {
      await plant('INSERT INTO organizations (id, name, email, timezone, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6)', [
        org, org, `${org}@example.com`, 'Europe/Paris', 1, 1,
      ]);
    }
  });
  afterEach(async () => {
    await e.close();
  });

  /** A row this module does not own, written alike on both engines (`$n` in order of the parameters). */
  async function plant(sql: string, params: unknown[]): Promise<void> {
    e.sqliteDb.prepare(sql.replace(/\$\d+/g, '?')).run(...params);
    await e.pgDb.run(sql, params);
  }

  /** Runs `call` on both engines; the answers must be the same, down to the order of the keys. */
  async function same<T>(call: (store: Activity) => Promise<T>): Promise<T> {
    const expected = await call(e.sqlite);
    const actual = await call(pg);
    expect(actual).toStrictEqual(expected);
    expect(JSON.stringify(actual)).toBe(JSON.stringify(expected));
    return expected;
  }

  /** Both engines refuse, for the same kind of reason: SQLite's constraint code and PostgreSQL's SQLSTATE. */
  async function bothRefuse(call: (store: Activity) => Promise<unknown>, sqlite: RegExp, postgres: string): Promise<void> {
    const codes: unknown[] = [];
    for (const store of [e.sqlite, pg]) {
      const err = await call(store).then(
        () => undefined,
        (error: unknown) => error,
      );
      codes.push((err as { code?: unknown } | undefined)?.code);
    }
    expect(codes[0]).toMatch(sqlite);
    expect(codes[1]).toBe(postgres);
  }

  const entry = (id: string, createdAt: number, more: Partial<ActivityRow> = {}): ActivityRow => ({
    id, orgId: 'org_a', actorType: 'user', actorId: 'usr_a', actorName: 'Ann', action: 'booking.cancelled', targetType: 'booking',
    targetId: 'bkg_1', summary: `Entry ${id}`, ip: '203.0.113.7', createdAt, ...more,
  });

  async function insertAll(rows: ActivityRow[]): Promise<void> {
    for (const row of rows) await same((s) => s.insertActivity(row));
  }

  /** Every page of every size of a filter's list, and one past the end. */
  async function everyPage(orgId: string, filter: ActivityFilter): Promise<void> {
    const { total } = await same((s) => s.listActivity(orgId, filter, { limit: 100, offset: 0 }));
    for (const limit of [1, 2, 3]) {
      for (let offset = 0; offset <= total + limit; offset += limit) await same((s) => s.listActivity(orgId, filter, { limit, offset }));
    }
  }

  const sample = (): ActivityRow[] => [
    // Ids that sort against the insertion order, and instants with ties: the order is the insertion's.
    entry('act_z', 100),
    entry('act_A', 100, { actorType: 'key', actorId: 'key_1', actorName: 'Zapier', targetId: 'bkg_2' }),
    entry('act_m', 100, { actorType: 'guest', actorId: null, actorName: 'Guest', ip: null, targetType: 'booking', targetId: 'bkg_1' }),
    entry('act_b', 200, { actorType: 'system', actorId: null, actorName: 'Outing', ip: null, targetId: 'exp_1', targetType: 'experience' }),
    entry('act_o', 250, { orgId: 'org_b', targetId: 'bkg_1' }),
    entry('act_C', 300, { actorType: 'cli', actorId: null, actorName: 'CLI', targetId: 'bkg_2' }),
    entry('act_d', 300, { targetId: 'bkg_2', summary: 'Zoë’s booking: 2 → 3 places' }),
    entry('act_e', 400),
  ];

  it('lists an organization’s entries newest first, by actor, by target and both, page by page', async () => {
    expect(await same((s) => s.listActivity('org_a', {}, { limit: 10, offset: 0 }))).toEqual({ rows: [], total: 0 });
    await insertAll(sample());
    const all = await same((s) => s.listActivity('org_a', {}, { limit: 100, offset: 0 }));
    expect(all.rows.map((r) => r.id)).toEqual(['act_e', 'act_d', 'act_C', 'act_b', 'act_m', 'act_A', 'act_z']);
    expect(all.total).toBe(7);
    for (const filter of [
      {},
      { actorId: 'usr_a' },
      { actorId: 'key_1' },
      { targetId: 'bkg_1' },
      { targetId: 'bkg_2' },
      { actorId: 'usr_a', targetId: 'bkg_2' },
      { actorId: 'nobody' },
      { targetId: 'nothing' },
    ]) {
      await everyPage('org_a', filter);
    }
    await everyPage('org_b', {});
    expect(await same((s) => s.listActivity('org_a', { actorId: 'usr_a', targetId: 'bkg_1' }, { limit: 1, offset: 5 }))).toEqual({
      rows: [],
      total: 2,
    });
    expect(await same((s) => s.listActivity('org_none', {}, { limit: 10, offset: 0 }))).toEqual({ rows: [], total: 0 });
  });

  it('prunes the entries older than a moment, all of them past the newest, none before the oldest', async () => {
    expect(await same((s) => s.deleteActivityBefore(1000))).toBe(0); // an empty log
    await insertAll(sample());
    expect(await same((s) => s.deleteActivityBefore(100))).toBe(0);
    expect(await same((s) => s.deleteActivityBefore(250))).toBe(4); // before 250, every org's
    await everyPage('org_a', {});
    await everyPage('org_b', {});
    expect(await same((s) => s.deleteActivityBefore(300))).toBe(1); // org_b's entry of 250
    expect(await same((s) => s.deleteActivityBefore(401))).toBe(3); // past the newest: all
    expect(await same((s) => s.listActivity('org_a', {}, { limit: 10, offset: 0 }))).toEqual({ rows: [], total: 0 });
    // New entries go on after the pruned ones, in insertion order.
    await insertAll([entry('act_q', 500), entry('act_p', 500)]);
    await everyPage('org_a', {});
  });

  it('prunes by the sequence: an entry out of time order goes with the entries written before the first young one', async () => {
    await insertAll([entry('act_1', 100), entry('act_2', 300), entry('act_3', 150), entry('act_4', 200)]);
    // The first entry at or after 200 is act_2: act_1 goes, act_3 (150) stays behind it.
    expect(await same((s) => s.deleteActivityBefore(200))).toBe(1);
    await everyPage('org_a', {});
  });

  it('refuses a second entry with the same id, an unknown actor type and an unknown organization', async () => {
    await insertAll([entry('act_1', 100)]);
    await bothRefuse((s) => s.insertActivity(entry('act_1', 200)), /^SQLITE_CONSTRAINT_UNIQUE$/, '23505');
    await bothRefuse((s) => s.insertActivity(entry('act_2', 200, { actorType: 'robot' as ActivityRow['actorType'] })), /^SQLITE_CONSTRAINT_CHECK$/, '23514');
    await bothRefuse((s) => s.insertActivity(entry('act_3', 200, { orgId: 'org_none' })), /^SQLITE_CONSTRAINT_FOREIGNKEY$/, '23503');
    await everyPage('org_a', {});
  });

  it('drops an organization’s entries with it', async () => {
    await insertAll(sample());
    await plant('DELETE FROM organizations WHERE id = $1', ['org_b']);
    await everyPage('org_b', {});
    await everyPage('org_a', {});
  });
});
