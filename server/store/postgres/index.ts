import type { Store, StoreParts } from '../index.js';
import { connectPostgres, migratePostgres, type PgDb } from './db.js';
import { organizationStorePg } from './organizations.js';
import { apiKeyStorePg } from './api-keys.js';
import { experienceStorePg } from './experiences.js';
import { customerStorePg } from './customers.js';
import { idempotencyStorePg } from './idempotency.js';
import { calendarFeedStorePg } from './calendar-feeds.js';
import { settingsStorePg } from './settings.js';
import { webhookStorePg } from './webhooks.js';
import { calendarImportStorePg } from './calendar-imports.js';
import { paymentStorePg } from './payments.js';
import { manifestStorePg } from './manifest.js';
import { reportStorePg } from './reports.js';
import { activityStorePg } from './activity.js';
import { slicesOver } from '../slices.js';
import { postgresSql } from './driver.js';
import { messageStorePg } from './messages.js';
import { rateLimitStorePg } from './rate-limits.js';

/**
 * The PostgreSQL store: the same functions as SQLite's, module for module (each held to its SQLite
 * twin by a test in this folder), over a pool shared by the process.
 */
export function createPostgresStore(db: PgDb): Store {
  const parts: StoreParts = {
    organizations: organizationStorePg(db),
    apiKeys: apiKeyStorePg(db),
    experiences: experienceStorePg(db),
    customers: customerStorePg(db),
    idempotency: idempotencyStorePg(db),
    calendarFeeds: calendarFeedStorePg(db),
    settings: settingsStorePg(db),
    webhooks: webhookStorePg(db),
    calendarImports: calendarImportStorePg(db),
    payments: paymentStorePg(db),
    manifest: manifestStorePg(db),
    reports: reportStorePg(db),
    activity: activityStorePg(db),
    ...slicesOver(postgresSql(db)),
    messages: messageStorePg(db),
    rateLimits: rateLimitStorePg(db),
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
    // A group commit's job (the only caller that says whether it may go unguarded) is a
    // transaction of its own here: PostgreSQL commits transactions side by side, and a batch holding
    // several jobs' row locks could deadlock with another (postgres/db.ts, `independent`).
    transaction: (work, options) => db.transaction(work, options?.lock, options?.unguarded !== undefined),
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
