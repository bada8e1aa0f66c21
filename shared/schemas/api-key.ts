import { z } from 'zod';

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
] as const;
export const Scope = z.enum(SCOPES);
export type Scope = z.infer<typeof Scope>;

export const ApiKeyType = z.enum(['secret', 'publishable']);
export type ApiKeyType = z.infer<typeof ApiKeyType>;
