import type { Store, StoreParts } from '../index.js';
import { connectPostgres, migratePostgres, type PgDb } from './db.js';
import { slicesOver } from '../slices.js';
import { postgresSql } from './driver.js';

/**
 * The PostgreSQL store: the table modules (written once, store/slices.ts) over this driver, on a pool
 * shared by the process. The store's own suite (server/store/*.test.ts) runs on both engines.
 */
export function createPostgresStore(db: PgDb): Store {
  const parts: StoreParts = {
    ...slicesOver(postgresSql(db)),
  };
  // An Idempotency-Key's check and saved reply need none of the write lock: the key's own lock,
  // held from the check to the commit, keeps a second request under the key (from any process)
  // waiting until the first is saved, whatever kind of transaction runs between them. The reply
  // travels with the COMMIT.
  const idempotency = parts.idempotency;
  parts.idempotency = {
    ...idempotency,
    getIdempotentResponse: (orgId, key) =>
      db.unlocked(async () => {
        db.lockKey(`idempotency ${orgId} ${key}`);
        return await idempotency.getIdempotentResponse(orgId, key);
      }),
    saveIdempotentResponse: (row) => db.unlocked(() => db.later(() => idempotency.saveIdempotentResponse(row))),
  };
  let marker = 0;
  let closed: Promise<void> | undefined;
  return {
    ...parts,
    engine: 'postgres',
    // A group commit's job (`alone`) is a transaction of its own here: PostgreSQL commits
    // transactions side by side, and a batch holding several jobs' row locks could deadlock with
    // another (postgres/db.ts, `independent`).
    transaction: (work, options) => db.transaction(work, options?.lock, options?.alone === true),
    later: (work) => db.later(work),
    // Other processes write too, and no cheap marker sees their commits: never reuse an answer.
    changeMarker: async () => `pg:${++marker}`,
    async ping() {
      await db.pool.query('SELECT 1');
    },
    async backupTo() {
      throw new Error('A PostgreSQL database is backed up with pg_dump');
    },
    close: () => (closed ??= db.pool.end()),
  };
}

/** Connects, applies the migrations not yet applied (safe when several processes start at once), and answers the store. */
export async function openPostgresStore(url: string, options: { poolSize?: number } = {}): Promise<Store> {
  const db = connectPostgres(url, { max: options.poolSize });
  try {
    await migratePostgres(db);
  } catch (err) {
    await db.pool.end();
    throw err;
  }
  return createPostgresStore(db);
}
