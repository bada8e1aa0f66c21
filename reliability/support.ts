/**
 * What the reliability suite shares: a seeded random source, JSON calls that survive a server that
 * is being killed, the real `outing serve` process (server/test-helpers), a loopback webhook
 * receiver that can be taken down and brought back on the same port, and a read-only look at the
 * database the processes used, on either engine.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Database from 'better-sqlite3';
import pg from 'pg';
import { Webhook } from 'standardwebhooks';
import type { ProcessDatabase } from '../server/test-helpers/index.js';

/** The seed of every random choice in this suite: `RELIABILITY_SEED=n npm run test:reliability` replays a run. */
export const SEED = Number(process.env.RELIABILITY_SEED ?? 20261122);

/** mulberry32: small, fast and good enough to pick moments and inputs reproducibly. */
export function seededRandom(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    /** An integer in [min, max]. */
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(items: readonly T[]): T => {
      if (!items.length) throw new Error('pick from an empty list');
      return items[Math.floor(next() * items.length)] as T;
    },
    chance: (p: number) => next() < p,
  };
}
export type Random = ReturnType<typeof seededRandom>;

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export interface JsonResponse {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}

/** One HTTP call; the body is parsed when it is JSON. Throws on a network failure (server gone). */
export async function call(
  baseUrl: string,
  method: string,
  path: string,
  options: { key?: string; body?: unknown; headers?: Record<string, string>; timeoutMs?: number } = {},
): Promise<JsonResponse> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key) headers.authorization = `Bearer ${options.key}`;
  let body: string | undefined;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const res = await fetch(baseUrl + path, { method, headers, body, signal: AbortSignal.timeout(options.timeoutMs ?? 30_000) });
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: res.status, headers: res.headers, body: parsed, text };
}

/** Every item of a list route, page by page. */
export async function listAll(baseUrl: string, path: string, key: string): Promise<any[]> {
  const items: any[] = [];
  for (let offset = 0; ; offset += 100) {
    const sep = path.includes('?') ? '&' : '?';
    const res = await call(baseUrl, 'GET', `${path}${sep}limit=100&offset=${offset}`, { key });
    if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}: ${res.text}`);
    items.push(...(res.body.data as any[]));
    if (!res.body.pagination.hasMore) return items;
  }
}

export interface ReceivedDelivery {
  webhookId: string;
  body: string;
  event: { id: string; event: string; timestamp: string; data: any };
  receivedAt: number;
  signatureValid: boolean;
}

/**
 * A Standard Webhooks receiver on 127.0.0.1. `down()` closes its port (connections refused, as when
 * a receiver's host is away); `up()` listens on the same port again.
 */
export class WebhookReceiver {
  readonly deliveries: ReceivedDelivery[] = [];
  private server: Server | undefined;
  private port = 0;
  private verifier: Webhook | undefined;

  get url(): string {
    return `http://127.0.0.1:${this.port}/outing-hooks`;
  }

  /** The endpoint's secret, once Outing has shown it: from then on signatures are checked. */
  useSecret(secret: string): void {
    this.verifier = new Webhook(secret);
  }

  async up(): Promise<void> {
    const server = createServer((req, res) => {
      void readBody(req).then((body) => {
        const webhookId = String(req.headers['webhook-id'] ?? '');
        let signatureValid = false;
        try {
          this.verifier?.verify(body, {
            'webhook-id': webhookId,
            'webhook-timestamp': String(req.headers['webhook-timestamp'] ?? ''),
            'webhook-signature': String(req.headers['webhook-signature'] ?? ''),
          });
          signatureValid = this.verifier !== undefined;
        } catch {
          signatureValid = false;
        }
        let event: ReceivedDelivery['event'];
        try {
          event = JSON.parse(body) as ReceivedDelivery['event'];
        } catch {
          event = { id: '', event: 'NOT_JSON', timestamp: '', data: null };
        }
        this.deliveries.push({ webhookId, body, event, receivedAt: Date.now(), signatureValid });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
  }

  async down(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeAllConnections();
    await closed;
  }

  /** Event ids received at least once. */
  receivedIds(): Set<string> {
    return new Set(this.deliveries.map((d) => d.webhookId));
  }
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** Polls `check` until it returns true or `timeoutMs` passes; returns whether it became true. */
export async function waitUntil(check: () => Promise<boolean> | boolean, timeoutMs: number, everyMs = 250): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return true;
    if (Date.now() > deadline) return false;
    await sleep(everyMs);
  }
}

/**
 * Runs one read-only SQL query, written to mean the same on SQLite and PostgreSQL, on the database
 * the servers used (after they have stopped), bypassing the store so that the checks see the rows
 * exactly as written. Quote camel-case aliases ("slotStart"): PostgreSQL folds bare ones to lower
 * case. PostgreSQL answers BIGINT and SUM() as strings, so convert numbers with Number().
 */
export async function queryDatabase<Row extends object>(db: ProcessDatabase, sql: string): Promise<Row[]> {
  if (db.url !== undefined) {
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    try {
      return (await client.query(sql)).rows as Row[];
    } finally {
      await client.end();
    }
  }
  if (db.path === undefined) throw new Error('processDatabase gave neither a file nor a URL');
  const sqlite = new Database(db.path, { readonly: true });
  try {
    return sqlite.prepare(sql).all() as Row[];
  } finally {
    sqlite.close();
  }
}
