/**
 * What really differs between SQLite and PostgreSQL, each difference written once. A table module
 * asks its `Sql`'s dialect for the fragment; every other part of a statement is the same text on
 * both engines. Fragments hold `?` placeholders where the caller passes a parameter.
 */
export interface Dialect {
  readonly engine: 'sqlite' | 'postgres';
  /**
   * `column` equals the parameter ignoring ASCII case. SQLite's NOCASE folds ASCII only; lower()
   * folds more on PostgreSQL, but Outing compares only ASCII-shaped values this way (booking numbers).
   */
  equalsIgnoringCase(column: string): string;
  /**
   * `column` matches the LIKE pattern in the parameter ignoring ASCII case, with `\` escaping `%`,
   * `_` and itself (see `likePattern`). SQLite's LIKE ignores ASCII case; PostgreSQL's ILIKE does too.
   */
  likeIgnoringCase(column: string): string;
  /**
   * `column` as written in a WHERE clause where an index on it must not be chosen: SQLite keeps no
   * statistics, so a unary `+` steers its planner; PostgreSQL's planner chooses by statistics.
   */
  noIndex(column: string): string;
  /** The JSON array of strings in `column` (TEXT) holds the parameter. */
  jsonArrayHas(column: string): string;
  /**
   * A partial index's own condition, restated in a query meant to read through that index; '' when
   * not needed. SQLite uses a partial index only when the query's WHERE holds its condition word for
   * word; PostgreSQL proves it from the other clauses, and a restated one skews its estimates.
   */
  partialIndexCondition(condition: string): string;
  /**
   * A statement after which the transaction's writes, up to its commit, take turns with every other
   * transaction's that ran it too (events get their positions in commit order so); '' where writers
   * always take turns (SQLite).
   */
  orderedWritesLock(): string;
}

export const sqliteDialect: Dialect = {
  engine: 'sqlite',
  equalsIgnoringCase: (column) => `${column} = ? COLLATE NOCASE`,
  likeIgnoringCase: (column) => `${column} LIKE ? ESCAPE '\\'`,
  noIndex: (column) => `+${column}`,
  jsonArrayHas: (column) => `EXISTS (SELECT 1 FROM json_each(${column}) WHERE value = ?)`,
  partialIndexCondition: (condition) => condition,
  orderedWritesLock: () => '',
};

export const postgresDialect: Dialect = {
  engine: 'postgres',
  equalsIgnoringCase: (column) => `lower(${column}) = lower(?)`,
  likeIgnoringCase: (column) => `${column} ILIKE ? ESCAPE '\\'`,
  noIndex: (column) => column,
  jsonArrayHas: (column) => `jsonb_exists(${column}::jsonb, ?)`,
  partialIndexCondition: () => '',
  // Its own advisory lock, apart from the write lock (postgres/db.ts): held by a shared transaction too.
  orderedWritesLock: () => `SELECT pg_advisory_xact_lock(${0x6f7574696e69})`,
};

/** A LIKE pattern finding `text` anywhere, its `%`, `_` and `\` taken literally (for `likeIgnoringCase`). */
export function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
}
