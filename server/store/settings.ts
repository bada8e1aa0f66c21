import type { Db } from './db.js';
import { rowCache } from './row-cache.js';

export function settingsStore(db: Db) {
  const get = db.prepare('SELECT value FROM settings WHERE key = ?');
  const set = db.prepare('INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value');
  // A booking reads whether guest e-mail is on: see row-cache.ts.
  const cached = rowCache<{ value: string }>(db);
  return {
    getSetting(key: string): string | undefined {
      return cached.read(key, () => get.get(key) as { value: string } | undefined)?.value;
    },
    setSetting(key: string, value: string): void {
      cached.forget();
      set.run(key, value);
    },
  };
}
