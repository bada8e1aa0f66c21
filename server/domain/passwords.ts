import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/**
 * Passwords are hashed with scrypt at the parameters of the OWASP Password Storage Cheat Sheet
 * (N=2^17, r=8, p=1): memory-hard, so a stolen database is slow to guess even on GPUs. node:crypto's
 * asynchronous `scrypt` runs on libuv's thread pool, so the ~128 MiB and a few hundred milliseconds a
 * hash costs never hold up the event loop, and no native addon has to be built for it.
 */
const N = 2 ** 17;
const R = 8;
const P = 1;
const KEY_LENGTH = 64;
const SALT_BYTES = 16;

/** scrypt needs 128·N·r bytes; Node refuses anything over 32 MiB unless told. */
const maxmemFor = (n: number, r: number) => 2 * 128 * n * r;

function derive(password: string, salt: Buffer, keyLength: number, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFC'), salt, keyLength, options, (err, key) => (err ? reject(err) : resolve(key))),
  );
}

/** A self-describing hash, `scrypt$N$r$p$salt$hash` (base64url), so the parameters can rise later. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, KEY_LENGTH, { N, r: R, p: P, maxmem: maxmemFor(N, R) });
  return ['scrypt', N, R, P, salt.toString('base64url'), key.toString('base64url')].join('$');
}

const STORED_RE = /^scrypt\$(\d+)\$(\d+)\$(\d+)\$([A-Za-z0-9_-]+)\$([A-Za-z0-9_-]+)$/;

/** Whether `password` matches `stored`; a malformed `stored` matches nothing. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const match = STORED_RE.exec(stored);
  if (!match) return false;
  const [n, r, p] = [Number(match[1]), Number(match[2]), Number(match[3])];
  // Bounds keep a tampered row from asking for gigabytes or hours.
  if (n < 2 || n > 2 ** 20 || (n & (n - 1)) !== 0 || r < 1 || r > 32 || p < 1 || p > 16) return false;
  const salt = Buffer.from(match[4] ?? '', 'base64url');
  const expected = Buffer.from(match[5] ?? '', 'base64url');
  if (expected.length < 16) return false;
  const actual = await derive(password, salt, expected.length, { N: n, r, p, maxmem: maxmemFor(n, r) });
  return timingSafeEqual(actual, expected);
}

/**
 * A hash, at the parameters above, of a random password nobody kept: verifying against it costs what
 * a real check costs, without hashing anything at start-up.
 */
const DUMMY_HASH =
  'scrypt$131072$8$1$5DXYyMieWSM2JmsskTXuEQ$e8M4VPqJBPwwDXxJt70AiSAgc5LXiswz4nO8WnYm1Gntpu3nIyhPtNehkm1xdaW6EzPq9rP3UyKkSVvmnPw4zw';

/**
 * Spends the time of a real verification when there is no hash to check (an unknown e-mail, a user
 * who never set a password), so the time of an answer does not tell which e-mails have accounts.
 */
export async function verifyNothing(password: string): Promise<false> {
  await verifyPassword(password, DUMMY_HASH);
  return false;
}
