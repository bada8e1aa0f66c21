import { z } from 'zod';
import { DisplayName, Email, EmailString, Instant } from './common.js';

/** `owner` holds every scope; `staff` runs the day's tours but not the settings. */
export const ROLES = ['owner', 'staff'] as const;
export const Role = z.enum(ROLES);
export type Role = z.infer<typeof Role>;

export const User = z.object({
  id: z.string(),
  email: EmailString,
  name: z.string(),
  role: Role,
  createdAt: Instant,
  lastSignInAt: Instant.nullable(),
  disabledAt: Instant.nullable(),
});
export type User = z.infer<typeof User>;

/** A new user, or one whose password was reset: the link that sets the password, shown once. */
export const UserWithSetupUrl = User.extend({ setupUrl: z.url() });

export const UserCreate = z.strictObject({
  email: Email,
  name: DisplayName(200),
  role: Role,
});
export type UserCreate = z.infer<typeof UserCreate>;

export const UserPatch = z
  .strictObject({ name: DisplayName(200), role: Role, disabled: z.boolean() })
  .partial()
  .refine((o) => Object.keys(o).length > 0, { message: 'Send at least one field to change' });
export type UserPatch = z.infer<typeof UserPatch>;
