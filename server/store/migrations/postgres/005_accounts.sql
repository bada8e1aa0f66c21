-- PostgreSQL form of migration 005_accounts.sql: dashboard users, setup links, sessions and
-- failed sign-ins.
-- People who sign in to the dashboard. One organization each; an e-mail address names one person on
-- the whole server, compared lower-cased: the application keeps the lower-cased form in email_key
-- (users.ts emailKey: trim and toLowerCase), so no NOCASE collation or lower() index is needed;
-- the UNIQUE on email_key is the same in both engines.
CREATE TABLE users (
  id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  email TEXT NOT NULL,
  email_key TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL,
  role TEXT NOT NULL CHECK (role IN ('owner', 'staff')),
  -- scrypt$N$r$p$salt$hash; null until the user follows a setup link.
  password_hash TEXT,
  created_at BIGINT NOT NULL,
  last_sign_in_at BIGINT,
  disabled_at BIGINT
);
CREATE INDEX users_by_org ON users(org_id, created_at);

-- Setup links: only the SHA-256 of the token is kept (BYTEA, a Buffer to the store).
CREATE TABLE user_setup_tokens (
  token_hash BYTEA PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  expires_at BIGINT NOT NULL
);
CREATE INDEX user_setup_tokens_by_user ON user_setup_tokens(user_id);

-- Dashboard sessions, by the SHA-256 of the cookie's token.
CREATE TABLE sessions (
  id TEXT PRIMARY KEY,
  token_hash BYTEA NOT NULL UNIQUE,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  csrf_token TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  last_seen_at BIGINT NOT NULL
);
CREATE INDEX sessions_by_user ON sessions(user_id);

-- Failed sign-ins per e-mail, in the database so that every process counts the same guesses.
-- No primary key, as in SQLite (where the hidden rowid is never read).
CREATE TABLE sign_in_failures (
  email_key TEXT NOT NULL,
  at BIGINT NOT NULL
);
CREATE INDEX sign_in_failures_by_email ON sign_in_failures(email_key, at);
CREATE INDEX sign_in_failures_by_age ON sign_in_failures(at);
