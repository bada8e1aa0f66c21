import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '../index.js';
import { bothEngines, type BothEngines } from '../../test-helpers/engines.js';
import { testDatabaseUrl } from '../../test-helpers/postgres.js';
import { createPostgresStore } from './index.js';

// Nested transactions on PostgreSQL skip the savepoint when the level above has a clean one to
// share (store/postgres/db.ts, Anchor). Whatever savepoints are taken, every nesting must roll back
// and keep exactly what SQLite's real savepoints do: each scenario runs on both and the rows compare.

const KEYS = ['a', 'b', 'c', 'd', 'e', 'f'];

async function snapshot(store: Store): Promise<Record<string, string | undefined>> {
  return Object.fromEntries(await Promise.all(KEYS.map(async (k) => [k, await store.getSetting(`t.${k}`)] as const)));
}

const set = (store: Store, key: string) => store.setSetting(`t.${key}`, key);
const failing = (store: Store, key: string) =>
  store.transaction(async () => {
    await set(store, key);
    throw new Error(`undo ${key}`);
  });
const swallow = async (work: Promise<unknown>) => {
  await work.catch(() => undefined);
};

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
  'a failure that nobody catches rolls the whole transaction back': async (s) =>
    await swallow(
      s.transaction(async () => {
        await set(s, 'a');
        await s.transaction(async () => await s.transaction(async () => await failing(s, 'b')));
      }),
    ),
};

describe.skipIf(!testDatabaseUrl())('PostgreSQL nested transactions, held to SQLite’s savepoints', () => {
  let e: BothEngines;
  let pg: Store;
  beforeEach(async () => {
    e = await bothEngines();
    pg = createPostgresStore(e.pgDb);
  });
  afterEach(async () => await e.close());

  for (const [name, scenario] of Object.entries(SCENARIOS)) {
    it(name, async () => {
      for (const store of [e.sqlite, pg]) {
        for (const k of KEYS) await store.setSetting(`t.${k}`, '');
      }
      await scenario(e.sqlite);
      await scenario(pg);
      const expected = await snapshot(e.sqlite);
      expect(await snapshot(pg)).toStrictEqual(expected);
    });
  }
});

/** A statement the database refuses (NOT NULL), which leaves a PostgreSQL transaction aborted until rolled back. */
async function brokenWrite(store: Store): Promise<void> {
  await store.saveIdempotentResponse({
    orgId: 'org_x', key: 'broken', fingerprint: null as unknown as string, responseStatus: 201, responseBody: '{}', createdAt: 1,
  });
}
