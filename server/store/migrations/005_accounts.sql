-- People who sign in to the dashboard. One organization each; an e-mail address names one person on
-- the whole server (compared lower-cased, kept in email_key), so signing in needs no organization.
CREATE TABLE users (
  id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  email TEXT NOT NULL,
  email_key TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL,
  role TEXT NOT NULL CHECK (role IN ('owner', 'staff')),
  -- scrypt$N$r$p$salt$hash; null until the user follows a setup link.
  password_hash TEXT,
  created_at INTEGER NOT NULL,
  last_sign_in_at INTEGER,
  disabled_at INTEGER
);
CREATE INDEX users_by_org ON users(org_id, created_at);

-- Setup links: only the SHA-256 of the token is kept, so a copy of the database sets no password.
-- A user has at most one live link; a reset replaces it, following one deletes it.
CREATE TABLE user_setup_tokens (
  token_hash BLOB PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  expires_at INTEGER NOT NULL
);
CREATE INDEX user_setup_tokens_by_user ON user_setup_tokens(user_id);

-- Dashboard sessions, by the SHA-256 of the cookie's token. The CSRF token is kept as is: it is
-- handed back to the signed-in page, and is worth nothing without the cookie.
CREATE TABLE sessions (
  id TEXT PRIMARY KEY,
  token_hash BLOB NOT NULL UNIQUE,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  csrf_token TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  last_seen_at INTEGER NOT NULL
);
CREATE INDEX sessions_by_user ON sessions(user_id);

-- Failed sign-ins per e-mail, in the database rather than in a process's memory, so that every
-- process sharing the file counts the same guesses.
CREATE TABLE sign_in_failures (
  email_key TEXT NOT NULL,
  at INTEGER NOT NULL
);
CREATE INDEX sign_in_failures_by_email ON sign_in_failures(email_key, at);
CREATE INDEX sign_in_failures_by_age ON sign_in_failures(at);
