import { IncomingMessage } from 'node:http';
import type { Context } from 'hono';
import { Refusal } from '../domain/refusal.js';
import { lateRequestSockets } from './client-errors.js';
import { refuseNulInBody } from './nul.js';

export const BODY_LIMIT_BYTES = 64 * 1024;
const JSON_MEDIA_TYPE = /^application\/json\s*(;.*)?$/i;

/**
 * The body stopped arriving: the client closed the connection (a cancelled upload, a closed tab)
 * or was cut off for being too slow (`lateRequestSockets`). Nobody is left to read an answer, and
 * nothing went wrong on our side: it is a Refusal so that it is never reported as a server error,
 * and `logClientAbort` (see below) is the one line it deserves in the log.
 */
export class ClientAbortedRequest extends Refusal {
  constructor(readonly late: boolean) {
    super(
      'VALIDATION_ERROR',
      late ? 'The request body did not arrive in time' : 'The client closed the connection before the whole body arrived',
      [{ path: 'body', message: late ? 'not received in time' : 'incomplete' }],
    );
    this.name = 'ClientAbortedRequest';
  }
}

/** The log line for a `ClientAbortedRequest`: what happened, no stack (it is not a fault). */
export function logClientAbort(
  logger: { info(msg: string, fields?: Record<string, unknown>): void },
  err: ClientAbortedRequest,
  fields: Record<string, unknown>,
): void {
  logger.info(err.late ? 'request timed out while its body was arriving' : 'client aborted the request', fields);
}

/** Node's own request stream, when served by @hono/node-server (not under app.request()). */
function nodeStream(c: Context): IncomingMessage | undefined {
  const incoming = (c.env as { incoming?: unknown } | undefined)?.incoming;
  return incoming instanceof IncomingMessage && !incoming.readableDidRead ? incoming : undefined;
}

function readNodeStream(incoming: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size <= BODY_LIMIT_BYTES) return void chunks.push(chunk);
      // Stop keeping it but let the rest drain, so the connection can still carry the 413.
      incoming.off('data', onData);
      incoming.off('end', onEnd);
      incoming.resume();
      reject(tooLarge());
    };
    const onEnd = () => resolve(Buffer.concat(chunks).toString('utf8'));
    // A body that stops short: Node emits 'aborted' and an 'error' ("aborted", ECONNRESET) when the
    // connection closes before the body is complete, or just 'close'. Whichever comes first.
    const onCut = () => {
      if (incoming.complete) return;
      incoming.off('data', onData);
      incoming.off('end', onEnd);
      reject(new ClientAbortedRequest(lateRequestSockets.has(incoming.socket)));
    };
    incoming.on('data', onData);
    incoming.once('end', onEnd);
    incoming.once('error', onCut);
    incoming.once('close', onCut);
  });
}

async function readLimited(c: Context): Promise<string> {
  const declared = Number(c.req.header('content-length') ?? NaN);
  if (declared > BODY_LIMIT_BYTES) throw tooLarge();
  // Reading Node's stream directly skips the web-stream wrapping: ~10% of a booking's CPU time.
  const incoming = nodeStream(c);
  if (incoming) return readNodeStream(incoming);
  const stream = c.req.raw.body;
  if (!stream) return '';
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > BODY_LIMIT_BYTES) {
      await reader.cancel().catch(() => {});
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function tooLarge() {
  return new Refusal('PAYLOAD_TOO_LARGE', `The body is larger than ${BODY_LIMIT_BYTES / 1024} KiB`);
}

/**
 * Every `charset` parameter of a media type, unquoted and lower-cased. Parameters are `;`-separated
 * `name=value` pairs whose value may be a quoted string (RFC 9110 §5.6.6), which may hold a `;`.
 */
function charsetsOf(mediaType: string): string[] {
  const params: string[] = [];
  let current = '';
  let quoted = false;
  for (let i = 0; i < mediaType.length; i++) {
    const ch = mediaType[i] ?? '';
    if (quoted && ch === '\\') {
      current += mediaType[++i] ?? '';
      continue;
    }
    if (ch === '"') quoted = !quoted;
    else if (ch === ';' && !quoted) {
      params.push(current);
      current = '';
      continue;
    }
    current += ch;
  }
  params.push(current);
  return params.slice(1).flatMap((param) => {
    const eq = param.indexOf('=');
    if (eq < 0 || param.slice(0, eq).trim().toLowerCase() !== 'charset') return [];
    return [param.slice(eq + 1).replaceAll('"', '').trim().toLowerCase()];
  });
}

/**
 * The request body as JSON (README, "Use the API"): an empty body reads as `{}` whatever its
 * content type; a non-empty one must be `application/json` in UTF-8, at most 64 KiB, and parse, with
 * no NUL (U+0000) in any string or key (`nul.ts`).
 */
export async function readJsonBody(c: Context): Promise<unknown> {
  const text = await readLimited(c);
  if (text.length === 0) return {};
  const type = c.req.header('content-type') ?? '';
  if (!JSON_MEDIA_TYPE.test(type.trim())) {
    throw new Refusal('UNSUPPORTED_MEDIA_TYPE', 'Send the body as JSON with Content-Type: application/json');
  }
  // JSON on the wire is UTF-8 (RFC 8259 §8.1) and the body is decoded as such: a body declared in
  // another charset would be read as something its sender did not mean. `utf8` is a common
  // spelling of the same encoding (a WHATWG label of UTF-8).
  if (charsetsOf(type).some((charset) => charset !== 'utf-8' && charset !== 'utf8')) {
    throw new Refusal(
      'UNSUPPORTED_MEDIA_TYPE',
      'Only UTF-8 is accepted: send the body as JSON with Content-Type: application/json (or application/json; charset=utf-8)',
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new Refusal('INVALID_JSON', 'The body is not valid JSON');
  }
  refuseNulInBody(text, parsed);
  return parsed;
}
