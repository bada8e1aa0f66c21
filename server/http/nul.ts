import { Refusal } from '../domain/refusal.js';
import type { ErrorDetail } from '../../shared/index.js';

/**
 * U+0000 (NUL) in a request: refused everywhere, before any schema or the store sees it.
 *
 * PostgreSQL cannot store a NUL in text at all (`invalid byte sequence for encoding "UTF8": 0x00`),
 * even to compare it with a column, while SQLite keeps it; no name, e-mail, id or note a person
 * types holds one. Refusing it at the edge, in the path, the query and the body alike, gives one
 * answer on both engines and leaves no field to forget (metadata keys included). Other control
 * characters are stored as sent: both engines keep them the same.
 */
export const NUL_MESSAGE = 'Must not contain the NUL character (U+0000)';
const NUL_IN_KEY_MESSAGE = 'Field names must not contain the NUL character (U+0000)';
/** One bad field is enough to act on; a body full of them needs no thousand details. */
const MAX_DETAILS = 20;

const hasNul = (text: string) => text.includes('\u0000');

/** A field name as a path names it: its NULs written out as the visible `\u0000`, so the path stays printable. */
const printable = (name: string) => name.replaceAll('\u0000', '\\u0000');

const join = (parent: string, key: string) => (parent ? `${parent}.${key}` : key);

/** The paths (`customerName`, `metadata.ref`, `tickets[0].categoryId`) of a parsed JSON value that hold a NUL. */
export function nulPathsIn(value: unknown, path = '', found: ErrorDetail[] = []): ErrorDetail[] {
  if (found.length >= MAX_DETAILS) return found;
  if (typeof value === 'string') {
    if (hasNul(value)) found.push({ path, message: NUL_MESSAGE });
  } else if (Array.isArray(value)) {
    value.forEach((item, i) => nulPathsIn(item, `${path}[${i}]`, found));
  } else if (value !== null && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) {
      if (hasNul(key)) found.push({ path: join(path, printable(key)), message: NUL_IN_KEY_MESSAGE });
      else nulPathsIn(child, join(path, key), found);
    }
  }
  return found.slice(0, MAX_DETAILS);
}

function refuse(where: 'path' | 'query' | 'body', details: ErrorDetail[]): never {
  const first = details[0];
  throw new Refusal('VALIDATION_ERROR', `Invalid ${where}: ${first?.path ? `${first.path}: ` : ''}${first?.message ?? NUL_MESSAGE}`, details);
}

/**
 * Refuses a NUL in the URL: in a path parameter (a `400` naming it, not the `404` of an id of the
 * wrong shape) or in a query parameter's name or value, whether or not the route reads its query.
 * A NUL can only arrive in a URL percent-encoded (the HTTP parser refuses a raw one), so a URL
 * without `%00` is not looked at further.
 */
export function refuseNulInUrl(url: string, params: () => Record<string, string>): void {
  if (!url.includes('%00')) return;
  const inPath = Object.entries(params())
    .filter(([, value]) => hasNul(value))
    .map(([name]) => ({ path: name, message: NUL_MESSAGE }));
  if (inPath.length > 0) refuse('path', inPath);
  const inQuery: ErrorDetail[] = [];
  for (const [key, value] of new URL(url).searchParams) {
    if (hasNul(key)) inQuery.push({ path: printable(key), message: NUL_IN_KEY_MESSAGE });
    else if (hasNul(value)) inQuery.push({ path: key, message: NUL_MESSAGE });
  }
  if (inQuery.length > 0) refuse('query', inQuery.slice(0, MAX_DETAILS));
}

/**
 * Refuses a JSON body holding a NUL in any string or key. `text` is the body as sent: JSON can only
 * carry a NUL as the escape `\u0000` (a raw one does not parse), so a body without that escape is
 * not walked at all.
 */
export function refuseNulInBody(text: string, parsed: unknown): void {
  if (!text.includes('\\u0000')) return;
  const details = nulPathsIn(parsed);
  if (details.length > 0) refuse('body', details);
}
