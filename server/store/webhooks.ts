import type { Db } from './db.js';
import { dueNotifier } from './due-notifier.js';
import { statementCache, type Page, type PageResult } from './statements.js';
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

export const ENDPOINT_COLUMNS = `id, org_id AS orgId, url, events, description, enabled, secret,
  previous_secret AS previousSecret, previous_secret_until AS previousSecretUntil, disabled_reason AS disabledReason,
  created_at AS createdAt, updated_at AS updatedAt`;
export const DELIVERY_COLUMNS = `id, org_id AS orgId, endpoint_id AS endpointId, event_id AS eventId, event_type AS eventType,
  status, attempts, last_status_code AS lastStatusCode, last_error AS lastError, next_attempt_at AS nextAttemptAt,
  leased_until AS leasedUntil, created_at AS createdAt, delivered_at AS deliveredAt`;

/**
 * Webhook endpoints and their deliveries: the outbox. `enqueueDeliveries` runs inside the
 * transaction that records an event, so an event and its pending deliveries are committed together.
 */
export function webhookStore(db: Db) {
  const prepared = statementCache(db);
  const insertEndpoint = db.prepare(`INSERT INTO webhook_endpoints (id, org_id, url, events, description, enabled,
    secret, previous_secret, previous_secret_until, disabled_reason, created_at, updated_at)
    VALUES (@id, @orgId, @url, @events, @description, @enabled, @secret, @previousSecret, @previousSecretUntil,
    @disabledReason, @createdAt, @updatedAt)`);
  const updateEndpoint = db.prepare(`UPDATE webhook_endpoints SET url = @url, events = @events,
    description = @description, enabled = @enabled, secret = @secret, previous_secret = @previousSecret,
    previous_secret_until = @previousSecretUntil, disabled_reason = @disabledReason, updated_at = @updatedAt
    WHERE org_id = @orgId AND id = @id`);
  const endpointById = db.prepare(`SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE org_id = ? AND id = ?`);
  const deleteEndpoint = db.prepare('DELETE FROM webhook_endpoints WHERE org_id = ? AND id = ?');
  const disableEndpoint = db.prepare(`UPDATE webhook_endpoints SET enabled = 0, disabled_reason = ?, updated_at = ?
    WHERE id = ?`);
  const subscribers = db.prepare(`SELECT w.id FROM webhook_endpoints w
    WHERE w.org_id = ? AND w.enabled = 1 AND EXISTS (SELECT 1 FROM json_each(w.events) WHERE value = ?)
    ORDER BY w.created_at, w.id`);
  const insertDelivery = db.prepare(`INSERT INTO webhook_deliveries
    (id, org_id, endpoint_id, event_id, event_type, status, attempts, next_attempt_at, created_at)
    VALUES (?, ?, ?, ?, ?, 'PENDING', 0, ?, ?)`);
  const deliveryById = db.prepare(`SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries
    WHERE org_id = ? AND endpoint_id = ? AND id = ?`);
  // Fairness: at most `perEndpoint` candidates per endpoint, so one endpoint's backlog never hides
  // the deliveries of the others from the worker.
  const due = db.prepare(`SELECT id, endpointId FROM (
      SELECT d.id, d.endpoint_id AS endpointId, d.next_attempt_at AS nextAttemptAt,
        row_number() OVER (PARTITION BY d.endpoint_id ORDER BY d.next_attempt_at, d.id) AS rank
      FROM webhook_deliveries d JOIN webhook_endpoints w ON w.id = d.endpoint_id
      WHERE d.status = 'PENDING' AND d.next_attempt_at <= @now
        AND (d.leased_until IS NULL OR d.leased_until <= @now) AND w.enabled = 1)
    WHERE rank <= @perEndpoint ORDER BY nextAttemptAt, id LIMIT @limit`);
  const nextDue = db.prepare(`SELECT min(max(d.next_attempt_at, coalesce(d.leased_until, 0))) AS at
    FROM webhook_deliveries d JOIN webhook_endpoints w ON w.id = d.endpoint_id
    WHERE d.status = 'PENDING' AND w.enabled = 1`);
  const lease = db.prepare(`UPDATE webhook_deliveries SET leased_until = @until
    WHERE id = @id AND status = 'PENDING' AND (leased_until IS NULL OR leased_until <= @now)`);
  const release = db.prepare('UPDATE webhook_deliveries SET leased_until = NULL WHERE id = ?');
  const job = db.prepare(`SELECT d.id, d.endpoint_id AS endpointId, d.event_id AS eventId, d.attempts, w.url, w.enabled,
      w.secret, w.previous_secret AS previousSecret, w.previous_secret_until AS previousSecretUntil, e.payload
    FROM webhook_deliveries d JOIN webhook_endpoints w ON w.id = d.endpoint_id JOIN events e ON e.id = d.event_id
    WHERE d.id = ?`);
  const recordAttempt = db.prepare(`UPDATE webhook_deliveries SET status = @status, attempts = attempts + 1,
    last_status_code = @lastStatusCode, last_error = @lastError, next_attempt_at = @nextAttemptAt,
    delivered_at = coalesce(@deliveredAt, delivered_at), leased_until = NULL WHERE id = @id`);
  const failPending = db.prepare(`UPDATE webhook_deliveries SET status = 'FAILED', next_attempt_at = NULL,
    last_error = ? WHERE endpoint_id = ? AND status = 'PENDING' AND (leased_until IS NULL OR leased_until <= ?)`);
  const requeue = db.prepare(`UPDATE webhook_deliveries SET status = 'PENDING', next_attempt_at = ?
    WHERE org_id = ? AND endpoint_id = ? AND id = ?`);

  const wake = dueNotifier();

  return {
    insertWebhookEndpoint(row: WebhookEndpointRow): void {
      insertEndpoint.run(row);
    },
    updateWebhookEndpoint(row: WebhookEndpointRow): void {
      updateEndpoint.run(row);
    },
    getWebhookEndpoint(orgId: string, id: string): WebhookEndpointRow | undefined {
      return endpointById.get(orgId, id) as WebhookEndpointRow | undefined;
    },
    /** Oldest first. */
    listWebhookEndpoints(orgId: string, page: Page): PageResult<WebhookEndpointRow> {
      const total = (prepared('SELECT count(*) AS n FROM webhook_endpoints WHERE org_id = ?').get(orgId) as { n: number }).n;
      const rows = prepared(`SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE org_id = ?
        ORDER BY created_at, id LIMIT ? OFFSET ?`).all(orgId, page.limit, page.offset) as WebhookEndpointRow[];
      return { rows, total };
    },
    /** Deletes the endpoint and, by cascade, its deliveries. */
    deleteWebhookEndpoint(orgId: string, id: string): boolean {
      return deleteEndpoint.run(orgId, id).changes > 0;
    },
    disableWebhookEndpoint(id: string, reason: string, now: number): void {
      disableEndpoint.run(reason, now, id);
    },

    /** One PENDING delivery, due now, per enabled endpoint of the org that subscribes to the kind. */
    enqueueDeliveries(orgId: string, eventId: string, type: string, now: number): number {
      const endpoints = subscribers.all(orgId, type) as { id: string }[];
      for (const { id } of endpoints) insertDelivery.run(newId('delivery'), orgId, id, eventId, type, now, now);
      if (endpoints.length > 0) wake.notify();
      return endpoints.length;
    },
    /** Calls `listener` soon after deliveries become due; returns the unsubscribe function. */
    onDeliveriesDue(listener: () => void): () => void {
      return wake.subscribe(listener);
    },

    getDelivery(orgId: string, endpointId: string, id: string): DeliveryRow | undefined {
      return deliveryById.get(orgId, endpointId, id) as DeliveryRow | undefined;
    },
    /** Newest first. */
    listDeliveries(orgId: string, endpointId: string, page: Page): PageResult<DeliveryRow> {
      const total = (prepared('SELECT count(*) AS n FROM webhook_deliveries WHERE org_id = ? AND endpoint_id = ?')
        .get(orgId, endpointId) as { n: number }).n;
      const rows = prepared(`SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries WHERE org_id = ? AND endpoint_id = ?
        ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`).all(orgId, endpointId, page.limit, page.offset) as DeliveryRow[];
      return { rows, total };
    },
    /** Due, unleased deliveries of enabled endpoints, oldest due first, at most `perEndpoint` per endpoint. */
    listDueDeliveries(now: number, limit: number, perEndpoint: number): { id: string; endpointId: string }[] {
      return due.all({ now, limit, perEndpoint }) as { id: string; endpointId: string }[];
    },
    /** When the next pending delivery becomes due (or its lease runs out), if any. */
    nextDeliveryDueAt(): number | undefined {
      return (nextDue.get() as { at: number | null }).at ?? undefined;
    },
    /** Takes a due delivery for one attempt until `until`; false when another worker has it. */
    leaseDelivery(id: string, now: number, until: number): boolean {
      return lease.run({ id, now, until }).changes === 1;
    },
    releaseDelivery(id: string): void {
      release.run(id);
    },
    getDeliveryJob(id: string): DeliveryJob | undefined {
      return job.get(id) as DeliveryJob | undefined;
    },
    recordDeliveryAttempt(id: string, outcome: AttemptRecord): void {
      recordAttempt.run({ id, ...outcome });
    },
    /** Fails the endpoint's pending deliveries that are not in flight. */
    failPendingDeliveries(endpointId: string, reason: string, now: number): number {
      return failPending.run(reason, endpointId, now).changes;
    },
    /** Makes a delivery PENDING and due at `at` (a manual retry). */
    requeueDelivery(orgId: string, endpointId: string, id: string, at: number): boolean {
      const changed = requeue.run(at, orgId, endpointId, id).changes > 0;
      if (changed) wake.notify();
      return changed;
    },
  };
}
