import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { ErrorCode, ErrorDetail } from '../../shared/index.js';

/** The one way to fail a request: thrown anywhere, rendered by `onError` in the contract's envelope. */
export class ApiError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: ErrorCode,
    message: string,
    readonly details?: ErrorDetail[],
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export const notFound = (what = 'Resource') => new ApiError(404, 'NOT_FOUND', `${what} not found`);
export const validationError = (path: string, message: string) =>
  new ApiError(400, 'VALIDATION_ERROR', `Invalid ${path || 'request'}: ${message}`, [{ path, message }]);

export function errorBody(code: ErrorCode, message: string, details?: ErrorDetail[]) {
  return { success: false as const, error: details ? { code, message, details } : { code, message } };
}

export function renderError(c: Context, err: ApiError): Response {
  for (const [name, value] of Object.entries(err.headers ?? {})) c.header(name, value);
  return c.json(errorBody(err.code, err.message, err.details), err.status);
}
