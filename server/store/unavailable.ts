import { Refusal } from '../domain/refusal.js';

/**
 * A database that cannot be reached, told apart from any other failure by its error codes, so that
 * callers see one refusal (`SERVICE_UNAVAILABLE`, with a wait) instead of an internal error: a load
 * balancer or a client then retries, as it would not after a 500. Both engines' stores pass every
 * error of a statement or transaction through `asUnavailable`.
 */

/** Seconds a client is asked to wait before trying again. */
export const RETRY_AFTER_SECONDS = 5;

export function databaseUnavailable(): Refusal {
  return new Refusal('SERVICE_UNAVAILABLE', 'The database cannot be reached right now; try again in a few seconds', undefined, RETRY_AFTER_SECONDS);
}

/** Node's socket and name-resolution failures on the way to PostgreSQL. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED', 'ECONNRESET', 'ECONNABORTED', 'ETIMEDOUT', 'EHOSTUNREACH', 'EHOSTDOWN', 'ENETUNREACH', 'ENETDOWN',
  'ENOTFOUND', 'EAI_AGAIN', 'EPIPE', 'EADDRNOTAVAIL',
]);

/**
 * PostgreSQL's SQLSTATEs for a server that will not serve now: class 08 (connection exception),
 * 53300 too many connections, 57P01–57P03 (shut down, crashed, starting up), 28000/28P01 (login
 * refused: the credentials changed under a running server) and 3D000 (its database is gone).
 */
const POSTGRES_STATES = /^(08...|53300|57P0[123]|28000|28P01|3D000)$/;

/**
 * node-postgres's own words for a connection that ended or never came (it gives these no code). A
 * pool this process closed itself is not among them: that is a fault, as a closed SQLite store is.
 */
const POSTGRES_MESSAGES = /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error)/;

/**
 * SQLite's codes for a database file that cannot be used for now: still locked by another process
 * after the busy timeout, unopenable, an I/O error of the disk, or a full disk.
 */
const SQLITE_CODES = /^SQLITE_(BUSY|CANTOPEN|IOERR|FULL|PROTOCOL)(_|$)/;

export function isDatabaseUnavailable(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string') {
    if (NETWORK_CODES.has(code) || POSTGRES_STATES.test(code) || SQLITE_CODES.test(code)) return true;
  }
  if (POSTGRES_MESSAGES.test(err.message)) return true;
  // Several addresses tried for one host name: all failed the same way.
  return err instanceof AggregateError && err.errors.length > 0 && err.errors.every(isDatabaseUnavailable);
}

/** The refusal for an unreachable database, or `err` as it was. */
export function asUnavailable(err: unknown): unknown {
  return isDatabaseUnavailable(err) ? databaseUnavailable() : err;
}
