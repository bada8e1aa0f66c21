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

  it('refuses what is plainly not an e-mail address (the server refuses the rest, beside the field too)', () => {
    for (const email of ['ana', 'ana@', 'ana@example', 'ana@@example.com', 'a b@example.com', 'ana@example.c']) {
      expect(checkContact({ ...ok, email }).email, email).toBe('invalidEmail');
    }
    expect(checkContact({ ...ok, email: 'ana.lima+tours@mail.example.pt' })).toEqual({});
  });

  it('refuses a phone that is not one', () => {
    expect(checkContact({ ...ok, phone: 'call me' }).phone).toBe('invalidPhone');
    expect(checkContact({ ...ok, phone: '12' }).phone).toBe('invalidPhone');
  });
});
