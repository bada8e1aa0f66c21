import { IncomingMessage } from 'node:http';
import type { Context } from 'hono';
import { ApiError } from './errors.js';

export const BODY_LIMIT_BYTES = 64 * 1024;
const JSON_MEDIA_TYPE = /^application\/json\s*(;.*)?$/i;

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
    incoming.on('data', onData);
    incoming.once('end', onEnd);
    incoming.once('error', reject);
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
  return new ApiError(413, 'PAYLOAD_TOO_LARGE', `The body is larger than ${BODY_LIMIT_BYTES / 1024} KiB`);
}

/**
 * The request body as JSON (SPEC §2): an empty body reads as `{}` whatever its content type;
 * a non-empty one must be `application/json`, at most 64 KiB, and parse.
 */
export async function readJsonBody(c: Context): Promise<unknown> {
  const text = await readLimited(c);
  if (text.length === 0) return {};
  const type = c.req.header('content-type') ?? '';
  if (!JSON_MEDIA_TYPE.test(type.trim())) {
    throw new ApiError(415, 'UNSUPPORTED_MEDIA_TYPE', 'Send the body as JSON with Content-Type: application/json');
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiError(400, 'INVALID_JSON', 'The body is not valid JSON');
  }
}
