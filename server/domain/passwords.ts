import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { Refusal } from './refusal.js';

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

export interface HashingLimits {
  /** Hashes computed at once. */
  running: number;
  /** Hashes that may wait for a place beyond those; a request finding the line full is refused. */
  waiting: number;
  /** Places (running or waiting) one client may hold at once; a request beyond its share is refused. */
  perClient: number;
}

/**
 * Two hashes at a time: half of libuv's default pool of four threads (file reads, DNS and zlib need
 * the rest), and at most 256 MiB. Eight more may wait, so a sign-in that gets in answers within about
 * five hash times however busy the server is; one client holds at most three places, so a flood
 * from one address cannot fill the line for everyone else.
 */
export const PASSWORD_HASHING: HashingLimits = { running: 2, waiting: 8, perClient: 3 };

/**
 * Every password hash of the process takes its turn here. Without a bound, a burst of sign-ins
 * (even for e-mails that do not exist: they are hashed too, so as to take the same time) queues on
 * libuv's few threads, and a real person's sign-in waits behind all of them. Work from a client (a
 * request) is refused at once, `RATE_LIMITED` with the time the line needs to clear, when the line
 * or the client's share is full; work without one (start-up, the command line) always waits its turn.
 */
export class HashingQueue {
  private running = 0;
  private readonly line: (() => void)[] = [];
  private readonly held = new Map<string, number>();
  /** A moving average of one hash's time, for Retry-After; a guess until the first is measured. */
  private averageMs = 500;

  constructor(private readonly limits: HashingLimits) {}

  async run<T>(client: string | undefined, work: () => Promise<T>): Promise<T> {
    if (client !== undefined) {
      const full = this.running >= this.limits.running && this.line.length >= this.limits.waiting;
      if (full || (this.held.get(client) ?? 0) >= this.limits.perClient) throw this.busy();
      this.held.set(client, (this.held.get(client) ?? 0) + 1);
    }
    try {
      if (this.running < this.limits.running) this.running += 1;
      else await new Promise<void>((resolve) => this.line.push(resolve)); // the place is handed over by `leave`
      const started = performance.now();
      try {
        return await work();
      } finally {
        this.averageMs = 0.8 * this.averageMs + 0.2 * (performance.now() - started);
        this.leave();
      }
    } finally {
      if (client !== undefined) {
        const left = (this.held.get(client) ?? 1) - 1;
        if (left > 0) this.held.set(client, left);
        else this.held.delete(client);
      }
    }
  }

  /** How many hashes are running and waiting now. */
  get load(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.line.length };
  }

  private leave(): void {
    const next = this.line.shift();
    if (next) next();
    else this.running -= 1;
  }

  private busy(): Refusal {
    const seconds = Math.max(1, Math.ceil(((this.line.length + this.running) / this.limits.running) * (this.averageMs / 1000)));
    return new Refusal('RATE_LIMITED', `Too many passwords are being checked right now; retry in ${seconds} s`, undefined, seconds);
  }
}

/** The process's one line: libuv's thread pool and the memory are the process's. */
export const passwordHashing = new HashingQueue(PASSWORD_HASHING);

function derive(password: string, salt: Buffer, keyLength: number, options: ScryptOptions, client: string | undefined): Promise<Buffer> {
  return passwordHashing.run(
    client,
    () =>
      new Promise<Buffer>((resolve, reject) =>
        scrypt(password.normalize('NFC'), salt, keyLength, options, (err, key) => (err ? reject(err) : resolve(key))),
      ),
  );
}

/**
 * A self-describing hash, `scrypt$N$r$p$salt$hash` (base64url), so the parameters can rise later.
 * `client` names who asks (a request's address): see `HashingQueue`; without it, the hash waits its turn.
 */
export async function hashPassword(password: string, client?: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, KEY_LENGTH, { N, r: R, p: P, maxmem: maxmemFor(N, R) }, client);
  return ['scrypt', N, R, P, salt.toString('base64url'), key.toString('base64url')].join('$');
}

const STORED_RE = /^scrypt\$(\d+)\$(\d+)\$(\d+)\$([A-Za-z0-9_-]+)\$([A-Za-z0-9_-]+)$/;

/** Whether `password` matches `stored`; a malformed `stored` matches nothing. `client` as for `hashPassword`. */
export async function verifyPassword(password: string, stored: string, client?: string): Promise<boolean> {
  const match = STORED_RE.exec(stored);
  if (!match) return false;
  const [n, r, p] = [Number(match[1]), Number(match[2]), Number(match[3])];
  // Bounds keep a tampered row from asking for gigabytes or hours.
  if (n < 2 || n > 2 ** 20 || (n & (n - 1)) !== 0 || r < 1 || r > 32 || p < 1 || p > 16) return false;
  const salt = Buffer.from(match[4] ?? '', 'base64url');
  const expected = Buffer.from(match[5] ?? '', 'base64url');
  if (expected.length < 16) return false;
  const actual = await derive(password, salt, expected.length, { N: n, r, p, maxmem: maxmemFor(n, r) }, client);
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
export async function verifyNothing(password: string, client?: string): Promise<false> {
  await verifyPassword(password, DUMMY_HASH, client);
  return false;
}
