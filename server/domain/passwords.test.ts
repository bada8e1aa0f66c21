import { describe, expect, it } from 'vitest';
import { HashingQueue, hashPassword, verifyNothing, verifyPassword } from './passwords.js';
import { Refusal } from './refusal.js';

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

describe('the hashing line', () => {
  /** Work that ends when told to, and says when it started. */
  const held = () => {
    let release: () => void = () => {};
    const done = new Promise<void>((resolve) => (release = resolve));
    let started = false;
    return { work: async () => { started = true; await done; }, release: () => release(), get started() { return started; } };
  };
  const tick = () => new Promise((resolve) => setImmediate(resolve));

  it('runs a bounded number at a time, the rest in arrival order', async () => {
    const line = new HashingQueue({ running: 2, waiting: 8, perClient: 3 });
    const jobs = Array.from({ length: 5 }, () => held());
    const runs = jobs.map((j, i) => line.run(`client-${i}`, j.work));
    await tick();
    expect(jobs.map((j) => j.started)).toEqual([true, true, false, false, false]);
    expect(line.load).toEqual({ running: 2, waiting: 3 });
    jobs[1]?.release();
    await tick();
    expect(jobs.map((j) => j.started)).toEqual([true, true, true, false, false]);
    for (const j of jobs) j.release();
    await Promise.all(runs);
    expect(line.load).toEqual({ running: 0, waiting: 0 });
  });

  it('refuses a client at once, 429 RATE_LIMITED with a retry time, when the line or its share is full; work without a client waits', async () => {
    const line = new HashingQueue({ running: 1, waiting: 2, perClient: 2 });
    const jobs = Array.from({ length: 6 }, () => held());
    const a1 = line.run('a', jobs[0]!.work);
    const a2 = line.run('a', jobs[1]!.work);
    // 'a' holds its two places: a third is refused, another client is not.
    const refused = await line.run('a', jobs[2]!.work).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(Refusal);
    expect(refused).toMatchObject({ code: 'RATE_LIMITED' });
    expect((refused as Refusal).retryAfterSeconds).toBeGreaterThanOrEqual(1);
    const b = line.run('b', jobs[3]!.work);
    // One running, two waiting: the line is full for every client…
    await expect(line.run('c', jobs[4]!.work)).rejects.toMatchObject({ code: 'RATE_LIMITED' });
    // …but not for the server's own work (start-up, the command line), which waits its turn.
    const own = line.run(undefined, jobs[5]!.work);
    await tick();
    expect(line.load).toEqual({ running: 1, waiting: 3 });
    expect(jobs[2]!.started || jobs[4]!.started).toBe(false);
    for (const j of jobs) j.release();
    await Promise.all([a1, a2, b, own]);
    // Every place was given back, including a failed work's.
    await expect(line.run('a', () => Promise.reject(new Error('scrypt failed')))).rejects.toThrow('scrypt failed');
    expect(line.load).toEqual({ running: 0, waiting: 0 });
    await line.run('a', async () => {});
    await line.run('a', async () => {});
  });
});
