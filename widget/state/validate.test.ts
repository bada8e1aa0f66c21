import { describe, expect, it } from 'vitest';
import { checkContact } from './validate.js';

const ok = { name: 'Ana Lima', email: 'ana@example.com', phone: '', website: '' };

describe('the guest’s details', () => {
  it('accepts a name and an e-mail, with or without a phone', () => {
    expect(checkContact(ok)).toEqual({});
    expect(checkContact({ ...ok, phone: '+351 912 345 678' })).toEqual({});
  });

  it('asks for a name and an e-mail', () => {
    expect(checkContact({ ...ok, name: '  ', email: '' })).toEqual({ name: 'required', email: 'required' });
  });

  it('refuses e-mail addresses the server would refuse', () => {
    for (const email of ['ana', 'ana@', 'ana@example', 'ana@@example.com', 'a b@example.com', '.ana@example.com']) {
      expect(checkContact({ ...ok, email }).email, email).toBe('invalidEmail');
    }
    expect(checkContact({ ...ok, email: `${'a'.repeat(250)}@example.com` }).email).toBe('tooLong');
  });

  it('refuses a phone that is not one, or too long', () => {
    expect(checkContact({ ...ok, phone: 'call me' }).phone).toBe('invalidPhone');
    expect(checkContact({ ...ok, phone: '12' }).phone).toBe('invalidPhone');
    expect(checkContact({ ...ok, phone: '1'.repeat(41) }).phone).toBe('tooLong');
  });

  it('refuses a name over 200 characters', () => {
    expect(checkContact({ ...ok, name: 'x'.repeat(201) }).name).toBe('tooLong');
  });
});
