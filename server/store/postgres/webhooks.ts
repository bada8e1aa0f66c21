import { newId } from '../../domain/ids.js';
import { dueNotifier } from '../due-notifier.js';
import type { Async } from '../index.js';
import type { Page, PageResult } from '../statements.js';
import {
  DELIVERY_COLUMNS as SQLITE_DELIVERY_COLUMNS,
  ENDPOINT_COLUMNS as SQLITE_ENDPOINT_COLUMNS,
  type AttemptRecord,
  type DeliveryJob,
  type DeliveryRow,
  type WebhookEndpointRow,
  type webhookStore,
} from '../webhooks.js';
import { quoteAliases, type PgDb } from './db.js';

/** SQLite's column lists with their camelCase aliases quoted: PostgreSQL folds unquoted ones to lower case. */
const ENDPOINT_COLUMNS = quoteAliases(SQLITE_ENDPOINT_COLUMNS);
const DELIVERY_COLUMNS = quoteAliases(SQLITE_DELIVERY_COLUMNS);

/**
 * Webhook endpoints and their deliveries: the outbox, as in ../webhooks.ts. Several processes may
 * run the delivery worker against one database, so a delivery is taken with one conditional UPDATE
 * (`leaseDelivery`): PostgreSQL re-checks its WHERE on the row a concurrent winner committed, so
 * exactly one process gets it. Listing due deliveries therefore needs no row locks (no FOR UPDATE
 * SKIP LOCKED): a candidate another process took is simply not leased here.
 */
export function webhookStorePg(db: PgDb): Async<ReturnType<typeof webhookStore>> {
  // In-process, like SQLite's: wakes this process's worker only; the others find work by polling.
  const wake = dueNotifier();
  /** After commit, so the woken worker (on another connection) sees the deliveries. */
  const notifyAfterCommit = (): void => db.afterCommit(() => wake.notify());

  return {
    async insertWebhookEndpoint(row: WebhookEndpointRow): Promise<void> {
      await db.run(
        `INSERT INTO webhook_endpoints (id, org_id, url, events, description, enabled, secret, previous_secret,
          previous_secret_until, disabled_reason, created_at, updated_at)
          VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
        [row.id, row.orgId, row.url, row.events, row.description, row.enabled, row.secret, row.previousSecret,
          row.previousSecretUntil, row.disabledReason, row.createdAt, row.updatedAt],
      );
    },
    async updateWebhookEndpoint(row: WebhookEndpointRow): Promise<void> {
      await db.run(
        `UPDATE webhook_endpoints SET url = $1, events = $2, description = $3, enabled = $4, secret = $5,
          previous_secret = $6, previous_secret_until = $7, disabled_reason = $8, updated_at = $9
          WHERE org_id = $10 AND id = $11`,
        [row.url, row.events, row.description, row.enabled, row.secret, row.previousSecret, row.previousSecretUntil,
          row.disabledReason, row.updatedAt, row.orgId, row.id],
      );
    },
    async getWebhookEndpoint(orgId: string, id: string): Promise<WebhookEndpointRow | undefined> {
      return await db.get<WebhookEndpointRow>(
        `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE org_id = $1 AND id = $2`,
        [orgId, id],
      );
    },
    async listWebhookEndpoints(orgId: string, page: Page): Promise<PageResult<WebhookEndpointRow>> {
      const [count, rows] = await Promise.all([
        db.get<{ n: number }>('SELECT count(*) AS n FROM webhook_endpoints WHERE org_id = $1', [orgId]),
        db.all<WebhookEndpointRow>(
          `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE org_id = $1
            ORDER BY created_at, id LIMIT $2 OFFSET $3`,
          [orgId, page.limit, page.offset],
        ),
      ]);
      return { rows, total: count!.n };
    },
    async deleteWebhookEndpoint(orgId: string, id: string): Promise<boolean> {
      return (await db.run('DELETE FROM webhook_endpoints WHERE org_id = $1 AND id = $2', [orgId, id])) > 0;
    },
    async disableWebhookEndpoint(id: string, reason: string, now: number): Promise<void> {
      await db.run('UPDATE webhook_endpoints SET enabled = 0, disabled_reason = $1, updated_at = $2 WHERE id = $3', [
        reason,
        now,
        id,
      ]);
    },

    /**
     * The subscribers are read and their deliveries written under the write lock, in the event's
     * transaction (or one of its own), as SQLite's synchronous calls cannot interleave; the one
     * insert needs no savepoint. SQLite's `json_each(w.events)`
     * is jsonb's `?`: whether the array holds the kind as a string.
     */
    async enqueueDeliveries(orgId: string, eventId: string, type: string, now: number): Promise<number> {
      return await db.locked(async () => {
        const endpoints = await db.all<{ id: string }>(
          `SELECT w.id FROM webhook_endpoints w
            WHERE w.org_id = $1 AND w.enabled = 1 AND w.events::jsonb ? $2
            ORDER BY w.created_at, w.id`,
          [orgId, type],
        );
        if (endpoints.length === 0) return 0;
        // Ids made in the subscribers' order, as SQLite's loop makes them; one statement for all.
        const ids = endpoints.map(() => newId('delivery'));
        await db.run(
          `INSERT INTO webhook_deliveries
            (id, org_id, endpoint_id, event_id, event_type, status, attempts, next_attempt_at, created_at)
            SELECT d.id, $3, d.endpoint_id, $4, $5, 'PENDING', 0, $6, $6
            FROM unnest($1::text[], $2::text[]) AS d(id, endpoint_id)`,
          [ids, endpoints.map((e) => e.id), orgId, eventId, type, now],
        );
        notifyAfterCommit();
        return endpoints.length;
      });
    },
    async onDeliveriesDue(listener: () => void): Promise<() => void> {
      return wake.subscribe(listener);
    },

    async getDelivery(orgId: string, endpointId: string, id: string): Promise<DeliveryRow | undefined> {
      return await db.get<DeliveryRow>(
        `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries WHERE org_id = $1 AND endpoint_id = $2 AND id = $3`,
        [orgId, endpointId, id],
      );
    },
    async listDeliveries(orgId: string, endpointId: string, page: Page): Promise<PageResult<DeliveryRow>> {
      const [count, rows] = await Promise.all([
        db.get<{ n: number }>('SELECT count(*) AS n FROM webhook_deliveries WHERE org_id = $1 AND endpoint_id = $2', [
          orgId,
          endpointId,
        ]),
        db.all<DeliveryRow>(
          `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries WHERE org_id = $1 AND endpoint_id = $2
            ORDER BY created_at DESC, id DESC LIMIT $3 OFFSET $4`,
          [orgId, endpointId, page.limit, page.offset],
        ),
      ]);
      return { rows, total: count!.n };
    },
    /** next_attempt_at <= now rules out NULLs, so the orderings need no NULLS FIRST/LAST. */
    async listDueDeliveries(now: number, limit: number, perEndpoint: number): Promise<{ id: string; endpointId: string }[]> {
      return await db.all<{ id: string; endpointId: string }>(
        `SELECT id, "endpointId" FROM (
            SELECT d.id, d.endpoint_id AS "endpointId", d.next_attempt_at AS "nextAttemptAt",
              row_number() OVER (PARTITION BY d.endpoint_id ORDER BY d.next_attempt_at, d.id) AS place
            FROM webhook_deliveries d JOIN webhook_endpoints w ON w.id = d.endpoint_id
            WHERE d.status = 'PENDING' AND d.next_attempt_at <= $1
              AND (d.leased_until IS NULL OR d.leased_until <= $1) AND w.enabled = 1) AS due
          WHERE place <= $3 ORDER BY "nextAttemptAt", id LIMIT $2`,
        [now, limit, perEndpoint],
      );
    },
    /**
     * SQLite's two-argument max() is greatest(), but max(NULL, x) is NULL where greatest() skips the
     * NULL: a pending delivery without next_attempt_at is left out, as min() leaves out SQLite's NULL.
     */
    async nextDeliveryDueAt(): Promise<number | undefined> {
      const row = await db.get<{ at: number | null }>(
        `SELECT min(greatest(d.next_attempt_at, coalesce(d.leased_until, 0))) AS at
          FROM webhook_deliveries d JOIN webhook_endpoints w ON w.id = d.endpoint_id
          WHERE d.status = 'PENDING' AND w.enabled = 1 AND d.next_attempt_at IS NOT NULL`,
      );
      return row?.at ?? undefined;
    },
    /** One conditional UPDATE: of two processes leasing the same delivery, the second finds it leased. */
    async leaseDelivery(id: string, now: number, until: number): Promise<boolean> {
      const changed = await db.run(
        `UPDATE webhook_deliveries SET leased_until = $3
          WHERE id = $1 AND status = 'PENDING' AND (leased_until IS NULL OR leased_until <= $2)`,
        [id, now, until],
      );
      return changed === 1;
    },
    async releaseDelivery(id: string): Promise<void> {
      await db.run('UPDATE webhook_deliveries SET leased_until = NULL WHERE id = $1', [id]);
    },
    async getDeliveryJob(id: string): Promise<DeliveryJob | undefined> {
      return await db.get<DeliveryJob>(
        `SELECT d.id, d.endpoint_id AS "endpointId", d.event_id AS "eventId", d.attempts, w.url, w.enabled,
            w.secret, w.previous_secret AS "previousSecret", w.previous_secret_until AS "previousSecretUntil", e.payload
          FROM webhook_deliveries d JOIN webhook_endpoints w ON w.id = d.endpoint_id JOIN events e ON e.id = d.event_id
          WHERE d.id = $1`,
        [id],
      );
    },
    async recordDeliveryAttempt(id: string, outcome: AttemptRecord): Promise<void> {
      await db.run(
        `UPDATE webhook_deliveries SET status = $2, attempts = attempts + 1, last_status_code = $3, last_error = $4,
          next_attempt_at = $5, delivered_at = coalesce($6, delivered_at), leased_until = NULL WHERE id = $1`,
        [id, outcome.status, outcome.lastStatusCode, outcome.lastError, outcome.nextAttemptAt, outcome.deliveredAt],
      );
    },
    async failPendingDeliveries(endpointId: string, reason: string, now: number): Promise<number> {
      return await db.run(
        `UPDATE webhook_deliveries SET status = 'FAILED', next_attempt_at = NULL, last_error = $1
          WHERE endpoint_id = $2 AND status = 'PENDING' AND (leased_until IS NULL OR leased_until <= $3)`,
        [reason, endpointId, now],
      );
    },
    async requeueDelivery(orgId: string, endpointId: string, id: string, at: number): Promise<boolean> {
      const changed =
        (await db.run(
          `UPDATE webhook_deliveries SET status = 'PENDING', next_attempt_at = $1
            WHERE org_id = $2 AND endpoint_id = $3 AND id = $4`,
          [at, orgId, endpointId, id],
        )) > 0;
      if (changed) notifyAfterCommit();
      return changed;
    },
  };
}
