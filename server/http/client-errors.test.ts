import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { expectError } from '../test-helpers/index.js';
import { answerMalformedRequests } from './client-errors.js';

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
