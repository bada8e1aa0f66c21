/**
 * The widget's state lives in Preact's signals. It takes them from @preact/signals-core, the
 * framework-free core of @preact/signals: each mount re-renders inside one `effect`, so the
 * Preact integration (component auto-tracking, hooks) is not needed, and leaving it out keeps
 * ~2.4 KB gzipped inside the 17 KB budget of size-budget.test.ts.
 */
export { signal, computed, effect, batch, untracked } from '@preact/signals-core';
export type { Signal, ReadonlySignal } from '@preact/signals-core';
