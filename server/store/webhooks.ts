import { dueNotifier } from './due-notifier.js';
import type { Page, PageResult, Sql } from './sql.js';
import { newId } from '../domain/ids.js';

export interface WebhookEndpointRow {
  id: string;
  orgId: string;
  url: string;
  events: string; // JSON array of event kinds
  description: string | null;
  enabled: number;
  secret: string;
  previousSecret: string | null;
  previousSecretUntil: number | null;
  disabledReason: string | null;
  createdAt: number;
  updatedAt: number;
}

export type DeliveryStatus = 'PENDING' | 'SUCCEEDED' | 'FAILED';

export interface DeliveryRow {
  id: string;
  orgId: string;
  endpointId: string;
  eventId: string;
  eventType: string;
  status: DeliveryStatus;
  attempts: number;
  lastStatusCode: number | null;
  lastError: string | null;
  nextAttemptAt: number | null;
  leasedUntil: number | null;
  createdAt: number;
  deliveredAt: number | null;
}

/** What one attempt needs: the delivery, its endpoint's address and secrets, and the event body. */
export interface DeliveryJob {
  id: string;
  endpointId: string;
  eventId: string;
  attempts: number;
  url: string;
  enabled: number;
  secret: string;
  previousSecret: string | null;
  previousSecretUntil: number | null;
  payload: string;
}

/** The outcome of one attempt, written when it ends (the lease is released with it). */
export interface AttemptRecord {
  status: DeliveryStatus;
  lastStatusCode: number | null;
  lastError: string | null;
  nextAttemptAt: number | null;
  deliveredAt: number | null;
}

/**
 * Webhook endpoints and their deliveries: the outbox. Several processes may run the delivery worker
 * against one database: a delivery is taken by one conditional UPDATE (`leaseDelivery`), never by a
 * read and then a write, so of two workers exactly one gets it, and listing due deliveries needs no
 * row locks.
 */
export interface WebhookStore {
  insertWebhookEndpoint(row: WebhookEndpointRow): Promise<void>;
  /** Changes the endpoint of `row.orgId` only. */
  updateWebhookEndpoint(row: WebhookEndpointRow): Promise<void>;
  getWebhookEndpoint(orgId: string, id: string): Promise<WebhookEndpointRow | undefined>;
  /** Oldest first, id breaking ties. */
  listWebhookEndpoints(orgId: string, page: Page): Promise<PageResult<WebhookEndpointRow>>;
  /** Deletes the endpoint and, by cascade, its deliveries; false when the org has no such endpoint. */
  deleteWebhookEndpoint(orgId: string, id: string): Promise<boolean>;
  disableWebhookEndpoint(id: string, reason: string, now: number): Promise<void>;

  /**
   * One PENDING delivery, due now, per enabled endpoint of the org that subscribes to the kind;
   * answers how many. Call it inside the transaction that records the event, so an event and its
   * deliveries are committed together (and the worker is woken once they are).
   */
  enqueueDeliveries(orgId: string, eventId: string, type: string, now: number): Promise<number>;
  /**
   * Calls `listener` soon after this process queues or requeues deliveries (once committed); answers
   * the unsubscribe function. Other processes sharing the database find the work when they poll.
   */
  onDeliveriesDue(listener: () => void): Promise<() => void>;

  getDelivery(orgId: string, endpointId: string, id: string): Promise<DeliveryRow | undefined>;
  /** Newest first, id breaking ties. */
  listDeliveries(orgId: string, endpointId: string, page: Page): Promise<PageResult<DeliveryRow>>;
  /** Due, unleased deliveries of enabled endpoints, oldest due first, at most `perEndpoint` per endpoint. */
  listDueDeliveries(now: number, limit: number, perEndpoint: number): Promise<{ id: string; endpointId: string }[]>;
  /** When the next pending delivery of an enabled endpoint becomes due (or its lease runs out), if any. */
  nextDeliveryDueAt(): Promise<number | undefined>;
  /** Takes a due delivery for one attempt until `until`; false when another worker has it. */
  leaseDelivery(id: string, now: number, until: number): Promise<boolean>;
  releaseDelivery(id: string): Promise<void>;
  getDeliveryJob(id: string): Promise<DeliveryJob | undefined>;
  /** Writes an attempt's outcome and releases the lease; a null `deliveredAt` keeps the one recorded. */
  recordDeliveryAttempt(id: string, outcome: AttemptRecord): Promise<void>;
  /** Fails the endpoint's pending deliveries that are not in flight; answers how many. */
  failPendingDeliveries(endpointId: string, reason: string, now: number): Promise<number>;
  /** Makes a delivery PENDING and due at `at` (a manual retry). */
  requeueDelivery(orgId: string, endpointId: string, id: string, at: number): Promise<boolean>;
}

const ENDPOINT_COLUMNS = `id, org_id AS "orgId", url, events, description, enabled, secret,
  previous_secret AS "previousSecret", previous_secret_until AS "previousSecretUntil", disabled_reason AS "disabledReason",
  created_at AS "createdAt", updated_at AS "updatedAt"`;
const DELIVERY_COLUMNS = `id, org_id AS "orgId", endpoint_id AS "endpointId", event_id AS "eventId", event_type AS "eventType",
  status, attempts, last_status_code AS "lastStatusCode", last_error AS "lastError", next_attempt_at AS "nextAttemptAt",
  leased_until AS "leasedUntil", created_at AS "createdAt", delivered_at AS "deliveredAt"`;

export function webhookStore(sql: Sql): WebhookStore {
  // In-process: wakes this process's worker only.
  const wake = dueNotifier();
  /** After commit, so the woken worker (on another connection, or after the gate opens) sees the rows. */
  const notifyAfterCommit = (): void => sql.afterCommit(() => wake.notify());
  /** The endpoints `w` of org ? that are enabled and subscribe to kind ?. */
  const subscribes = `w.org_id = ? AND w.enabled = 1 AND ${sql.dialect.jsonArrayHas('w.events')}`;

  return {
    async insertWebhookEndpoint(row) {
      await sql.run(
        `INSERT INTO webhook_endpoints (id, org_id, url, events, description, enabled, secret, previous_secret,
          previous_secret_until, disabled_reason, created_at, updated_at)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [row.id, row.orgId, row.url, row.events, row.description, row.enabled, row.secret, row.previousSecret,
          row.previousSecretUntil, row.disabledReason, row.createdAt, row.updatedAt],
      );
    },
    async updateWebhookEndpoint(row) {
      await sql.run(
        `UPDATE webhook_endpoints SET url = ?, events = ?, description = ?, enabled = ?, secret = ?,
          previous_secret = ?, previous_secret_until = ?, disabled_reason = ?, updated_at = ?
          WHERE org_id = ? AND id = ?`,
        [row.url, row.events, row.description, row.enabled, row.secret, row.previousSecret, row.previousSecretUntil,
          row.disabledReason, row.updatedAt, row.orgId, row.id],
      );
    },
    getWebhookEndpoint: (orgId, id) =>
      sql.get<WebhookEndpointRow>(`SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE org_id = ? AND id = ?`, [orgId, id]),
    async listWebhookEndpoints(orgId, page) {
      const count = await sql.get<{ n: number }>('SELECT count(*) AS n FROM webhook_endpoints WHERE org_id = ?', [orgId]);
      const rows = await sql.all<WebhookEndpointRow>(
        `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE org_id = ? ORDER BY created_at, id LIMIT ? OFFSET ?`,
        [orgId, page.limit, page.offset],
      );
      return { rows, total: count!.n }; // count(*) always answers one row
    },
    deleteWebhookEndpoint: async (orgId, id) => (await sql.run('DELETE FROM webhook_endpoints WHERE org_id = ? AND id = ?', [orgId, id])) > 0,
    async disableWebhookEndpoint(id, reason, now) {
      await sql.run('UPDATE webhook_endpoints SET enabled = 0, disabled_reason = ?, updated_at = ? WHERE id = ?', [reason, now, id]);
    },

    async enqueueDeliveries(orgId, eventId, type, now) {
      const endpoints = await sql.all<{ id: string }>(
        `SELECT w.id FROM webhook_endpoints w WHERE ${subscribes} ORDER BY w.created_at, w.id`,
        [orgId, type],
      );
      if (endpoints.length === 0) return 0;
      // One statement for all, atomic by itself: it checks the subscriptions again as it inserts, so
      // even outside a transaction an endpoint deleted or disabled since the read gets no delivery
      // (and no foreign-key failure), with no savepoint needed inside the caller's transaction.
      // A VALUES list's columns are column1, column2 on both engines.
      const ids = endpoints.flatMap(({ id }) => [newId('delivery'), id]);
      const inserted = await sql.run(
        `INSERT INTO webhook_deliveries
          (id, org_id, endpoint_id, event_id, event_type, status, attempts, next_attempt_at, created_at)
          SELECT v.column1, w.org_id, w.id, ?, ?, 'PENDING', 0, CAST(? AS BIGINT), CAST(? AS BIGINT)
          FROM (VALUES ${endpoints.map(() => '(?, ?)').join(', ')}) AS v JOIN webhook_endpoints w ON w.id = v.column2
          WHERE ${subscribes}`,
        [eventId, type, now, now, ...ids, orgId, type],
      );
      if (inserted > 0) notifyAfterCommit();
      return inserted;
    },
    onDeliveriesDue: async (listener) => wake.subscribe(listener),

    getDelivery: (orgId, endpointId, id) =>
      sql.get<DeliveryRow>(`SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries WHERE org_id = ? AND endpoint_id = ? AND id = ?`, [
        orgId,
        endpointId,
        id,
      ]),
    async listDeliveries(orgId, endpointId, page) {
      const count = await sql.get<{ n: number }>('SELECT count(*) AS n FROM webhook_deliveries WHERE org_id = ? AND endpoint_id = ?', [
        orgId,
        endpointId,
      ]);
      const rows = await sql.all<DeliveryRow>(
        `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries WHERE org_id = ? AND endpoint_id = ?
          ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`,
        [orgId, endpointId, page.limit, page.offset],
      );
      return { rows, total: count!.n };
    },
    // Fairness: at most `perEndpoint` candidates per endpoint, so one endpoint's backlog never hides
    // the deliveries of the others from the worker. next_attempt_at <= now rules out NULLs, so the
    // orderings need no NULLS FIRST/LAST.
    listDueDeliveries: (now, limit, perEndpoint) =>
      sql.all<{ id: string; endpointId: string }>(
        `SELECT id, "endpointId" FROM (
            SELECT d.id, d.endpoint_id AS "endpointId", d.next_attempt_at AS "nextAttemptAt",
              row_number() OVER (PARTITION BY d.endpoint_id ORDER BY d.next_attempt_at, d.id) AS place
            FROM webhook_deliveries d JOIN webhook_endpoints w ON w.id = d.endpoint_id
            WHERE d.status = 'PENDING' AND d.next_attempt_at <= ?
              AND (d.leased_until IS NULL OR d.leased_until <= ?) AND w.enabled = 1) AS due
          WHERE place <= ? ORDER BY "nextAttemptAt", id LIMIT ?`,
        [now, now, perEndpoint, limit],
      ),
    async nextDeliveryDueAt() {
      // The later of the due time and the lease's end; a pending delivery without a due time (never
      // written by the store) counts for nothing.
      const row = await sql.get<{ at: number | null }>(
        `SELECT min(CASE WHEN d.leased_until > d.next_attempt_at THEN d.leased_until ELSE d.next_attempt_at END) AS at
          FROM webhook_deliveries d JOIN webhook_endpoints w ON w.id = d.endpoint_id
          WHERE d.status = 'PENDING' AND w.enabled = 1 AND d.next_attempt_at IS NOT NULL`,
      );
      return row?.at ?? undefined;
    },
    leaseDelivery: async (id, now, until) =>
      (await sql.run(
        `UPDATE webhook_deliveries SET leased_until = ?
          WHERE id = ? AND status = 'PENDING' AND (leased_until IS NULL OR leased_until <= ?)`,
        [until, id, now],
      )) === 1,
    async releaseDelivery(id) {
      await sql.run('UPDATE webhook_deliveries SET leased_until = NULL WHERE id = ?', [id]);
    },
    getDeliveryJob: (id) =>
      sql.get<DeliveryJob>(
        `SELECT d.id, d.endpoint_id AS "endpointId", d.event_id AS "eventId", d.attempts, w.url, w.enabled,
            w.secret, w.previous_secret AS "previousSecret", w.previous_secret_until AS "previousSecretUntil", e.payload
          FROM webhook_deliveries d JOIN webhook_endpoints w ON w.id = d.endpoint_id JOIN events e ON e.id = d.event_id
          WHERE d.id = ?`,
        [id],
      ),
    async recordDeliveryAttempt(id, outcome) {
      await sql.run(
        `UPDATE webhook_deliveries SET status = ?, attempts = attempts + 1, last_status_code = ?, last_error = ?,
          next_attempt_at = ?, delivered_at = coalesce(?, delivered_at), leased_until = NULL WHERE id = ?`,
        [outcome.status, outcome.lastStatusCode, outcome.lastError, outcome.nextAttemptAt, outcome.deliveredAt, id],
      );
    },
    failPendingDeliveries: (endpointId, reason, now) =>
      sql.run(
        `UPDATE webhook_deliveries SET status = 'FAILED', next_attempt_at = NULL, last_error = ?
          WHERE endpoint_id = ? AND status = 'PENDING' AND (leased_until IS NULL OR leased_until <= ?)`,
        [reason, endpointId, now],
      ),
    async requeueDelivery(orgId, endpointId, id, at) {
      const changed =
        (await sql.run(
          `UPDATE webhook_deliveries SET status = 'PENDING', next_attempt_at = ? WHERE org_id = ? AND endpoint_id = ? AND id = ?`,
          [at, orgId, endpointId, id],
        )) > 0;
      if (changed) notifyAfterCommit();
      return changed;
    },
  };
}
