import type { Db } from './db.js';

export function settingsStore(db: Db) {
  const get = db.prepare('SELECT value FROM settings WHERE key = ?');
  const set = db.prepare('INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value');
  return {
    getSetting(key: string): string | undefined {
      return (get.get(key) as { value: string } | undefined)?.value;
    },
    setSetting(key: string, value: string): void {
      set.run(key, value);
    },
  };
}
