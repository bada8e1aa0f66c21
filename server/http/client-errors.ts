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
 * Requests that Node's HTTP parser refuses before the app sees them (a malformed request line, a
 * lower-case method, headers over 16 KiB) would get Node's bare answer without a body. The
 * contract wants the JSON envelope and an `X-Request-Id` on every error (SPEC §2), so they get
 * them here. Found by the route fuzz (reliability/fuzz.test.ts).
 */
export function answerMalformedRequests(server: Server): void {
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    if (err.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const answer = ANSWERS[err.code ?? ''] ?? MALFORMED;
    const body = JSON.stringify(errorBody('VALIDATION_ERROR', answer.message, [{ path: answer.path, message: answer.message }]));
    socket.end(
      `HTTP/1.1 ${answer.status} ${answer.reason}\r\n` +
        'Content-Type: application/json\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        `X-Request-Id: ${requestIdFor(undefined)}\r\n` +
        'Connection: close\r\n\r\n' +
        body,
    );
  });
}
