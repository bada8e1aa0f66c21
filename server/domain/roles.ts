import { SCOPES, type Role, type Scope } from '../../shared/index.js';

/**
 * What each role may do. Staff run the day's tours (bookings, the guests, the calendars they read)
 * but not the settings: keys, users, webhooks, the organization and the catalogue stay with owners.
 * So do promotions (`promotions:read`/`write`): a gift voucher's full code is money, and staff take a
 * promo or voucher code on a booking without them (the booking checks the code, not the scope).
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

/**
 * The scopes of `role` that `held` lacks, in the order of the scope list: a role may be given (to a
 * new user, or as a new role) only by a caller for whom this is empty, so nobody makes someone
 * mightier than themselves and then signs in as them. `'*'` counts as every scope there is.
 */
export function scopesLackingFor(held: readonly (Scope | '*')[], role: Role): Scope[] {
  const granted = ROLE_SCOPES[role];
  const wanted = granted.includes('*') ? SCOPES : granted.filter((s): s is Scope => s !== '*');
  return wanted.filter((scope) => !covers(held, scope));
}
