import { describe, expect, it } from 'vitest';
import { hashPassword, verifyNothing, verifyPassword } from './passwords.js';

describe('passwords', () => {
  it('hashes with scrypt at the OWASP parameters into a self-describing string, salted each time', async () => {
    const [a, b] = await Promise.all([hashPassword('correct horse battery'), hashPassword('correct horse battery')]);
    expect(a).toMatch(/^scrypt\$131072\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{86}$/);
    expect(a).not.toBe(b);
    expect(await verifyPassword('correct horse battery', a)).toBe(true);
    expect(await verifyPassword('correct horse battery', b)).toBe(true);
    expect(await verifyPassword('correct horse batterY', a)).toBe(false);
    expect(await verifyPassword('', a)).toBe(false);
    // Each hash costs about a second of CPU on purpose; a loaded machine needs more time than the default.
  }, 120_000);

  it('reads the parameters from the stored string, and refuses malformed or extravagant ones', async () => {
    // A hash made with other (lighter) parameters still verifies: the string says how it was made.
    const { scryptSync } = await import('node:crypto');
    const salt = Buffer.from('0123456789abcdef');
    const light = `scrypt$1024$8$1$${salt.toString('base64url')}$${scryptSync('pw-of-ten-chars', salt, 32, { N: 1024, r: 8, p: 1 }).toString('base64url')}`;
    expect(await verifyPassword('pw-of-ten-chars', light)).toBe(true);
    expect(await verifyPassword('pw-of-ten-chars', light.replace('$1024$', '$1000$'))).toBe(false);
    expect(await verifyPassword('pw-of-ten-chars', light.replace('$1024$', `$${2 ** 24}$`))).toBe(false);
    expect(await verifyPassword('pw', 'bcrypt$whatever')).toBe(false);
    expect(await verifyPassword('pw', '')).toBe(false);
  });

  it('spends the time of a verification when there is nothing to verify', async () => {
    expect(await verifyNothing('anything')).toBe(false);
  }, 60_000);
});
