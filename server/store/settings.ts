import type { Sql } from './sql.js';

/** Server-wide settings: one text value per key (keys compare byte for byte; '' is a value). */
export interface SettingsStore {
  getSetting(key: string): Promise<string | undefined>;
  /** Sets the key's value, replacing any it had. */
  setSetting(key: string, value: string): Promise<void>;
}

export function settingsStore(sql: Sql): SettingsStore {
  return {
    async getSetting(key) {
      return (await sql.getCached<{ value: string }>('SELECT value FROM settings WHERE key = ?', [key]))?.value;
    },
    async setSetting(key, value) {
      await sql.run('INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value', [key, value]);
    },
  };
}
