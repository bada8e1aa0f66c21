/**
 * The widget's chunks (vite.config.ts builds each beside widget.js as `/widget/{file}`), loaded from
 * widget.js's server as classic scripts the first time a step needs one, once per page: the host
 * page's `script-src` already allows that server, so its policy needs nothing more. A chunk adds no
 * global: it hands what it exports to the <script> element that loaded it (`outing`). Until it
 * arrives the step shows without it.
 */
import { signal } from './state/signals.js';
import type { Signal } from './state/signals.js';

/** The <script> element that loads a chunk, which the chunk gives its export to. */
export type ChunkScript<T> = HTMLScriptElement & { outing?: T };

const chunks: Record<string, Signal<unknown>> = {};

/** A chunk's export once loaded (a render that reads it re-renders when it arrives); asks for `/widget/{name}.js` the first time. */
export function chunk<T>({ origin }: { origin: string }, name: string): T | undefined {
  return (chunks[name] ??= load(`${origin}/widget/${name}.js`)).value as T | undefined;
}

/** Adds the chunk's <script> to the page: its export, once there, is the signal's value. */
function load(src: string): Signal<unknown> {
  const held = signal<unknown>(undefined);
  const script: ChunkScript<unknown> = document.createElement('script');
  script.src = src;
  script.onload = () => (held.value = script.outing);
  document.head.append(script);
  return held;
}
