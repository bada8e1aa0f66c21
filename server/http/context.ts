import type { Actor } from '../domain/actor.js';
import type { ApiKeyType, Scope } from '../../shared/index.js';

/** Who is calling: resolved from the API key by `authenticate`. */
export interface Caller {
  orgId: string;
  keyId: string;
  type: ApiKeyType;
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
