import type { Async } from '../index.js';
import { quoteAliases, type PgDb } from './db.js';
import type { SessionRow, UserRow, userStore } from '../users.js';
import { emailKey, SESSION_COLUMNS, USER_COLUMNS } from '../users.js';

/** PostgreSQL folds unquoted aliases to lower case: quoting them keeps the SQLite module's column lists the one source. */

const USERS = quoteAliases(USER_COLUMNS);
const SESSIONS = quoteAliases(SESSION_COLUMNS);

type SetupToken = { tokenHash: Buffer; userId: string; expiresAt: number };

/**
 * users.ts over PostgreSQL: dashboard users, their setup links, sessions and failed sign-ins. The
 * failures (and the attempts counted per client address) stay rows of sign_in_failures, so every
 * process counts the same guesses; the caller (services/sessions.ts) reads and records them in one
 * store transaction, which holds the write lock.
 */
export function userStorePg(db: PgDb): Async<ReturnType<typeof userStore>> {
  return {
    async insertUser(row: UserRow): Promise<void> {
      await db.run(
        `INSERT INTO users (id, org_id, email, email_key, name, role, password_hash, created_at, last_sign_in_at, disabled_at)
          VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
        [row.id, row.orgId, row.email, emailKey(row.email), row.name, row.role, row.passwordHash, row.createdAt, row.lastSignInAt, row.disabledAt],
      );
    },
    async getUser(id: string): Promise<UserRow | undefined> {
      return await db.get<UserRow>(`SELECT ${USERS} FROM users WHERE id = $1`, [id]);
    },
    async getUserByEmail(email: string): Promise<UserRow | undefined> {
      return await db.get<UserRow>(`SELECT ${USERS} FROM users WHERE email_key = $1`, [emailKey(email)]);
    },
    async listUsers(orgId: string): Promise<UserRow[]> {
      return await db.all<UserRow>(`SELECT ${USERS} FROM users WHERE org_id = $1 ORDER BY created_at, id`, [orgId]);
    },
    async countActiveOwners(orgId: string): Promise<number> {
      const row = await db.get<{ n: number }>(
        `SELECT count(*) AS n FROM users WHERE org_id = $1 AND role = 'owner' AND disabled_at IS NULL`,
        [orgId],
      );
      return row?.n ?? 0; // count(*) always answers one row
    },
    async updateUser(row: Pick<UserRow, 'id' | 'name' | 'role' | 'disabledAt'>): Promise<void> {
      await db.run('UPDATE users SET name = $1, role = $2, disabled_at = $3 WHERE id = $4', [row.name, row.role, row.disabledAt, row.id]);
    },
    async setUserPassword(id: string, passwordHash: string | null): Promise<void> {
      await db.run('UPDATE users SET password_hash = $1 WHERE id = $2', [passwordHash, id]);
    },
    async recordSignIn(id: string, at: number): Promise<void> {
      await db.run('UPDATE users SET last_sign_in_at = $1 WHERE id = $2', [at, id]);
    },
    async deleteUser(id: string): Promise<void> {
      await db.run('DELETE FROM users WHERE id = $1', [id]);
    },

    async insertSetupToken(tokenHash: Buffer, userId: string, expiresAt: number): Promise<void> {
      await db.run('INSERT INTO user_setup_tokens (token_hash, user_id, expires_at) VALUES ($1, $2, $3)', [tokenHash, userId, expiresAt]);
    },
    async getSetupToken(tokenHash: Buffer): Promise<SetupToken | undefined> {
      return await db.get<SetupToken>(
        'SELECT token_hash AS "tokenHash", user_id AS "userId", expires_at AS "expiresAt" FROM user_setup_tokens WHERE token_hash = $1',
        [tokenHash],
      );
    },
    async deleteSetupToken(tokenHash: Buffer): Promise<number> {
      return await db.run('DELETE FROM user_setup_tokens WHERE token_hash = $1', [tokenHash]);
    },
    async deleteSetupTokensOf(userId: string): Promise<void> {
      await db.run('DELETE FROM user_setup_tokens WHERE user_id = $1', [userId]);
    },
    async deleteExpiredSetupTokens(now: number): Promise<number> {
      return await db.run('DELETE FROM user_setup_tokens WHERE expires_at <= $1', [now]);
    },

    async insertSession(row: SessionRow): Promise<void> {
      await db.run(
        `INSERT INTO sessions (id, token_hash, user_id, csrf_token, created_at, last_seen_at) VALUES ($1, $2, $3, $4, $5, $6)`,
        [row.id, row.tokenHash, row.userId, row.csrfToken, row.createdAt, row.lastSeenAt],
      );
    },
    async getSessionByHash(tokenHash: Buffer): Promise<SessionRow | undefined> {
      return await db.get<SessionRow>(`SELECT ${SESSIONS} FROM sessions WHERE token_hash = $1`, [tokenHash]);
    },
    async getSession(id: string): Promise<SessionRow | undefined> {
      return await db.get<SessionRow>(`SELECT ${SESSIONS} FROM sessions WHERE id = $1`, [id]);
    },
    async touchSession(id: string, at: number): Promise<void> {
      await db.run('UPDATE sessions SET last_seen_at = $1 WHERE id = $2', [at, id]);
    },
    async deleteSession(id: string): Promise<void> {
      await db.run('DELETE FROM sessions WHERE id = $1', [id]);
    },
    async deleteSessionsOf(userId: string): Promise<void> {
      await db.run('DELETE FROM sessions WHERE user_id = $1', [userId]);
    },
    /** Sessions unused since `idleBefore` or begun before `startedBefore`. */
    async deleteStaleSessions(idleBefore: number, startedBefore: number): Promise<number> {
      return await db.run('DELETE FROM sessions WHERE last_seen_at <= $1 OR created_at <= $2', [idleBefore, startedBefore]);
    },

    async recordSignInFailure(email: string, at: number): Promise<void> {
      await db.run('INSERT INTO sign_in_failures (email_key, at) VALUES ($1, $2)', [emailKey(email), at]);
    },
    /** The time of the `n`-th newest failure for this e-mail after `since` (n from 1), if there are that many. */
    async nthSignInFailure(email: string, since: number, n: number): Promise<number | undefined> {
      const row = await db.get<{ at: number }>(
        'SELECT at FROM sign_in_failures WHERE email_key = $1 AND at > $2 ORDER BY at DESC LIMIT 1 OFFSET $3',
        [emailKey(email), since, n - 1],
      );
      return row?.at;
    },
    async clearSignInFailures(email: string): Promise<void> {
      await db.run('DELETE FROM sign_in_failures WHERE email_key = $1', [emailKey(email)]);
    },
    async deleteSignInFailuresBefore(before: number): Promise<number> {
      return await db.run('DELETE FROM sign_in_failures WHERE at <= $1', [before]);
    },
  };
}
