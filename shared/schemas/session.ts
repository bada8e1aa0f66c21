import { z } from 'zod';
import { Email } from './common.js';
import { User } from './user.js';

/**
 * The password rules: length alone (NIST SP 800-63B), and never the e-mail itself. The e-mail check
 * needs the user, so the server applies it; a form may repeat it.
 */
export const Password = z.string().min(10, { message: 'Use at least 10 characters' }).max(200, { message: 'Use at most 200 characters' });

export const SessionCreate = z.strictObject({
  email: Email,
  // Checked only against the stored hash: a rule added later must not lock out older passwords.
  password: z.string().min(1).max(200),
});
export type SessionCreate = z.infer<typeof SessionCreate>;

export const PasswordSetup = z.strictObject({
  token: z.string().min(1).max(200),
  password: Password,
});
export type PasswordSetup = z.infer<typeof PasswordSetup>;

/**
 * Who is signed in, and the token that must come back as `X-CSRF-Token` with each `/v1` request
 * the dashboard makes with its cookie.
 */
export const Session = z.object({
  user: User,
  organization: z.object({ id: z.string(), name: z.string() }),
  csrfToken: z.string(),
});
export type Session = z.infer<typeof Session>;

export const SignedOut = z.object({ signedOut: z.literal(true) });
