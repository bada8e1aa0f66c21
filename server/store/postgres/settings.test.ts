import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Async } from '../index.js';
import type { settingsStore } from '../settings.js';
import { bothEngines, type BothEngines } from '../../test-helpers/engines.js';
import { testDatabaseUrl } from '../../test-helpers/postgres.js';
import { settingsStorePg } from './settings.js';

type Settings = Async<ReturnType<typeof settingsStore>>;

describe.skipIf(!testDatabaseUrl())('PostgreSQL settings store, held to SQLite’s', () => {
  let e: BothEngines;
  let pg: Settings;
  beforeEach(async () => {
    e = await bothEngines();
    pg = settingsStorePg(e.pgDb);
  });
  afterEach(async () => await e.close());

  /** The same call on both engines: both answer, and alike. */
  async function same<T>(call: (s: Settings) => Promise<T>): Promise<T> {
    const expected = await call(e.sqlite);
    expect(await call(pg)).toStrictEqual(expected);
    return expected;
  }

  it('reads, writes and overwrites settings alike', async () => {
    await same((s) => s.getSetting('demo_org'));
    await same((s) => s.setSetting('demo_org', 'org_A'));
    await same((s) => s.setSetting('Demo_org', ''));
    expect(await same((s) => s.getSetting('demo_org'))).toBe('org_A');
    expect(await same((s) => s.getSetting('Demo_org'))).toBe(''); // keys are case-sensitive; empty is a value
    await same((s) => s.setSetting('demo_org', 'org_B'));
    expect(await same((s) => s.getSetting('demo_org'))).toBe('org_B');
    // No value is refused alike (NOT NULL), and the setting keeps its value.
    await expect(e.sqlite.setSetting('demo_org', null as unknown as string)).rejects.toThrow();
    await expect(pg.setSetting('demo_org', null as unknown as string)).rejects.toThrow();
    await same((s) => s.getSetting('demo_org'));
  });
});
