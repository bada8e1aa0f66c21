import { describe, expect, it } from 'vitest';
import { MAX_RETRY_AFTER_SECONDS, parseRetryAfter, retryDelayMs } from './retry.js';
import { outcomeOf } from './attempt.js';

const SCHEDULE = [5, 300, 1800];

describe('retry timing', () => {
  it('waits the next value of the schedule, within ±10% jitter', () => {
    expect(retryDelayMs(1, SCHEDULE, undefined, 0.5)).toBe(5_000);
    expect(retryDelayMs(1, SCHEDULE, undefined, 0)).toBe(4_500);
    expect(retryDelayMs(1, SCHEDULE, undefined, 0.999999)).toBeLessThanOrEqual(5_500);
    expect(retryDelayMs(2, SCHEDULE, undefined, 0.5)).toBe(300_000);
    expect(retryDelayMs(3, SCHEDULE, undefined, 0.5)).toBe(1_800_000);
  });

  it('stops once the schedule is used up (1 + its length attempts in all)', () => {
    expect(retryDelayMs(4, SCHEDULE, undefined, 0.5)).toBeUndefined();
    expect(retryDelayMs(1, [], undefined, 0.5)).toBeUndefined();
  });

  it("waits for the receiver's Retry-After when it is longer, never beyond 10 hours", () => {
    expect(retryDelayMs(1, SCHEDULE, 60, 0.5)).toBe(60_000);
    expect(retryDelayMs(2, SCHEDULE, 60, 0.5)).toBe(300_000);
    expect(retryDelayMs(1, SCHEDULE, 999_999, 0.5)).toBe(MAX_RETRY_AFTER_SECONDS * 1000);
    expect(retryDelayMs(4, SCHEDULE, 60, 0.5)).toBeUndefined();
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    const now = Date.parse('2026-11-21T10:00:00Z');
    expect(parseRetryAfter('120', now)).toBe(120);
    expect(parseRetryAfter(' 7 ', now)).toBe(7);
    expect(parseRetryAfter('Sat, 21 Nov 2026 10:02:00 GMT', now)).toBe(120);
    expect(parseRetryAfter('Sat, 21 Nov 2026 09:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('99999999', now)).toBe(MAX_RETRY_AFTER_SECONDS);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });
});

describe('attempt outcomes', () => {
  const now = Date.parse('2026-11-21T10:00:00Z');
  const response = (statusCode: number, retryAfter: string | null = null) => ({ kind: 'response' as const, statusCode, retryAfter });

  it('succeeds on any 2xx', () => {
    for (const code of [200, 201, 202, 204, 299]) {
      expect(outcomeOf(response(code), 0, SCHEDULE, now, 0.5)).toMatchObject({ status: 'SUCCEEDED', deliveredAt: now, lastError: null });
    }
  });

  it('counts a redirect as a failure', () => {
    expect(outcomeOf(response(302), 0, SCHEDULE, now, 0.5)).toMatchObject({
      status: 'PENDING',
      lastStatusCode: 302,
      lastError: 'Receiver answered 302: redirects are not followed',
      nextAttemptAt: now + 5_000,
    });
  });

  it('fails for good after the last scheduled retry', () => {
    expect(outcomeOf(response(500), 3, SCHEDULE, now, 0.5)).toMatchObject({ status: 'FAILED', nextAttemptAt: null });
  });

  it('fails and reports the endpoint gone on 410', () => {
    expect(outcomeOf(response(410), 0, SCHEDULE, now, 0.5)).toMatchObject({ status: 'FAILED', gone: true, lastStatusCode: 410 });
  });

  it('records network errors without a status code', () => {
    expect(outcomeOf({ kind: 'error', message: 'No response within 100 ms' }, 1, SCHEDULE, now, 0.5)).toMatchObject({
      status: 'PENDING',
      lastStatusCode: null,
      lastError: 'No response within 100 ms',
      nextAttemptAt: now + 300_000,
    });
  });

  it('honours Retry-After on an error response', () => {
    expect(outcomeOf(response(503, '3600'), 0, SCHEDULE, now, 0.5).nextAttemptAt).toBe(now + 3_600_000);
  });
});
