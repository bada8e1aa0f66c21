import type { ApiKeyType, Scope } from '../../shared/index.js';

/** Who is calling: resolved from the API key by `authenticate`. */
export interface Caller {
  orgId: string;
  keyId: string;
  type: ApiKeyType;
  /** `'*'` holds every scope. */
  scopes: readonly (Scope | '*')[];
}

export interface AppEnv {
  Variables: {
    requestId: string;
    caller: Caller | undefined;
    clientIp: string;
  };
}
