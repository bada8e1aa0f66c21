-- Rate-limit counters shared by every process of one database: one row per caller (`bucket`) and
-- one-minute window (`window_start`, epoch milliseconds, the window's first hit), holding its hits.
-- A SQLite file has one serving process, which counts in memory; the table is here so that both
-- engines keep one schema. Expired windows are deleted as new ones open.
CREATE TABLE rate_limit_windows (
  bucket TEXT NOT NULL,
  window_start INTEGER NOT NULL,
  hits INTEGER NOT NULL,
  PRIMARY KEY (bucket, window_start)
);
