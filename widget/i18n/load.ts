/**
 * A language other than English, fetched once per page from the server widget.js came from:
 * `GET /widget/{code}.json`, a JSON object of texts (messages.ts). Until it arrives the widget shows
 * no step (mount.tsx); if it cannot be had the widget speaks English.
 */
import { en } from './en.js';
import type { Messages } from './messages.js';

// One fetch per file and page, however many widgets speak the language.
let loading: Record<string, Promise<Messages>> = {};

/** Forgets the files fetched: for tests, where each mount stands for a fresh page. */
export function forgetTexts(): void {
  loading = {};
}

export function loadTexts(origin: string, code: string): Promise<Messages> {
  const url = `${origin}/widget/${code}.json`;
  return (loading[url] ??= fetch(url, { credentials: 'omit' })
    .then((res) => (res.ok ? res.json() : Promise.reject(new Error(`${url}: ${res.status}`))))
    // A text the file lacks (a language file older than this widget) is said in English.
    .then((texts: Partial<Messages>) => ({ ...en, ...texts })));
}
