/**
 * What may be printed or logged of a value that can carry a secret or personal data. Every log line,
 * banner and CLI answer that shows a database URL or a request target goes through these.
 */

export const REDACTED = '[redacted]';

/** Connection parameters whose value is a secret: libpq's `password` and `sslpassword`, and anything named like them. */
const SECRET_PARAMETER = /pass(word|phrase)|secret|token/i;

/** `decodeURIComponent` that never throws (a stray `%` stays as written), reading `+` as a space as forms do. */
function decode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

/**
 * `a=1&b=2` with the value of every parameter `secret(decodedName, decodedValue)` names replaced,
 * names kept as written. A parameter whose name is itself secret (no `=`) is replaced whole.
 */
function redactParameters(query: string, secret: (name: string, value: string) => boolean, secretName?: (name: string) => boolean): string {
  return query
    .split('&')
    .map((pair) => {
      const at = pair.indexOf('=');
      if (at === -1) return secretName?.(decode(pair)) ? REDACTED : pair;
      const name = pair.slice(0, at);
      return secret(decode(name), decode(pair.slice(at + 1))) ? `${name}=${REDACTED}` : pair;
    })
    .join('&');
}

/**
 * A PostgreSQL connection string without its secrets, in every form libpq reads: the password of
 * the user info (`postgres://user:secret@host`), a `password=` or `sslpassword=` query parameter
 * (under any spelling that decodes to one), and the same keys in a `key=value` conninfo string. The
 * rest (user, hosts, database, options) stays, so that the operator can tell which database it is.
 * Written without a URL parser: a URL that `new URL` refuses (several hosts) is redacted as well.
 */
export function redactDatabaseUrl(connection: string): string {
  const scheme = /^[a-z][a-z0-9+.-]*:\/\//i.exec(connection);
  if (!scheme) {
    // key=value conninfo: a value is a word or a single-quoted string with backslash escapes.
    return connection.replace(
      /([A-Za-z_][\w-]*)(\s*=\s*)('(?:\\.|[^'\\])*'?|[^\s']*)/g,
      (whole, key: string, equals: string) => (SECRET_PARAMETER.test(key) ? `${key}${equals}${REDACTED}` : whole),
    );
  }
  const rest = connection.slice(scheme[0].length);
  const authorityEnd = rest.search(/[/?#]/);
  const authority = authorityEnd === -1 ? rest : rest.slice(0, authorityEnd);
  let tail = authorityEnd === -1 ? '' : rest.slice(authorityEnd);
  // The user info ends at the authority's last `@` (an unescaped `@` in a password comes before it).
  const at = authority.lastIndexOf('@');
  let hosts = authority;
  if (at !== -1) {
    const userInfo = authority.slice(0, at);
    const colon = userInfo.indexOf(':');
    hosts = `${colon === -1 ? userInfo : `${userInfo.slice(0, colon)}:${REDACTED}`}@${authority.slice(at + 1)}`;
  }
  const hash = tail.indexOf('#');
  const fragment = hash === -1 ? '' : tail.slice(hash);
  if (hash !== -1) tail = tail.slice(0, hash);
  const question = tail.indexOf('?');
  if (question !== -1) {
    tail = `${tail.slice(0, question + 1)}${redactParameters(tail.slice(question + 1), (name) => SECRET_PARAMETER.test(name))}`;
  }
  return `${scheme[0]}${hosts}${tail}${fragment ? '#' + REDACTED : ''}`;
}

/** Something that reads as an e-mail address: a local part, `@`, and a domain. */
const EMAIL_LIKE = /[^\s@]+@[^\s@]+/;

/** Something that reads as a gift voucher's code (GV, a dash or space, 12 more characters; any case or spacing). */
const VOUCHER_LIKE = /gv[\s-]+[0-9a-z]{4}[\s-]*[0-9a-z]{4}[\s-]*[0-9a-z]{4}/i;

/**
 * Query parameters logged without their value: secrets (`key`, `token`), search terms, which name
 * guests, and the codes a guest may type (a gift voucher's code is money).
 */
const UNLOGGED_PARAMETERS = new Set(['key', 'token', 'search', 'q', 'promocode', 'vouchercode']);

/**
 * The request target as it may be logged: iCal feed tokens, the values of `key`, `token`, `search`,
 * `q`, `promoCode` and `voucherCode`, and every path segment or query value that reads as an e-mail
 * address or a gift voucher's code (percent-encoded or not) are replaced by `[redacted]`.
 */
export function redactTarget(pathWithQuery: string): string {
  const question = pathWithQuery.indexOf('?');
  const path = question === -1 ? pathWithQuery : pathWithQuery.slice(0, question);
  const query = question === -1 ? undefined : pathWithQuery.slice(question + 1);
  const safePath = path
    .replace(/(\/api\/ical\/)[^/]+/i, `$1${REDACTED}`)
    .split('/')
    .map((segment) => (EMAIL_LIKE.test(decode(segment)) || VOUCHER_LIKE.test(decode(segment)) ? REDACTED : segment))
    .join('/');
  if (query === undefined) return safePath;
  const safeQuery = redactParameters(
    query,
    (name, value) =>
      UNLOGGED_PARAMETERS.has(name.toLowerCase()) || EMAIL_LIKE.test(value) || EMAIL_LIKE.test(name) || VOUCHER_LIKE.test(value) || VOUCHER_LIKE.test(name),
    (name) => EMAIL_LIKE.test(name) || VOUCHER_LIKE.test(name),
  );
  return `${safePath}?${safeQuery}`;
}
