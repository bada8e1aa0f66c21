/**
 * Wakes a background job of this process when work is queued. The caller notifies once the work is
 * committed (`Sql.afterCommit`); the listeners run on the next turn of the event loop, once for any
 * number of notifications before it.
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
