/**
 * Signals from @preact/signals-core, as in the widget: the app re-renders inside one `effect`
 * (main.tsx), so components stay plain functions of the model and need no hooks integration.
 */
export { signal, computed, effect, batch } from '@preact/signals-core';
export type { Signal, ReadonlySignal } from '@preact/signals-core';
