/**
 * Wakes a background job when work is queued. Deferred with setImmediate: the synchronous
 * transaction that queued the work has committed (or rolled back) by then, so the job sees it.
 */
export function dueNotifier() {
  const listeners = new Set<() => void>();
  let scheduled = false;
  return {
    notify(): void {
      if (scheduled || listeners.size === 0) return;
      scheduled = true;
      setImmediate(() => {
        scheduled = false;
        for (const listener of listeners) listener();
      });
    },
    /** Calls `listener` soon after work becomes due; returns the unsubscribe function. */
    subscribe(listener: () => void): () => void {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
}
