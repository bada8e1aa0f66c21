import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAdaptorServer } from '@hono/node-server';
import { createTestApp, expectError, type TestApp } from '../test-helpers/index.js';
import { answerMalformedRequests, REQUEST_TIME_LIMITS } from './client-errors.js';

let server: Server;
let port: number;

beforeEach(async () => {
  server = createServer((_req, res) => res.end('ok'));
  answerMalformedRequests(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  port = (server.address() as AddressInfo).port;
});
afterEach(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

/** Sends raw bytes and returns the whole answer: status, headers and parsed body. */
function raw(request: string): Promise<{ status: number; headers: Headers; body: unknown }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.end(request));
    let text = '';
    socket.setEncoding('utf8').on('data', (d: string) => (text += d));
    socket.on('error', reject);
    socket.on('close', () => {
      const [head = '', body = ''] = text.split('\r\n\r\n');
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers = new Headers(lines.map((l) => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 1).trim()] as [string, string]));
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: body ? JSON.parse(body) : undefined });
    });
  });
}

describe('requests that the HTTP parser refuses', () => {
  it('answers a lower-case method with a 400 in the error envelope', async () => {
    const res = await raw('patch /v1/bookings/x HTTP/1.1\r\nHost: localhost\r\n\r\n');
    expectError(res, 400, 'VALIDATION_ERROR');
    expect(res.headers.get('content-type')).toBe('application/json');
  });

  it('answers headers over 16 KiB with a 431 in the error envelope', async () => {
    const res = await raw(`GET /v1/bookings?q=${'x'.repeat(20_000)} HTTP/1.1\r\nHost: localhost\r\n\r\n`);
    const error = expectError(res, 431, 'VALIDATION_ERROR');
    expect(error.details).toEqual([{ path: 'headers', message: expect.stringMatching(/16 KiB/) }]);
  });

  it('leaves well-formed requests to the app', async () => {
    const res = await fetch(`http://127.0.0.1:${port}/anything`);
    expect(await res.text()).toBe('ok');
  });
});

describe('request time limits', () => {
  it('are 10 s for the headers and 30 s for the whole request unless told', () => {
    const fresh = createServer();
    answerMalformedRequests(fresh);
    expect(fresh.headersTimeout).toBe(REQUEST_TIME_LIMITS.headersMs);
    expect(fresh.requestTimeout).toBe(REQUEST_TIME_LIMITS.requestMs);
    expect(REQUEST_TIME_LIMITS).toMatchObject({ headersMs: 10_000, requestMs: 30_000 });
  });
});

describe('a client that sends its request too slowly, against the whole app', () => {
  let t: TestApp;
  let appServer: Server;
  let appPort: number;
  const limits = { headersMs: 300, requestMs: 600, checkEveryMs: 50 };

  beforeEach(async () => {
    t = await createTestApp();
    appServer = createAdaptorServer({ fetch: t.app.fetch }) as Server;
    answerMalformedRequests(appServer, limits);
    await new Promise<void>((resolve) => appServer.listen(0, '127.0.0.1', () => resolve()));
    appPort = (appServer.address() as AddressInfo).port;
  });
  afterEach(async () => {
    appServer.closeAllConnections();
    await new Promise<void>((resolve) => appServer.close(() => resolve()));
    await t.close();
  });

  /** Writes `head` at once, then `dribble` one byte every 100 ms; resolves with what came back once the socket closes. */
  function dribble(head: string, dribbled: string): Promise<{ text: string; ms: number; sentAll: boolean }> {
    return new Promise((resolve, reject) => {
      const started = Date.now();
      let text = '';
      let sent = 0;
      let timer: NodeJS.Timeout | undefined;
      const socket = connect(appPort, '127.0.0.1', () => {
        socket.write(head);
        timer = setInterval(() => {
          if (sent >= dribbled.length || socket.destroyed) return;
          socket.write(dribbled[sent++] ?? '');
        }, 100);
      });
      socket.setEncoding('utf8').on('data', (d: string) => (text += d));
      socket.on('error', (err: NodeJS.ErrnoException) => (err.code === 'ECONNRESET' || err.code === 'EPIPE' ? undefined : reject(err)));
      socket.on('close', () => {
        clearInterval(timer);
        resolve({ text, ms: Date.now() - started, sentAll: sent >= dribbled.length });
      });
    });
  }

  function parse(text: string) {
    const [head = '', body = ''] = text.split('\r\n\r\n');
    return { status: Number(head.split(' ')[1]), head, body: body ? (JSON.parse(body) as unknown) : undefined };
  }

  it('answers headers that trickle in with a 408 and closes the connection', async () => {
    const { text, ms, sentAll } = await dribble('GET /v1/experiences HTTP/1.1\r\nHost: localhost\r\n', 'X-Slow: ' + 'a'.repeat(100));
    expect(sentAll).toBe(false);
    expect(ms).toBeLessThan(2_000);
    const res = parse(text);
    expect(res.status).toBe(408);
    expect(res.head).toMatch(/\r\nConnection: close/i);
    expectError({ status: res.status, body: res.body }, 408 as number, 'VALIDATION_ERROR');
  });

  it('answers a body that trickles in with a 408, closes the connection, and logs no server error', async () => {
    const body = JSON.stringify({ name: 'Harbour walk', duration: 60, price: 1500, maxParticipants: 10 });
    const { text, ms, sentAll } = await dribble(
      'POST /v1/experiences HTTP/1.1\r\nHost: localhost\r\n' +
        `Authorization: Bearer ${t.secretKey}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
      body,
    );
    expect(sentAll).toBe(false);
    expect(ms).toBeLessThan(2_000);
    const res = parse(text);
    expect(res.status).toBe(408);
    expectError({ status: res.status, body: res.body }, 408 as number, 'VALIDATION_ERROR');
    // The app's side of the cut-off request ends quietly: a request line, no error, no stack.
    await expect.poll(() => t.logEntries().some((e) => e.msg === 'request'), { timeout: 2_000 }).toBe(true);
    const logged = t.logEntries();
    expect(logged.filter((e) => e.level === 'error' || 'stack' in e)).toEqual([]);
    // No experience was created from the part that arrived.
    expect((await t.request('GET', '/v1/experiences')).body.data).toEqual([]);
  });

  it('serves a request that arrives in time', async () => {
    const res = await fetch(`http://127.0.0.1:${appPort}/v1/experiences`, { headers: { authorization: `Bearer ${t.secretKey}` } });
    expect(res.status).toBe(200);
  });

  it('does not count the time the server takes to answer', async () => {
    const slow = createServer((_req, res) => void setTimeout(() => res.end('late but fine'), 3 * limits.requestMs));
    answerMalformedRequests(slow, limits);
    await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', () => resolve()));
    try {
      const res = await fetch(`http://127.0.0.1:${(slow.address() as AddressInfo).port}/`, { method: 'POST', body: '{}' });
      expect(await res.text()).toBe('late but fine');
    } finally {
      slow.closeAllConnections();
      await new Promise<void>((resolve) => slow.close(() => resolve()));
    }
  });
});
