import type { ErrorCode, ErrorDetails } from '../../shared/index.js';

/**
 * Why a request, a command or a background step cannot be done, in the domain's words: a stable
 * code, a message for a person, and the fields at fault. It knows no transport: `server/http/`
 * alone maps a code to an HTTP status, and the CLI prints the message without ever seeing one.
 */
export class Refusal extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: ErrorDetails,
    /** When a limit refuses: how long until trying again can succeed. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'Refusal';
  }
}

export const notFound = (what = 'Resource') => new Refusal('NOT_FOUND', `${what} not found`);

/** One field at fault: the message names it, and `details` carries it for forms and clients. */
export const invalid = (path: string, message: string) =>
  new Refusal('VALIDATION_ERROR', `Invalid ${path || 'request'}: ${message}`, [{ path, message }]);

export const conflict = (message: string) => new Refusal('CONFLICT', message);
