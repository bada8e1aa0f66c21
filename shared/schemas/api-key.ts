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
  'promotions:read',
  'promotions:write',
  'octo',
] as const;
export const Scope = z.enum(SCOPES);
export type Scope = z.infer<typeof Scope>;

export const ApiKeyType = z.enum(['secret', 'publishable']);
export type ApiKeyType = z.infer<typeof ApiKeyType>;

/**
 * A key as listed: its prefix lets a person recognise it. A publishable key is public by design (it
 * is in every page that embeds the widget), so its whole value is listed as `key`; a secret key's
 * never is (`key` is null), nor a publishable key's made before version 1.2 (only its hash was kept).
 */
export const ApiKey = z.object({
  id: z.string(),
  name: z.string(),
  type: ApiKeyType,
  scopes: z.array(z.string()),
  prefix: z.string(),
  key: z
    .string()
    .nullable()
    .describe('The whole key of a publishable key, to paste into web pages; null for a secret key (shown only when made) and for a publishable key made before version 1.2'),
  createdAt: Instant,
  lastUsedAt: Instant.nullable(),
  revokedAt: Instant.nullable(),
});
export type ApiKey = z.infer<typeof ApiKey>;

/** The answer to creating a key: its value, which for a secret key is shown here only (Outing keeps its SHA-256). */
export const ApiKeyWithSecret = ApiKey.extend({ key: z.string().describe('The whole key; a secret key is shown only in this answer') });

export const ApiKeyCreate = z.strictObject({
  name: NonBlank(200),
  type: ApiKeyType.default('secret'),
  scopes: z.array(Scope).min(1).max(SCOPES.length).optional(),
});
export type ApiKeyCreate = z.infer<typeof ApiKeyCreate>;

export const ApiKeyRevoked = z.object({ id: z.string(), revokedAt: Instant });
