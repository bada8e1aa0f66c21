import type { OrganizationRow } from '../store/organizations.js';
import type { SessionRow, UserRow } from '../store/users.js';
import { iso, isoOrNull } from './instant.js';

/** A user as the API shows one: never the password hash, nor anything of a session's token. */
export function serializeUser(row: UserRow) {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    role: row.role,
    createdAt: iso(row.createdAt),
    lastSignInAt: isoOrNull(row.lastSignInAt),
    disabledAt: isoOrNull(row.disabledAt),
  };
}

/** The signed-in dashboard's view: who, where, and the CSRF token its `/v1` requests must carry. */
export function serializeSession(view: { user: UserRow; organization: OrganizationRow; session: SessionRow }) {
  return {
    user: serializeUser(view.user),
    organization: { id: view.organization.id, name: view.organization.name },
    csrfToken: view.session.csrfToken,
  };
}
