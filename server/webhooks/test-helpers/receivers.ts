import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'vitest';
import type { TestApp } from '../../test-helpers/index.js';
import { Booking, Experience, WebhookEndpointWithSecret } from '../../../shared/index.js';

/** One request a receiver got. */
export interface Received {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string;
  at: number;
}

export type ReceiverHandler = (req: IncomingMessage, res: ServerResponse, received: Received) => void;

/** A webhook receiver on 127.0.0.1 whose answer the test sets (default: 200). */
export interface Receiver {
  url: string;
  port: number;
  received: Received[];
  /** Requests being handled right now, and the most at once. */
  open(): number;
  maxOpen(): number;
  answer(handler: ReceiverHandler): void;
  /** Resolves with the requests once at least `count` have arrived. */
  waitFor(count: number, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

export const respond =
  (status: number, headers: Record<string, string> = {}): ReceiverHandler =>
  (_req, res) =>
    res.writeHead(status, headers).end(status === 204 ? undefined : 'ok');
/** Never answers (until the receiver closes). */
export const hang: ReceiverHandler = () => {};
/** Drops the connection without a response. */
export const reset: ReceiverHandler = (req) => req.socket.destroy();

export async function startReceiver(handler: ReceiverHandler = respond(200)): Promise<Receiver> {
  let current = handler;
  const received: Received[] = [];
  const waiters = new Set<() => void>();
  let open = 0;
  let maxOpen = 0;
  const server: Server = createServer((req, res) => {
    open++;
    maxOpen = Math.max(maxOpen, open);
    let finished = false;
    const done = () => {
      if (!finished) (finished = true), open--;
    };
    res.on('close', done);
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string') headers[name] = value;
      const entry: Received = { method: req.method ?? '', path: req.url ?? '', headers, body: Buffer.concat(chunks).toString(), at: Date.now() };
      received.push(entry);
      for (const wake of waiters) wake();
      current(req, res, entry);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    port,
    received,
    open: () => open,
    maxOpen: () => maxOpen,
    answer: (next) => void (current = next),
    waitFor(count, timeoutMs = 15_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (received.length < count) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(received.slice());
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`receiver got ${received.length} requests, expected ${count} within ${timeoutMs} ms`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Polls `probe` until it returns a value that is not undefined (or fails after `timeoutMs`). */
export async function eventually<T>(probe: () => T | undefined | Promise<T | undefined>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

export async function createEndpoint(t: TestApp, body: Record<string, unknown>) {
  const res = await t.request('POST', '/v1/webhook-endpoints', { body });
  expect(res.status, res.text).toBe(201);
  return WebhookEndpointWithSecret.parse(res.body.data);
}

/** An experience with a slot every day at 10:00 UTC, and a helper to book its next slot through the API. */
export async function bookingFixture(t: TestApp) {
  const res = await t.request('POST', '/v1/experiences', {
    body: {
      name: 'Harbour cruise',
      description: 'An hour on the water',
      duration: 60,
      price: 4500,
      maxParticipants: 500,
      schedule: { timezone: 'UTC', weekly: { mon: ['10:00'], tue: ['10:00'], wed: ['10:00'], thu: ['10:00'], fri: ['10:00'], sat: ['10:00'], sun: ['10:00'] } },
    },
  });
  expect(res.status, res.text).toBe(201);
  const experience = Experience.parse(res.body.data);
  const day = new Date(Date.now() + 2 * 86_400_000);
  const startTime = `${day.toISOString().slice(0, 10)}T10:00:00.000Z`;
  let n = 0;
  return {
    experience,
    startTime,
    async book(extra: Record<string, unknown> = {}) {
      n++;
      const created = await t.request('POST', '/v1/bookings', {
        body: { experienceId: experience.id, startTime, participants: 2, customerName: `Guest ${n}`, customerEmail: `guest${n}@example.com`, ...extra },
      });
      expect(created.status, created.text).toBe(201);
      return Booking.parse(created.body.data);
    },
  };
}
