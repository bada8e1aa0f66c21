import type { Sql } from './sql.js';

export interface UserRow {
  id: string;
  orgId: string;
  email: string;
  name: string;
  role: 'owner' | 'staff';
  passwordHash: string | null;
  createdAt: number;
  lastSignInAt: number | null;
  disabledAt: number | null;
}

export interface SessionRow {
  id: string;
  tokenHash: Buffer;
  userId: string;
  csrfToken: string;
  createdAt: number;
  lastSeenAt: number;
}

export interface SetupTokenRow {
  tokenHash: Buffer;
  userId: string;
  expiresAt: number;
}

/** Dashboard users, their setup links, their sessions and failed sign-ins. */
export interface UserStore {
  insertUser(row: UserRow): Promise<void>;
  getUser(id: string): Promise<UserRow | undefined>;
  /** By address, whatever its case or surrounding spaces (see `emailKey`). */
  getUserByEmail(email: string): Promise<UserRow | undefined>;
  /** In order of creation. */
  listUsers(orgId: string): Promise<UserRow[]>;
  countActiveOwners(orgId: string): Promise<number>;
  updateUser(row: Pick<UserRow, 'id' | 'name' | 'role' | 'disabledAt'>): Promise<void>;
  setUserPassword(id: string, passwordHash: string | null): Promise<void>;
  recordSignIn(id: string, at: number): Promise<void>;
  deleteUser(id: string): Promise<void>;

  insertSetupToken(tokenHash: Buffer, userId: string, expiresAt: number): Promise<void>;
  getSetupToken(tokenHash: Buffer): Promise<SetupTokenRow | undefined>;
  /** Answers 1 when this call deleted it (a link is used once), 0 when it was already gone. */
  deleteSetupToken(tokenHash: Buffer): Promise<number>;
  deleteSetupTokensOf(userId: string): Promise<void>;
  deleteExpiredSetupTokens(now: number): Promise<number>;

  insertSession(row: SessionRow): Promise<void>;
  getSessionByHash(tokenHash: Buffer): Promise<SessionRow | undefined>;
  getSession(id: string): Promise<SessionRow | undefined>;
  touchSession(id: string, at: number): Promise<void>;
  deleteSession(id: string): Promise<void>;
  deleteSessionsOf(userId: string): Promise<void>;
  /** Sessions unused since `idleBefore` or begun before `startedBefore`. */
  deleteStaleSessions(idleBefore: number, startedBefore: number): Promise<number>;

  /**
   * Counted sign-in attempts, under an e-mail or (services/sessions.ts) a client address's key,
   * which holds no `@`: the two never share a count. The caller reads and records them in one
   * transaction, so every process counts the same guesses.
   */
  recordSignInFailure(email: string, at: number): Promise<void>;
  /** The time of the `n`-th newest failure for this e-mail after `since` (n from 1), if there are that many. */
  nthSignInFailure(email: string, since: number, n: number): Promise<number | undefined>;
  clearSignInFailures(email: string): Promise<void>;
  deleteSignInFailuresBefore(before: number): Promise<number>;
}

const USER_COLUMNS = `id, org_id AS "orgId", email, name, role, password_hash AS "passwordHash", created_at AS "createdAt",
  last_sign_in_at AS "lastSignInAt", disabled_at AS "disabledAt"`;
const SESSION_COLUMNS = `id, token_hash AS "tokenHash", user_id AS "userId", csrf_token AS "csrfToken", created_at AS "createdAt",
  last_seen_at AS "lastSeenAt"`;

/** The form an e-mail address is unique and looked up in. */
export const emailKey = (email: string) => email.trim().toLowerCase();

export function userStore(sql: Sql): UserStore {
  return {
    async insertUser(row) {
      await sql.run(
        `INSERT INTO users (id, org_id, email, email_key, name, role, password_hash, created_at, last_sign_in_at, disabled_at)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [row.id, row.orgId, row.email, emailKey(row.email), row.name, row.role, row.passwordHash, row.createdAt, row.lastSignInAt, row.disabledAt],
      );
    },
    getUser: (id) => sql.get<UserRow>(`SELECT ${USER_COLUMNS} FROM users WHERE id = ?`, [id]),
    getUserByEmail: (email) => sql.get<UserRow>(`SELECT ${USER_COLUMNS} FROM users WHERE email_key = ?`, [emailKey(email)]),
    listUsers: (orgId) => sql.all<UserRow>(`SELECT ${USER_COLUMNS} FROM users WHERE org_id = ? ORDER BY created_at, id`, [orgId]),
    async countActiveOwners(orgId) {
      const row = await sql.get<{ n: number }>(
        `SELECT count(*) AS n FROM users WHERE org_id = ? AND role = 'owner' AND disabled_at IS NULL`,
        [orgId],
      );
      return row!.n; // count(*) always answers one row
    },
    async updateUser(row) {
      await sql.run('UPDATE users SET name = ?, role = ?, disabled_at = ? WHERE id = ?', [row.name, row.role, row.disabledAt, row.id]);
    },
    async setUserPassword(id, passwordHash) {
      await sql.run('UPDATE users SET password_hash = ? WHERE id = ?', [passwordHash, id]);
    },
    async recordSignIn(id, at) {
      await sql.run('UPDATE users SET last_sign_in_at = ? WHERE id = ?', [at, id]);
    },
    async deleteUser(id) {
      await sql.run('DELETE FROM users WHERE id = ?', [id]);
    },

    async insertSetupToken(tokenHash, userId, expiresAt) {
      await sql.run('INSERT INTO user_setup_tokens (token_hash, user_id, expires_at) VALUES (?, ?, ?)', [tokenHash, userId, expiresAt]);
    },
    getSetupToken: (tokenHash) =>
      sql.get<SetupTokenRow>(
        'SELECT token_hash AS "tokenHash", user_id AS "userId", expires_at AS "expiresAt" FROM user_setup_tokens WHERE token_hash = ?',
        [tokenHash],
      ),
    deleteSetupToken: (tokenHash) => sql.run('DELETE FROM user_setup_tokens WHERE token_hash = ?', [tokenHash]),
    async deleteSetupTokensOf(userId) {
      await sql.run('DELETE FROM user_setup_tokens WHERE user_id = ?', [userId]);
    },
    deleteExpiredSetupTokens: (now) => sql.run('DELETE FROM user_setup_tokens WHERE expires_at <= ?', [now]),

    async insertSession(row) {
      await sql.run(
        'INSERT INTO sessions (id, token_hash, user_id, csrf_token, created_at, last_seen_at) VALUES (?, ?, ?, ?, ?, ?)',
        [row.id, row.tokenHash, row.userId, row.csrfToken, row.createdAt, row.lastSeenAt],
      );
    },
    getSessionByHash: (tokenHash) => sql.get<SessionRow>(`SELECT ${SESSION_COLUMNS} FROM sessions WHERE token_hash = ?`, [tokenHash]),
    getSession: (id) => sql.get<SessionRow>(`SELECT ${SESSION_COLUMNS} FROM sessions WHERE id = ?`, [id]),
    async touchSession(id, at) {
      await sql.run('UPDATE sessions SET last_seen_at = ? WHERE id = ?', [at, id]);
    },
    async deleteSession(id) {
      await sql.run('DELETE FROM sessions WHERE id = ?', [id]);
    },
    async deleteSessionsOf(userId) {
      await sql.run('DELETE FROM sessions WHERE user_id = ?', [userId]);
    },
    deleteStaleSessions: (idleBefore, startedBefore) =>
      sql.run('DELETE FROM sessions WHERE last_seen_at <= ? OR created_at <= ?', [idleBefore, startedBefore]),

    async recordSignInFailure(email, at) {
      await sql.run('INSERT INTO sign_in_failures (email_key, at) VALUES (?, ?)', [emailKey(email), at]);
    },
    async nthSignInFailure(email, since, n) {
      const row = await sql.get<{ at: number }>(
        'SELECT at FROM sign_in_failures WHERE email_key = ? AND at > ? ORDER BY at DESC LIMIT 1 OFFSET ?',
        [emailKey(email), since, n - 1],
      );
      return row?.at;
    },
    async clearSignInFailures(email) {
      await sql.run('DELETE FROM sign_in_failures WHERE email_key = ?', [emailKey(email)]);
    },
    deleteSignInFailuresBefore: (before) => sql.run('DELETE FROM sign_in_failures WHERE at <= ?', [before]),
  };
}
