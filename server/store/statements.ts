import type { Db } from './sqlite/db.js';
import type Database from 'better-sqlite3';

/** Prepares each distinct SQL text once per database (list queries are assembled from filters). */
export function statementCache(db: Db) {
  const cache = new Map<string, Database.Statement>();
  return (sql: string): Database.Statement => {
    let stmt = cache.get(sql);
    if (!stmt) {
      stmt = db.prepare(sql);
      cache.set(sql, stmt);
    }
    return stmt;
  };
}

export interface Page {
  limit: number;
  offset: number;
}

export interface PageResult<T> {
  rows: T[];
  total: number;
}
