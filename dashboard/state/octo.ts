/**
 * Resellers on the OCTO API, as the dashboard speaks of them: the key type offered for them, the
 * scope such a key holds, where their systems connect, and the words for bookings they make.
 */
import type { ApiKey, Booking, Scope } from '../../shared/index.js';

/** The scope a reseller's key holds: the OCTO API, and nothing of /v1. */
export const OCTO_SCOPE = 'octo' satisfies Scope;

/** The key type the create form offers for resellers: a secret key with the scope above. */
export const RESELLER = 'reseller';

/** A key made for a reseller: secret, and holding the OCTO scope alone. */
export const isResellerKey = (k: Pick<ApiKey, 'type' | 'scopes'>): boolean => k.type === 'secret' && k.scopes.length === 1 && k.scopes[0] === OCTO_SCOPE;

/**
 * Where a reseller's system connects. The dashboard is served by the Outing it manages, so its
 * origin is the server's public address.
 */
export const octoEndpoint = (): string => `${location.origin}/octo`;

/** Scopes whose names say little to a person, in words; the others read well as they are. */
const SCOPE_WORDS: Record<string, string> = { [OCTO_SCOPE]: 'Reseller bookings (OCTO)' };

export const scopeWords = (scope: string): string => SCOPE_WORDS[scope] ?? scope;

/** Who made a booking, in a few words (the list's filter and column). */
export const SOURCE_WORDS: Record<Booking['source'], string> = {
  WIDGET: 'Widget',
  DASHBOARD: 'Dashboard',
  API: 'API',
  OCTO: 'Reseller (OCTO)',
};

/** The name of a booking without one (a reseller may send no contact). */
export const NO_NAME = 'No name given';
