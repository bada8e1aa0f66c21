/** Calls to Outing from actions: one at a time counts, failures become the guest's words. */
import { ApiError } from '../api.js';
import { batch } from './signals.js';
import type { BookingState, Problem } from './state.js';

export function problemOf(e: unknown): Problem {
  if (!(e instanceof ApiError)) return 'server';
  if (e.status === 0) return 'network';
  if (e.status === 429) return 'rateLimited';
  if (e.code === 'IDEMPOTENCY_KEY_IN_USE') return 'busy';
  if (e.status === 404) return 'notFound';
  if (e.status === 401 || e.status === 403) return 'setup';
  return 'server';
}

/**
 * Runs `call` with the loading state on, and gives its answer only if no newer request started
 * meanwhile and the widget is still mounted. A failure shows, with `retry` when retrying can help.
 */
export async function request<T>(s: BookingState, call: () => Promise<T>, retry: () => void): Promise<T | undefined> {
  const mine = ++s.session.generation;
  const current = () => mine === s.session.generation && !s.session.disposed;
  batch(() => {
    s.busy.value = true;
    s.trouble.value = null;
  });
  try {
    const answer = await call();
    return current() ? answer : undefined;
  } catch (e) {
    if (current()) {
      const problem = problemOf(e);
      s.trouble.value = { problem, retry: problem === 'notFound' || problem === 'setup' ? undefined : retry };
    }
    return undefined;
  } finally {
    if (mine === s.session.generation) s.busy.value = false;
  }
}
