// The guessing limit on /public/v1 as HTTP (the rule: domain/code-guessing.ts): a 429 before any code
// is checked, and the middleware that counts each refused code. For public routes only (a booking, a
// quote), never for /v1.
import type { Context, MiddlewareHandler } from 'hono';
import { Refusal } from '../domain/refusal.js';
import { CODE_GUESS_WINDOW_MS, CODE_REFUSALS, codeGuessingWait } from '../domain/code-guessing.js';
import type { Store } from '../store/index.js';
import type { AppEnv } from './context.js';

interface Deps {
  store: Store;
  now: () => number;
}

/**
 * Refuses (429 RATE_LIMITED with Retry-After) a request carrying `promoCode` or `voucherCode` from an
 * address that has guessed too often; its codes are not checked. Call it first in the handler.
 */
export async function refuseCodeGuesser(
  deps: Deps,
  c: Context<AppEnv>,
  body: { promoCode?: string | undefined; voucherCode?: string | undefined },
): Promise<void> {
  if (body.promoCode === undefined && body.voucherCode === undefined) return;
  const now = deps.now();
  const wait = codeGuessingWait(await deps.store.codeFailures.codeFailuresSince(c.get('clientIp'), now - CODE_GUESS_WINDOW_MS), now);
  if (wait !== null) {
    throw new Refusal('RATE_LIMITED', `Too many codes were refused from this address; try a code again in ${wait} s`, undefined, wait);
  }
}

/**
 * Counts each PROMO_CODE_INVALID or VOUCHER_INVALID answer against the client's address, in a
 * transaction of its own (the refused request's own was rolled back).
 */
export function countCodeGuesses(deps: Deps): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    let thrown: unknown;
    try {
      await next();
    } catch (err) {
      thrown = err;
    }
    const err = thrown ?? c.error;
    if (err instanceof Refusal && CODE_REFUSALS.has(err.code)) {
      const now = deps.now();
      const { store } = deps;
      await store.transaction(() => store.codeFailures.recordCodeFailure(c.get('clientIp'), now, now - CODE_GUESS_WINDOW_MS), { lock: 'shared' });
    }
    if (thrown !== undefined) throw thrown;
  };
}
