import { OutboundError, outboundFetch, type Resolver } from '../net/outbound.js';
import type { AttemptRecord, DeliveryJob } from '../store/webhooks.js';
import { signWebhook } from './sign.js';
import { parseRetryAfter, retryDelayMs } from './retry.js';

export const USER_AGENT = 'Outing-Webhooks/1';
const MAX_ERROR_LENGTH = 300;

/** What came back from one POST: a status code, or an error that kept one from arriving. */
export type AttemptResult =
  | { kind: 'response'; statusCode: number; retryAfter: string | null }
  | { kind: 'error'; message: string }
  | { kind: 'cancelled' };

export interface AttemptOptions {
  timeoutMs: number;
  allowPrivate: boolean;
  signal?: AbortSignal;
  resolver?: Resolver;
}

/** The secrets that sign now: the current one, and the previous one while its 24 h overlap lasts. */
export function signingSecrets(job: Pick<DeliveryJob, 'secret' | 'previousSecret' | 'previousSecretUntil'>, now: number): string[] {
  const previous = job.previousSecret !== null && (job.previousSecretUntil ?? 0) > now ? [job.previousSecret] : [];
  return [job.secret, ...previous];
}

/**
 * POSTs the stored event body, signed afresh for this attempt (webhook-timestamp = now), to the
 * endpoint: no redirects followed, the response body never read.
 */
export async function postEvent(job: DeliveryJob, now: number, options: AttemptOptions): Promise<AttemptResult> {
  const headers = {
    ...signWebhook(signingSecrets(job, now), job.eventId, job.payload, new Date(now)),
    'content-type': 'application/json',
    'user-agent': USER_AGENT,
  };
  try {
    const res = await outboundFetch(job.url, {
      method: 'POST',
      headers,
      body: job.payload,
      timeoutMs: options.timeoutMs,
      allowPrivate: options.allowPrivate,
      redirect: 'manual',
      readBody: false,
      signal: options.signal,
      resolver: options.resolver,
    });
    return { kind: 'response', statusCode: res.status, retryAfter: res.headers.get('retry-after') };
  } catch (err) {
    if (err instanceof OutboundError && err.code === 'ABORTED') return { kind: 'cancelled' };
    const message = err instanceof OutboundError ? err.message : 'Delivery failed';
    return { kind: 'error', message };
  }
}

function describeStatus(code: number): string {
  if (code >= 300 && code < 400) return `Receiver answered ${code}: redirects are not followed`;
  return `Receiver answered ${code}`;
}

/** How an attempt ends up in the delivery log, and whether the receiver said the endpoint is gone. */
export function outcomeOf(
  result: Exclude<AttemptResult, { kind: 'cancelled' }>,
  attemptsBefore: number,
  schedule: readonly number[],
  now: number,
  random: number,
): AttemptRecord & { gone: boolean } {
  const statusCode = result.kind === 'response' ? result.statusCode : null;
  if (statusCode !== null && statusCode >= 200 && statusCode < 300) {
    return { status: 'SUCCEEDED', lastStatusCode: statusCode, lastError: null, nextAttemptAt: null, deliveredAt: now, gone: false };
  }
  if (statusCode === 410) {
    return {
      status: 'FAILED',
      lastStatusCode: 410,
      lastError: 'Receiver answered 410 Gone: the endpoint has been disabled',
      nextAttemptAt: null,
      deliveredAt: null,
      gone: true,
    };
  }
  const lastError = (result.kind === 'error' ? result.message : describeStatus(statusCode ?? 0)).slice(0, MAX_ERROR_LENGTH);
  const retryAfter = result.kind === 'response' ? parseRetryAfter(result.retryAfter, now) : undefined;
  const delay = retryDelayMs(attemptsBefore + 1, schedule, retryAfter, random);
  return {
    status: delay === undefined ? 'FAILED' : 'PENDING',
    lastStatusCode: statusCode,
    lastError,
    nextAttemptAt: delay === undefined ? null : now + delay,
    deliveredAt: null,
    gone: false,
  };
}
