import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Store } from './index.js';
import { createStore } from './sqlite/store.js';
import { connect, migrate, openDatabase, type Db } from './sqlite/db.js';
import { bothEngines, type BothEngines } from '../test-helpers/engines.js';
import { testDatabaseUrl } from '../test-helpers/postgres.js';
import { tempDir } from '../test-helpers/cli.js';
import { createPostgresStore } from './postgres/index.js';

// Nested transactions skip the savepoint when the level above has a clean one to share (Anchor, in
// store/gate.ts for SQLite and store/postgres/db.ts for PostgreSQL). Whatever savepoints are taken,
// every nesting must keep and undo exactly the writes that one savepoint per level would: each
// scenario states the rows it leaves, and runs on SQLite and (with the test cluster) PostgreSQL.

const KEYS = ['a', 'b', 'c', 'd', 'e', 'f'];

async function snapshot(store: Store): Promise<Record<string, string | undefined>> {
  return Object.fromEntries(await Promise.all(KEYS.map(async (k) => [k, await store.settings.getSetting(`t.${k}`)] as const)));
}

const set = (store: Store, key: string) => store.settings.setSetting(`t.${key}`, key);
const failing = (store: Store, key: string) =>
  store.transaction(async () => {
    await set(store, key);
    throw new Error(`undo ${key}`);
  });
const swallow = async (work: Promise<unknown>) => {
  await work.catch(() => undefined);
};

/** Each scenario, and the keys it leaves written. */
const SCENARIOS: Record<string, (s: Store) => Promise<void>> = {
  'a failed inner transaction, caught: the outer one keeps its own writes': async (s) =>
    await s.transaction(async () => {
      await set(s, 'a');
      await swallow(failing(s, 'b'));
      await set(s, 'c');
    }),
  'a failed transaction nested in a clean one, caught by the clean one, which goes on': async (s) =>
    await s.transaction(async () => {
      await s.transaction(async () => {
        await s.transaction(async () => {
          await swallow(failing(s, 'a'));
          await set(s, 'b');
        });
        await set(s, 'c');
      });
    }),
  'two failures in a row at one level, then a write that stays': async (s) =>
    await s.transaction(async () => {
      await s.transaction(async () => {
        await swallow(failing(s, 'a'));
        await swallow(failing(s, 'b'));
        await set(s, 'c');
      });
    }),
  'a success, then a failure, at one level: the success stays': async (s) =>
    await s.transaction(async () => {
      await s.transaction(async () => {
        await s.transaction(async () => await set(s, 'a'));
        await swallow(failing(s, 'b'));
        await set(s, 'c');
      });
    }),
  'a failure deep inside, caught two levels up: everything below is undone': async (s) =>
    await s.transaction(async () => {
      await set(s, 'a');
      await swallow(
        s.transaction(async () => {
          await s.transaction(async () => {
            await set(s, 'b');
            await failing(s, 'c');
          });
        }),
      );
      await set(s, 'd');
    }),
  'a failed statement (a broken constraint) inside a shared savepoint, caught': async (s) =>
    await s.transaction(async () => {
      await s.transaction(async () => {
        await swallow(
          s.transaction(async () => {
            await set(s, 'a');
            await brokenWrite(s);
          }),
        );
        await set(s, 'e');
      });
    }),
  'reads between a savepoint and a failure caught below it: the failed writes alone are undone': async (s) =>
    await s.transaction(async () => {
      await s.transaction(async () => {
        await s.settings.getSetting('t.a');
        await swallow(failing(s, 'a'));
        await s.settings.getSetting('t.a');
        await set(s, 'b');
        await s.transaction(async () => {
          await s.settings.getSetting('t.b');
          await swallow(failing(s, 'c'));
          await set(s, 'd');
        });
      });
    }),
  'a write after the last read of a level, then a failure caught below it: the write stays': async (s) =>
    await s.transaction(async () => {
      await s.transaction(async () => {
        await s.settings.getSetting('t.a');
        await set(s, 'a');
        await s.settings.getSetting('t.a');
        await swallow(failing(s, 'b'));
      });
    }),
  'a failure that nobody catches rolls the whole transaction back': async (s) =>
    await swallow(
      s.transaction(async () => {
        await set(s, 'a');
        await s.transaction(async () => await s.transaction(async () => await failing(s, 'b')));
      }),
    ),
};

const KEPT: Record<keyof typeof SCENARIOS, string> = {
  'a failed inner transaction, caught: the outer one keeps its own writes': 'a c',
  'a failed transaction nested in a clean one, caught by the clean one, which goes on': 'b c',
  'two failures in a row at one level, then a write that stays': 'c',
  'a success, then a failure, at one level: the success stays': 'a c',
  'a failure deep inside, caught two levels up: everything below is undone': 'a d',
  'a failed statement (a broken constraint) inside a shared savepoint, caught': 'e',
  'reads between a savepoint and a failure caught below it: the failed writes alone are undone': 'b d',
  'a write after the last read of a level, then a failure caught below it: the write stays': 'a',
  'a failure that nobody catches rolls the whole transaction back': '',
};

/** The snapshot a scenario must leave: its kept keys written, every other one still empty. */
function expected(name: string): Record<string, string> {
  const kept = new Set(KEPT[name]!.split(' '));
  return Object.fromEntries(KEYS.map((k) => [k, kept.has(k) ? k : '']));
}

async function runScenario(store: Store, name: string): Promise<void> {
  for (const k of KEYS) await store.settings.setSetting(`t.${k}`, '');
  await SCENARIOS[name]!(store);
  expect(await snapshot(store)).toStrictEqual(expected(name));
}

describe('nested transactions on SQLite', () => {
  let dir: string;
  let statements: string[];
  let store: Store;
  let db: Db;
  beforeEach(() => {
    dir = tempDir();
    const file = join(dir, 'outing.db');
    const setup = openDatabase(file);
    migrate(setup);
    setup.close();
    statements = [];
    db = connect(file, { verbose: (sql) => statements.push(String(sql)) });
    store = createStore(db);
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  for (const name of Object.keys(SCENARIOS)) it(name, async () => await runScenario(store, name));

  it('keeps the statement journal of its savepoints in memory, not in temporary files', () => {
    expect(db.pragma('temp_store', { simple: true })).toBe(2); // MEMORY
  });

  it('takes a savepoint only for a level whose parent has written since its own', async () => {
    statements.length = 0;
    await store.transaction(async () =>
      // A savepoint: the outermost level has none to share.
      store.transaction(async () =>
        // Shares the one above, clean.
        store.transaction(async () => {
          await set(store, 'a');
          // A savepoint: the level above has written; the one inside shares it.
          await store.transaction(async () => store.transaction(async () => await set(store, 'b')));
        }),
      ),
    );
    expect(statements.filter((sql) => sql.startsWith('SAVEPOINT'))).toHaveLength(2);
    expect(statements.filter((sql) => sql.startsWith('RELEASE'))).toHaveLength(2);
    expect(await snapshot(store)).toMatchObject({ a: 'a', b: 'b' });
  });

  it('lets a level share a savepoint that has only been read under', async () => {
    statements.length = 0;
    await store.transaction(async () =>
      store.transaction(async () => {
        await store.settings.getSetting('t.a');
        await store.transaction(async () => await set(store, 'a'));
      }),
    );
    expect(statements.filter((sql) => sql.startsWith('SAVEPOINT'))).toHaveLength(1);
  });
});

describe.skipIf(!testDatabaseUrl())('nested transactions on PostgreSQL', () => {
  let e: BothEngines;
  let pg: Store;
  beforeEach(async () => {
    e = await bothEngines();
    pg = createPostgresStore(e.pgDb);
  });
  afterEach(async () => await e.close());

  for (const name of Object.keys(SCENARIOS)) it(name, async () => await runScenario(pg, name));
});

/** A statement the database refuses (CHECK booked >= 0), which leaves a PostgreSQL transaction aborted until rolled back. */
async function brokenWrite(store: Store): Promise<void> {
  await store.bookings.takePlaces('exp_x', 1, -5, 10);
}
