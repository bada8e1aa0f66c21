import { createHash, randomBytes } from 'node:crypto';
import { CLI, type Actor } from '../domain/actor.js';
import { newId } from '../domain/ids.js';
import { Refusal, conflict, notFound } from '../domain/refusal.js';
import { scopesLackingFor } from '../domain/roles.js';
import type { Store } from '../store/index.js';
import type { UserRow } from '../store/users.js';
import { recordActivity } from './activity.js';
import { processSettings } from './process-settings.js';
import type { Role, Scope, UserPatch } from '../../shared/index.js';

/** A setup link works once, for this long: long enough for a weekend, short enough to go stale in an inbox. */
export const SETUP_LINK_TTL_MS = 72 * 60 * 60 * 1000;

export interface NewUser {
  email: string;
  name: string;
  role: Role;
  /** Set for a user whose password is chosen for them (the demo owner); else they get a setup link. */
  passwordHash?: string;
}

export interface CreatedUser {
  user: UserRow;
  /** Null when the user was created with a password. */
  setupUrl: string | null;
}

/**
 * Who adds a user or changes a role: the name the activity log gives them, and the scopes they hold.
 * A role is given only by someone holding every scope of it, as a key's scopes are.
 */
export interface UserGrantor {
  actor: Actor;
  scopes: readonly (Scope | '*')[];
}

/** The command line: whoever runs it owns the server's files, so it may give any role. */
export const COMMAND_LINE: UserGrantor = { actor: CLI, scopes: ['*'] };

/** Refuses to give `role` unless `by` holds every scope of it. */
function mayGive(by: UserGrantor, role: Role): void {
  const lacking = scopesLackingFor(by.scopes, role);
  if (lacking.length === 0) return;
  const who = by.actor.type === 'user' ? 'Your role' : by.actor.type === 'key' ? 'This API key' : 'This caller';
  throw new Refusal('FORBIDDEN', `${who} cannot give the role ${role}: it lacks the scopes ${lacking.join(', ')}`);
}

/**
 * One answer for every address already in use, wherever its user is: e-mails name one user on the
 * whole server, and the answer must not tell another organization's users apart from one's own.
 */
const emailTaken = () => conflict('This e-mail address is already in use: an address names one user on the whole server, so choose another');

const hashToken = (token: string) => createHash('sha256').update(token).digest();

/** The address of the dashboard's setup page; the token sits after `#`, so no server or proxy logs it. */
export const setupUrlOf = (publicUrl: string, token: string) => `${publicUrl}/dashboard/setup#${token}`;

/**
 * A new setup link for the user, replacing any earlier one. Only the token's SHA-256 is stored:
 * it is 32 random bytes, so a fast hash is enough, and a copy of the database holds no live link.
 */
async function issueSetupLink(store: Store, userId: string, publicUrl: string, now: number): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await store.users.deleteSetupTokensOf(userId);
  await store.users.insertSetupToken(hashToken(token), userId, now + SETUP_LINK_TTL_MS);
  return setupUrlOf(publicUrl, token);
}

/** The setup link's user, while the link is live; consumed by `takeSetupToken`. */
export async function findSetupToken(store: Store, token: string, now: number): Promise<{ userId: string; hash: Buffer } | undefined> {
  const hash = hashToken(token);
  const row = await store.users.getSetupToken(hash);
  if (!row || row.expiresAt <= now) return undefined;
  return { userId: row.userId, hash };
}

/** Uses the link up; false when another request used it first. Call inside the transaction that sets the password. */
export async function takeSetupToken(store: Store, hash: Buffer, now: number): Promise<boolean> {
  const row = await store.users.getSetupToken(hash);
  return await store.users.deleteSetupToken(hash) === 1 && row !== undefined && row.expiresAt > now;
}

export async function createUser(
  store: Store,
  orgId: string,
  by: UserGrantor,
  input: NewUser,
  publicUrl: string,
  now: number,
  options: { invite?: boolean } = {},
): Promise<CreatedUser> {
  mayGive(by, input.role);
  return await store.transaction(async () => {
    const email = input.email.trim();
    if (await store.users.getUserByEmail(email)) throw emailTaken();
    const user: UserRow = {
      id: newId('user', now),
      orgId,
      email,
      name: input.name.trim(),
      role: input.role,
      passwordHash: input.passwordHash ?? null,
      createdAt: now,
      lastSignInAt: null,
      disabledAt: null,
    };
    await store.users.insertUser(user);
    const setupUrl = input.passwordHash === undefined ? await issueSetupLink(store, user.id, publicUrl, now) : null;
    // With a mail server the link also goes to the user by e-mail; the message keeps it only until
    // it is sent or fails. Without one nothing is queued: the caller hands the link over.
    if (options.invite && setupUrl !== null && processSettings().guestMail) {
      await store.messages.enqueueMessage({ orgId, bookingId: null, kind: 'USER_INVITE', to: user.email, userId: user.id, setupUrl, createdAt: now });
    }
    await recordActivity(
      store,
      orgId,
      by.actor,
      { action: 'user.create', targetType: 'user', targetId: user.id, summary: `Added ${user.name} <${user.email}> as ${user.role}` },
      now,
    );
    return { user, setupUrl };
  });
}

export async function listUsers(store: Store, orgId: string): Promise<UserRow[]> {
  return await store.users.listUsers(orgId);
}

/** A user of the organization; another organization's is as unknown as one that never existed. */
export async function getUser(store: Store, orgId: string, id: string): Promise<UserRow> {
  const user = await store.users.getUser(id);
  if (!user || user.orgId !== orgId) throw notFound('User');
  return user;
}

const isActiveOwner = (user: UserRow) => user.role === 'owner' && user.disabledAt === null;

/** An organization always keeps someone who can manage it. */
async function keepAnOwner(store: Store, user: UserRow, what: string): Promise<void> {
  if (isActiveOwner(user) && await store.users.countActiveOwners(user.orgId) <= 1) {
    throw conflict(`Cannot ${what} the organization's last active owner: make another user an owner first`);
  }
}

export async function updateUser(store: Store, orgId: string, by: UserGrantor, id: string, patch: UserPatch, now: number): Promise<UserRow> {
  return await store.transaction(async () => {
    const current = await getUser(store, orgId, id);
    if (patch.role !== undefined && patch.role !== current.role) mayGive(by, patch.role);
    const next: UserRow = {
      ...current,
      name: patch.name?.trim() ?? current.name,
      role: patch.role ?? current.role,
      disabledAt: patch.disabled === undefined ? current.disabledAt : patch.disabled ? (current.disabledAt ?? now) : null,
    };
    if (isActiveOwner(current) && !isActiveOwner(next)) await keepAnOwner(store, current, next.disabledAt !== null ? 'disable' : 'demote');
    await store.users.updateUser(next);
    // A disabled user is signed out everywhere at once, not at the end of each session.
    if (next.disabledAt !== null) await store.users.deleteSessionsOf(id);
    const changes: string[] = [];
    if (next.name !== current.name) changes.push(`renamed to ${next.name}`);
    if (next.role !== current.role) changes.push(`role ${current.role} → ${next.role}`);
    if ((next.disabledAt === null) !== (current.disabledAt === null)) changes.push(next.disabledAt === null ? 'enabled' : 'disabled');
    await recordActivity(
      store,
      orgId,
      by.actor,
      {
        action: 'user.update',
        targetType: 'user',
        targetId: id,
        summary: `Updated ${current.name} <${current.email}>${changes.length ? `: ${changes.join(', ')}` : ''}`,
      },
      now,
    );
    return next;
  });
}

export async function deleteUser(store: Store, orgId: string, actor: Actor, id: string, now: number): Promise<void> {
  await store.transaction(async () => {
    const user = await getUser(store, orgId, id);
    await keepAnOwner(store, user, 'delete');
    // Sessions and setup links go with the user (ON DELETE CASCADE).
    await store.users.deleteUser(id);
    await recordActivity(
      store,
      orgId,
      actor,
      { action: 'user.delete', targetType: 'user', targetId: id, summary: `Removed ${user.name} <${user.email}>` },
      now,
    );
  });
}

/**
 * A forgotten or compromised password: the old password stops working, every session ends at once,
 * and a new setup link (the only way back in) replaces any earlier one.
 */
export async function resetUser(store: Store, actor: Actor, email: string, publicUrl: string, now: number): Promise<{ user: UserRow; setupUrl: string }> {
  return await store.transaction(async () => {
    const user = await store.users.getUserByEmail(email);
    if (!user) throw notFound('User');
    await store.users.deleteSessionsOf(user.id);
    await store.users.setUserPassword(user.id, null);
    const setupUrl = await issueSetupLink(store, user.id, publicUrl, now);
    await recordActivity(
      store,
      user.orgId,
      actor,
      { action: 'user.reset', targetType: 'user', targetId: user.id, summary: `Reset the password of ${user.name} <${user.email}>` },
      now,
    );
    return { user, setupUrl };
  });
}

/** The password rules beyond length, which need the user: never the e-mail address itself. */
export function checkNewPassword(user: UserRow, password: string): void {
  if (password.length < 10 || password.length > 200) {
    throw new Refusal('VALIDATION_ERROR', 'Invalid password: use 10 to 200 characters', [
      { path: 'password', message: 'Use 10 to 200 characters' },
    ]);
  }
  if (password.trim().toLowerCase() === user.email.trim().toLowerCase()) {
    throw new Refusal('VALIDATION_ERROR', 'Invalid password: it must not be your e-mail address', [
      { path: 'password', message: 'Must not be your e-mail address' },
    ]);
  }
}
