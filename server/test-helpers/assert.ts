import { expect } from 'vitest';
import type { z } from 'zod';
import { ErrorEnvelope, PriceChangedDetails, dataEnvelope, listEnvelope, type ErrorCode, type ErrorDetail } from '../../shared/index.js';

/** Anything with a status and a parsed body: a `TestResponse`, or `{ status, body }` from fetch. */
export interface ResponseLike {
  status: number;
  body: unknown;
  headers?: Headers;
}

/** An error whose `details`, when present, list fields (every code but PRICE_CHANGED). */
export type ListedError = Omit<ErrorEnvelope['error'], 'details'> & { details?: ErrorDetail[] };

/**
 * Asserts the contract's error: the status, the code, the envelope (shared `ErrorEnvelope`), `details`
 * only on VALIDATION_ERROR / CAPACITY_EXCEEDED (a list) and PRICE_CHANGED (an object, see
 * `expectPriceChanged`), and an `X-Request-Id`. Returns the parsed `error`.
 */
export function expectError(res: ResponseLike, status: number, code: ErrorCode): ListedError {
  expect({ status: res.status, body: res.body }).toMatchObject({ status, body: { error: { code } } });
  const { error } = ErrorEnvelope.parse(res.body);
  const { details, ...rest } = error;
  if (code === 'VALIDATION_ERROR' || code === 'CAPACITY_EXCEEDED') expect(Array.isArray(details) && details.length).toBeGreaterThan(0);
  else if (code === 'PRICE_CHANGED') PriceChangedDetails.strict().parse(details);
  else expect(details).toBeUndefined();
  if (res.headers) expect(res.headers.get('x-request-id')).toBeTruthy();
  return Array.isArray(details) ? { ...rest, details } : rest;
}

/** Asserts a `409 PRICE_CHANGED` and returns the total it names (`details.total`). */
export function expectPriceChanged(res: ResponseLike): string {
  expectError(res, 409, 'PRICE_CHANGED');
  return PriceChangedDetails.parse(ErrorEnvelope.parse(res.body).error.details).total;
}

/** Asserts a `400 VALIDATION_ERROR` whose `details` name `path`; returns the details. */
export function expectValidationError(res: ResponseLike, path: string): ErrorDetail[] {
  const error = expectError(res, 400, 'VALIDATION_ERROR');
  const details = error.details ?? [];
  expect(details.map((d) => d.path)).toContain(path);
  return details;
}

/** Asserts a success envelope with `status` and returns `data` parsed by `schema`. */
export function expectData<S extends z.ZodType>(res: ResponseLike, schema: S, status = 200): z.output<S> {
  expect({ status: res.status, body: res.body }).toMatchObject({ status });
  return (dataEnvelope(schema).parse(res.body) as { data: z.output<S> }).data;
}

/** Asserts a list envelope (200) and returns it parsed, items by `item`. */
export function expectList<S extends z.ZodType>(res: ResponseLike, item: S) {
  expect({ status: res.status, body: res.body }).toMatchObject({ status: 200 });
  return listEnvelope(item).parse(res.body) as { success: true; data: z.output<S>[]; pagination: { total: number; limit: number; offset: number; hasMore: boolean } };
}
