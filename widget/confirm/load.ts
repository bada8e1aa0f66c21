/**
 * The confirmation chunk (chunk.ts, built as `/widget/confirmation.js` beside widget.js), loaded
 * from widget.js's server as a classic script the first time a confirmed booking is shown, once per
 * page: the host page's `script-src` already allows that server, so its policy needs nothing more.
 * Until it arrives the confirmation shows without it; if it cannot be had, it stays so.
 */
import type { ChunkScript, ConfirmationChunk } from './chunk.js';
import { signal } from '../state/signals.js';

const chunk = signal<ConfirmationChunk | undefined>(undefined);
let asked = false;

/** The chunk's function once loaded (a render that reads it re-renders when it arrives); asks for it the first time. */
export function confirmationChunk(origin: string): ConfirmationChunk | undefined {
  if (!asked) {
    asked = true;
    const script: ChunkScript = document.createElement('script');
    script.src = `${origin}/widget/confirmation.js`;
    script.onload = () => (chunk.value = script.outing);
    document.head.append(script);
  }
  return chunk.value;
}
