-- PostgreSQL form of migration 010_rate_limits.sql: rate-limit counters shared by every process.
-- One row per caller (`bucket`) and one-minute window (`window_start`, epoch milliseconds, the
-- window's first hit), holding its hits; every `outing serve` on this database counts here, so a
-- client gets one limit however many processes answer it. UNLOGGED: counters are not worth a WAL
-- write and an fsync per request, and losing them in a crash (the table comes back empty) only
-- forgives a minute of hits.
CREATE UNLOGGED TABLE rate_limit_windows (
  bucket TEXT NOT NULL,
  window_start BIGINT NOT NULL,
  hits INTEGER NOT NULL,
  PRIMARY KEY (bucket, window_start)
);
