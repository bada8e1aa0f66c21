import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Store } from '../store/index.js';
import { createStore, openStore } from '../store/sqlite/store.js';
import { connect, migrate, openDatabase } from '../store/sqlite/db.js';
import { openPostgresStore } from '../store/postgres/index.js';
import { testEngine } from '../test-helpers/index.js';
import { leaseMigratedDatabase, type TestDatabase } from '../test-helpers/postgres.js';
import { GroupCommit } from './group-commit.js';

describe('GroupCommit', () => {
  let dir: string;
  let database: TestDatabase | undefined;
  let store: Store;
  let other: Store; // a second connection (pool), as another process would see the database
  let writes: GroupCommit;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'outing-group-commit-'));
    if (testEngine() === 'postgres') {
      database = await leaseMigratedDatabase();
      store = await openPostgresStore(database.url, { poolSize: 2 });
      other = await openPostgresStore(database.url, { poolSize: 2 });
    } else {
      store = openStore(join(dir, 'o.db'));
      other = openStore(join(dir, 'o.db'));
    }
    writes = new GroupCommit(store);
  });
  afterEach(async () => {
    await store.close();
    await other.close();
    await database?.drop();
    database = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  it('runs jobs that arrive together in one transaction, in order, each seeing the earlier ones', async () => {
    const seenByOthers: (string | undefined)[] = [];
    const results = await Promise.all(
      [1, 2, 3].map((n) =>
        writes.run(async () => {
          await store.settings.setSetting(`job.${n}`, String(n));
          seenByOthers.push(await other.settings.getSetting('job.1'));
          return await store.settings.getSetting(`job.${n - 1}`) ?? 'none';
        }),
      ),
    );
    expect(results).toEqual(['none', '1', '2']);
    // SQLite: until the shared commit, another connection saw none of it. PostgreSQL runs each job
    // as a transaction of its own (a batch holding several jobs' row locks could deadlock with
    // another: store/sql.ts, `alone`), so the next job's neighbours see it committed.
    expect(seenByOthers).toEqual(testEngine() === 'postgres' ? [undefined, '1', '1'] : [undefined, undefined, undefined]);
    expect(await Promise.all(['job.1', 'job.2', 'job.3'].map((k) => other.settings.getSetting(k)))).toEqual(['1', '2', '3']);
  });

  it('answers only once the work is committed and visible to other connections', async () => {
    await writes.run(async () => await store.settings.setSetting('durable', 'yes'));
    expect(await other.settings.getSetting('durable')).toBe('yes');
  });

  it('rolls back a job that throws, alone, and rejects it with its own error', async () => {
    const outcomes = await Promise.allSettled([
      writes.run(async () => await store.settings.setSetting('a', '1')),
      writes.run(async () => {
        await store.settings.setSetting('b', '2');
        throw new Error('refused');
      }),
      writes.run(async () => await store.settings.setSetting('c', '3')),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((outcomes[1] as PromiseRejectedResult).reason).toEqual(new Error('refused'));
    expect(await Promise.all(['a', 'b', 'c'].map((k) => other.settings.getSetting(k)))).toEqual(['1', undefined, '3']);
  });

  it('runs each job once, also when another job of its batch fails: a side effect counts one run each', async () => {
    const runs = [0, 0, 0];
    const outcomes = await Promise.allSettled(
      ['a', 'b', 'c'].map((key, i) =>
        writes.run(async () => {
          runs[i]!++;
          await store.settings.setSetting(key, String(i));
          if (key === 'b') throw new Error('refused');
          return key;
        }),
      ),
    );
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(await Promise.all(['a', 'b', 'c'].map((k) => other.settings.getSetting(k)))).toEqual(['0', undefined, '2']);
    expect(runs).toEqual([1, 1, 1]);
  });

  it('keeps the writes of a job around a failure it caught (an Idempotency-Key saving a refusal)', async () => {
    const outcomes = await Promise.all([
      writes.run(async () => await store.settings.setSetting('before', 'kept')),
      writes.run(async () => {
        // Nothing written yet at the job's level: this nested transaction takes no savepoint of its own.
        const refused = await store
          .transaction(async () => {
            await store.settings.setSetting('booking', 'half-made');
            throw new Error('slot full');
          })
          .catch((err: Error) => err.message);
        await store.settings.setSetting('reply', refused);
        return refused;
      }),
      writes.run(async () => await store.settings.setSetting('after', 'kept')),
    ]);
    expect(outcomes[1]).toBe('slot full');
    expect(await Promise.all(['before', 'booking', 'reply', 'after'].map((k) => other.settings.getSetting(k)))).toEqual(['kept', undefined, 'slot full', 'kept']);
  });

  it('runs each job of a batch that follows a failure once too', async () => {
    const batch = async (failing: string) => {
      const runs = [0, 0];
      await Promise.allSettled(
        ['x', 'y'].map((key, i) =>
          writes.run(async () => {
            runs[i]!++;
            await store.settings.setSetting(key, failing);
            if (key === failing) throw new Error('refused');
          }),
        ),
      );
      return runs;
    };
    expect(await batch('x')).toEqual([1, 1]);
    expect(await batch('y')).toEqual([1, 1]);
    expect(await other.settings.getSetting('x')).toBe('y');
    expect(await other.settings.getSetting('y')).toBe('x');
  });

  it('takes later arrivals in the next commit', async () => {
    const first = writes.run(async () => await store.settings.setSetting('x', '1'));
    await first;
    const second = await writes.run(async () => {
      await store.settings.setSetting('x', '2');
      return await other.settings.getSetting('x');
    });
    expect(second).toBe('1');
    expect(await other.settings.getSetting('x')).toBe('2');
  });

  it('splits a very large burst into several commits without losing any job', async () => {
    const all = await Promise.all(Array.from({ length: 600 }, (_, i) => writes.run(async () => (await store.settings.setSetting(`k${i}`, String(i)), i))));
    expect(all).toEqual(Array.from({ length: 600 }, (_, i) => i));
    expect(await other.settings.getSetting('k599')).toBe('599');
  });
});

describe.skipIf(testEngine() !== 'sqlite')('GroupCommit on SQLite, savepoints', () => {
  let dir: string;
  let statements: string[];
  let store: Store;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'outing-group-commit-'));
    const file = join(dir, 'o.db');
    const setup = openDatabase(file);
    migrate(setup);
    setup.close();
    statements = [];
    store = createStore(connect(file, { verbose: (sql) => statements.push(String(sql)) }));
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('takes one savepoint per job, which the job\'s nested transactions share while it is clean, and commits once', async () => {
    const writes = new GroupCommit(store);
    await Promise.all(['a', 'b', 'c'].map((k) => writes.run(async () => {
      await store.settings.getSetting(k);
      await store.transaction(async () => await store.settings.setSetting(k, k));
    })));
    expect(statements.filter((sql) => sql.startsWith('SAVEPOINT'))).toHaveLength(3);
    expect(statements.filter((sql) => sql === 'COMMIT')).toHaveLength(1);
  });
});
