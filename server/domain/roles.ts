import type { Role, Scope } from '../../shared/index.js';

/**
 * What each role may do. Staff run the day's tours (bookings, the guests, the calendars they read)
 * but not the settings: keys, users, webhooks, the organization and the catalogue stay with owners.
 */
const ROLE_SCOPES: Record<Role, readonly (Scope | '*')[]> = {
  owner: ['*'],
  staff: ['experiences:read', 'bookings:read', 'bookings:write', 'customers:read', 'calendars:read'],
};

export function scopesOf(role: Role): readonly (Scope | '*')[] {
  return ROLE_SCOPES[role];
}

/** Whether `held` covers `wanted`: `'*'` covers every scope. */
export function covers(held: readonly (Scope | '*')[], wanted: Scope | '*'): boolean {
  return held.includes('*') || (wanted !== '*' && held.includes(wanted));
}
