import type { Async } from '../index.js';
import type { settingsStore } from '../settings.js';
import type { PgDb } from './db.js';

export function settingsStorePg(db: PgDb): Async<ReturnType<typeof settingsStore>> {
  return {
    async getSetting(key: string): Promise<string | undefined> {
      return (await db.get<{ value: string }>('SELECT value FROM settings WHERE key = $1', [key]))?.value;
    },
    async setSetting(key: string, value: string): Promise<void> {
      await db.run(
        'INSERT INTO settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
        [key, value],
      );
    },
  };
}
