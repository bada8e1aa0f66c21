/**
 * Hand-written checks of the guest's details before they are sent (the server's are in
 * shared/schemas/booking.ts). Lengths are held by the inputs' maxLength (name 200, e-mail 254,
 * phone 40). The e-mail check catches what is plainly not an address; the server's stricter one
 * answers a field error, shown beside the field too (booking-actions.ts): the full pattern would
 * not fit the size budget.
 */

export interface Contact {
  name: string;
  email: string;
  phone: string;
  /** The honeypot: people never see it, so it stays empty; bots fill it. */
  website: string;
}

export type ContactField = 'name' | 'email' | 'phone';
export type FieldProblem = 'required' | 'invalidEmail' | 'invalidPhone';
export type FieldProblems = Partial<Record<ContactField, FieldProblem>>;

const EMAIL = /^[^\s@]+@[^\s@]+\.[a-z]{2,}$/i;
// Digits with the usual separators; at least five digits so a stray key press is caught.
const PHONE = /^\+?[\d\s().\-/]*$/;

export function checkContact(c: Contact): FieldProblems {
  const email = c.email.trim();
  const phone = c.phone.trim();
  return {
    ...(!c.name.trim() && { name: 'required' }),
    ...(!email ? { email: 'required' } : !EMAIL.test(email) && { email: 'invalidEmail' }),
    ...(phone && (!PHONE.test(phone) || phone.replace(/\D/g, '').length < 5) && { phone: 'invalidPhone' }),
  };
}
