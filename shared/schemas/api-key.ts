import { z } from 'zod';
import { Instant, NonBlank } from './common.js';

/** Scopes a secret key may hold. A key created without scopes holds all: `["*"]`. */
export const SCOPES = [
  'experiences:read',
  'experiences:write',
  'bookings:read',
  'bookings:write',
  'customers:read',
  'customers:write',
  'organization:read',
  'organization:write',
  'webhooks:read',
  'webhooks:write',
  'calendars:read',
  'calendars:write',
  'keys:read',
  'keys:write',
  'users:read',
  'users:write',
] as const;
export const Scope = z.enum(SCOPES);
export type Scope = z.infer<typeof Scope>;

export const ApiKeyType = z.enum(['secret', 'publishable']);
export type ApiKeyType = z.infer<typeof ApiKeyType>;

/** A key as listed: its prefix lets a person recognise it, never the key itself. */
export const ApiKey = z.object({
  id: z.string(),
  name: z.string(),
  type: ApiKeyType,
  scopes: z.array(z.string()),
  prefix: z.string(),
  createdAt: Instant,
  lastUsedAt: Instant.nullable(),
  revokedAt: Instant.nullable(),
});
export type ApiKey = z.infer<typeof ApiKey>;

/** The one answer that shows a key's value: the key exists nowhere else but in its SHA-256. */
export const ApiKeyWithSecret = ApiKey.extend({ key: z.string() });

export const ApiKeyCreate = z.strictObject({
  name: NonBlank(200),
  type: ApiKeyType.default('secret'),
  scopes: z.array(Scope).min(1).max(SCOPES.length).optional(),
});
export type ApiKeyCreate = z.infer<typeof ApiKeyCreate>;

export const ApiKeyRevoked = z.object({ id: z.string(), revokedAt: Instant });
