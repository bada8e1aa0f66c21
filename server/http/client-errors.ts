import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { errorBody } from './errors.js';
import { requestIdFor } from './request-id.js';

const ANSWERS: Record<string, { status: number; reason: string; path: string; message: string }> = {
  HPE_HEADER_OVERFLOW: {
    status: 431,
    reason: 'Request Header Fields Too Large',
    path: 'headers',
    message: 'The request line and headers must fit in 16 KiB: send long inputs in a JSON body',
  },
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, reason: 'Request Timeout', path: 'request', message: 'The request did not arrive in time' },
};
const MALFORMED = {
  status: 400,
  reason: 'Bad Request',
  path: 'request',
  message: 'This is not a well-formed HTTP/1.1 request (methods are upper-case, header values ASCII)',
};

/**
 * How long a client may take to send a request. Node's defaults (60 s for the headers, 300 s for
 * the whole request) let a client that sends one byte every few seconds hold a connection, and
 * the memory behind it, for five minutes; a few hundred such clients exhaust the server.
 */
export interface RequestTimeLimits {
  /**
   * The request line and headers (at most 16 KiB): 10 s. A browser or API client sends them in
   * one packet; even a phone on a poor 2G link (~20 kbit/s) sends 16 KiB in under 7 s.
   */
  headersMs: number;
  /**
   * The whole request, headers and body (at most 64 KiB): 30 s, enough for the largest body at
   * 20 kbit/s (26 s); a booking is under 2 KiB, a second even on such a link. The time the server
   * then takes to answer does not count.
   */
  requestMs: number;
  /** How often Node looks for late requests (its default, 30 s, would let one live up to 60 s). */
  checkEveryMs: number;
}

export const REQUEST_TIME_LIMITS: RequestTimeLimits = { headersMs: 10_000, requestMs: 30_000, checkEveryMs: 1_000 };

/** Sockets whose request was cut off for being late, so the body reader can say so (see body.ts). */
export const lateRequestSockets = new WeakSet<object>();

/**
 * Hardens the HTTP server before it listens:
 *
 * - Requests that Node's HTTP parser refuses before the app sees them (a malformed request line, a
 *   lower-case method, headers over 16 KiB) would get Node's bare answer without a body. The
 *   contract wants the JSON error envelope and an `X-Request-Id` on every error (README, "Use the API"),
 *   so they get them here. Found by the route fuzz (reliability/fuzz.test.ts).
 * - Requests are bounded in time (`REQUEST_TIME_LIMITS`); a late one is answered 408 in the same
 *   envelope when nothing of a response has been sent yet, and its connection is closed.
 *
 * `limits` exists for tests, which cannot wait 30 s.
 */
export function answerMalformedRequests(server: Server, limits: Partial<RequestTimeLimits> = {}): void {
  const { headersMs, requestMs, checkEveryMs } = { ...REQUEST_TIME_LIMITS, ...limits };
  server.headersTimeout = headersMs;
  server.requestTimeout = requestMs;
  // Read by Node when the server starts listening (a real property, missing from @types/node).
  (server as Server & { connectionsCheckingInterval: number }).connectionsCheckingInterval = checkEveryMs;

  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') lateRequestSockets.add(socket);
    // Once a response has begun on this socket, another one written after it would corrupt it.
    const responding = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent === true;
    if (err.code === 'ECONNRESET' || !socket.writable || responding) {
      socket.destroy();
      return;
    }
    const answer = ANSWERS[err.code ?? ''] ?? MALFORMED;
    const body = JSON.stringify(errorBody('VALIDATION_ERROR', answer.message, [{ path: answer.path, message: answer.message }]));
    // Closed for good once the answer is out: HTTP sockets are half-open, so ending our side alone
    // would let a slow client go on sending into a request nobody reads.
    socket.end(
      `HTTP/1.1 ${answer.status} ${answer.reason}\r\n` +
        'Content-Type: application/json\r\n' +
        'X-Content-Type-Options: nosniff\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        `X-Request-Id: ${requestIdFor(undefined)}\r\n` +
        'Connection: close\r\n\r\n' +
        body,
      () => socket.destroy(),
    );
  });
}
