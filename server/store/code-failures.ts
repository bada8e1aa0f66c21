import type { Sql } from './sql.js';

/**
 * Codes refused on the public API, per client address: the guessing limit's count, kept in the
 * database so that every process sharing it counts the same guesses.
 */
export interface CodeFailureStore {
  /** Notes a refused code of `ip` at `at`, and forgets every failure (of any address) before `forgetBefore`. */
  recordCodeFailure(ip: string, at: number, forgetBefore: number): Promise<void>;
  /** The times of `ip`'s failures after `since`, oldest first. */
  codeFailuresSince(ip: string, since: number): Promise<number[]>;
}

export function codeFailureStore(sql: Sql): CodeFailureStore {
  return {
    async recordCodeFailure(ip, at, forgetBefore) {
      await sql.run('DELETE FROM code_failures WHERE at < ?', [forgetBefore]);
      await sql.run('INSERT INTO code_failures (ip, at) VALUES (?, ?)', [ip, at]);
    },
    async codeFailuresSince(ip, since) {
      const rows = await sql.values<[number]>('SELECT at FROM code_failures WHERE ip = ? AND at > ? ORDER BY at', [ip, since]);
      return rows.map(([at]) => at);
    },
  };
}
