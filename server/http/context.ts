import type { Actor } from '../domain/actor.js';
import type { ApiKeyType, Scope } from '../../shared/index.js';

/** Who is calling: an API key, or a user signed in to the dashboard (its session cookie on `/v1`). */
export interface Caller {
  orgId: string;
  /** The API key of the request; absent when a signed-in user makes it. */
  keyId?: string;
  /** The signed-in user; absent when an API key makes the request. */
  userId?: string;
  /** The dashboard session the signed-in user's request came with. */
  sessionId?: string;
  /** The key's type, or `session` for a signed-in user. */
  type: ApiKeyType | 'session';
  /** `'*'` holds every scope. */
  scopes: readonly (Scope | '*')[];
  /** Who the activity log names for changes made by this caller (its IP is added per request). */
  actor: Actor;
}

export interface AppEnv {
  Variables: {
    requestId: string;
    caller: Caller | undefined;
    clientIp: string;
  };
}
