/**
 * Hand-written checks of the guest's details, matching what the server's schemas accept
 * (SPEC §6: name 1–200, an e-mail ≤ 254, phone ≤ 40), so a form that passes here is not refused.
 */

export interface Contact {
  name: string;
  email: string;
  phone: string;
  /** The honeypot: people never see it, so it stays empty; bots fill it. */
  website: string;
}

export type ContactField = 'name' | 'email' | 'phone';
export type FieldProblem = 'required' | 'invalidEmail' | 'invalidPhone' | 'tooLong';
export type FieldProblems = Partial<Record<ContactField, FieldProblem>>;

// The e-mail pattern of zod 4, which the server validates with.
const EMAIL = /^(?:[A-Za-z0-9_'+\-]+\.)*[A-Za-z0-9_'+\-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9\-]*\.)+[A-Za-z]{2,}$/;
// Digits with the usual separators; at least five digits so a stray key press is caught.
const PHONE = /^\+?[\d\s().\-/]*$/;

export function checkContact(c: Contact): FieldProblems {
  const problems: FieldProblems = {};
  const name = c.name.trim();
  const email = c.email.trim();
  const phone = c.phone.trim();
  if (!name) problems.name = 'required';
  else if (name.length > 200) problems.name = 'tooLong';
  if (!email) problems.email = 'required';
  else if (email.length > 254) problems.email = 'tooLong';
  else if (!EMAIL.test(email)) problems.email = 'invalidEmail';
  if (phone.length > 40) problems.phone = 'tooLong';
  else if (phone && (!PHONE.test(phone) || phone.replace(/\D/g, '').length < 5)) problems.phone = 'invalidPhone';
  return problems;
}
