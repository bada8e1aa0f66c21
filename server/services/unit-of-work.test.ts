import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, manualClock, type TestApp } from '../test-helpers/index.js';
import { Refusal } from '../domain/refusal.js';
import { IN_FLIGHT_LEASE_MS, UnitOfWork, processSettings, type Outcomes, type WorkKind } from './unit-of-work.js';

// The unit of work knows no HTTP: its results here are plain answers, kept as their text.

interface Answer {
  status: number;
  text: string;
}

/** A CONFLICT is an answer worth keeping; a 400 is not kept; any other error propagates. */
const outcomes: Outcomes<Answer> = {
  fromError: (err) => (err instanceof Refusal && err.code === 'CONFLICT' ? { status: 409, text: err.message } : undefined),
  keep: (answer) => (answer.status === 400 ? undefined : { kept: { status: answer.status, body: answer.text }, result: answer }),
  replay: (kept) => ({ status: kept.status, text: kept.body }),
};

const answer = (text: string, status = 201): Answer => ({ status, text });

describe('UnitOfWork', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp();
  });
  afterEach(() => t.close());

  const keyed = (key: string, kind: Omit<WorkKind<Answer>, 'idempotent'> = {}, fingerprint = 'POST /v1/x {}'): WorkKind<Answer> => ({
    ...kind,
    idempotent: { request: { orgId: t.orgId, key, fingerprint }, outcomes },
  });

  describe('batched work', () => {
    it('runs each handler once when another job of its batch fails: its side effect counts one run', async () => {
      const work = new UnitOfWork(t.store, Date.now, { guestMail: true });
      const runs = { a: 0, b: 0, c: 0 };
      const job = (name: keyof typeof runs, fail?: Error) => async () => {
        runs[name]++;
        await t.store.settings.setSetting(`uow.${name}`, name);
        if (fail) throw fail;
        return answer(name);
      };
      const settled = await Promise.allSettled([
        work.run({ batched: true }, job('a')),
        work.run({ batched: true }, job('b', new Error('slot full'))),
        work.run({ batched: true }, job('c')),
      ]);
      expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
      expect(runs).toEqual({ a: 1, b: 1, c: 1 });
      expect([await t.store.settings.getSetting('uow.a'), await t.store.settings.getSetting('uow.b'), await t.store.settings.getSetting('uow.c')])
        .toEqual(['a', undefined, 'c']);
    });

    it('runs each idempotent handler of a batch once too, keeping a refusal and undoing its writes', async () => {
      const work = new UnitOfWork(t.store, Date.now, { guestMail: true });
      const runs = { a: 0, b: 0, c: 0 };
      const job = (name: keyof typeof runs, fail?: Error) => async () => {
        runs[name]++;
        await t.store.settings.setSetting(`uow.${name}`, name);
        if (fail) throw fail;
        return answer(name);
      };
      const settled = await Promise.allSettled([
        work.run(keyed('a', { batched: true }), job('a')),
        work.run(keyed('b', { batched: true }), job('b', new Refusal('CONFLICT', 'slot full'))),
        work.run(keyed('c', { batched: true }), job('c', new Error('boom'))),
      ]);
      expect(runs).toEqual({ a: 1, b: 1, c: 1 });
      expect(settled.map((s) => (s.status === 'fulfilled' ? s.value.result : String(s.reason)))).toEqual([
        answer('a'),
        { status: 409, text: 'slot full' },
        'Error: boom',
      ]);
      // The refused job's writes are undone, its answer kept; the failed one left nothing.
      expect(await t.store.settings.getSetting('uow.b')).toBeUndefined();
      expect(await t.store.settings.getSetting('uow.c')).toBeUndefined();
      expect((await work.run(keyed('b', { batched: true }), job('b'))).replayed).toBe(true);
      expect(await work.run(keyed('c', { batched: true }), job('c'))).toEqual({ result: answer('c'), replayed: false });
      expect(runs).toEqual({ a: 1, b: 1, c: 2 });
    });
  });

  describe('idempotent work in a transaction', () => {
    it('keeps the outcome with the work: a repeat answers it without running the work again', async () => {
      const work = new UnitOfWork(t.store, Date.now, { guestMail: true });
      let runs = 0;
      const make = async () => {
        runs++;
        await t.store.settings.setSetting('uow.made', String(runs));
        return answer(`made ${runs}`);
      };
      expect(await work.run(keyed('k'), make)).toEqual({ result: answer('made 1'), replayed: false });
      expect(await work.run(keyed('k'), make)).toEqual({ result: answer('made 1'), replayed: true });
      expect(runs).toBe(1);
      await expect(work.run(keyed('k', {}, 'POST /v1/x {"other":1}'), make)).rejects.toMatchObject({ code: 'IDEMPOTENCY_KEY_REUSED' });
    });

    it('keeps nothing when the outcome is not to be kept, so the key can be used again', async () => {
      const work = new UnitOfWork(t.store, Date.now, { guestMail: true });
      expect(await work.run(keyed('fix-me'), async () => answer('bad', 400))).toEqual({ result: answer('bad', 400), replayed: false });
      expect(await work.run(keyed('fix-me'), async () => answer('good'))).toEqual({ result: answer('good'), replayed: false });
    });
  });

  describe('idempotent asynchronous work', () => {
    it('answers a duplicate still in progress with 409 IDEMPOTENCY_KEY_IN_USE, then replays the first outcome', async () => {
      const work = new UnitOfWork(t.store, Date.now, { guestMail: true });
      let finish: () => void = () => {};
      const first = work.run(keyed('slow', { async: true }), () => new Promise((resolve) => (finish = () => resolve(answer('one')))));
      await expect(work.run(keyed('slow', { async: true }), async () => answer('two'))).rejects.toMatchObject({ code: 'IDEMPOTENCY_KEY_IN_USE' });
      finish();
      expect((await first).replayed).toBe(false);
      expect(await work.run(keyed('slow', { async: true }), async () => answer('three'))).toEqual({ result: answer('one'), replayed: true });
    });

    it('holds the key in the store while in flight, so a second process sharing the database is refused too', async () => {
      // Two units of work over one store stand for two processes: nothing is shared in memory.
      const first = new UnitOfWork(t.store, Date.now, { guestMail: true });
      const second = new UnitOfWork(t.store, Date.now, { guestMail: true });
      let finish: () => void = () => {};
      const running = first.run(keyed('shared', { async: true }), () => new Promise((resolve) => (finish = () => resolve(answer('one')))));
      await new Promise((resolve) => setTimeout(resolve, 20));
      await expect(second.run(keyed('shared', { async: true }), async () => answer('two'))).rejects.toMatchObject({ code: 'IDEMPOTENCY_KEY_IN_USE' });
      // Another request under the same key is a reuse, in flight or not.
      await expect(second.run(keyed('shared', { async: true }, 'other'), async () => answer('x'))).rejects.toMatchObject({
        code: 'IDEMPOTENCY_KEY_REUSED',
      });
      finish();
      await running;
      expect(await second.run(keyed('shared', { async: true }), async () => answer('three'))).toEqual({ result: answer('one'), replayed: true });
    });

    it('frees the key of a request whose process died in flight once the lease has run out', async () => {
      const clock = manualClock();
      const fingerprint = 'f';
      // A claim nobody will finish: what a SIGKILLed process leaves behind.
      await t.store.idempotency.claimIdempotencyKey({ orgId: t.orgId, key: 'orphan', fingerprint, claimedAt: clock.now() }, { markerBefore: 0, replyBefore: 0 });
      const work = new UnitOfWork(t.store, clock.now, { guestMail: true });
      clock.advance(IN_FLIGHT_LEASE_MS - 1);
      await expect(work.run(keyed('orphan', { async: true }, fingerprint), async () => answer('one'))).rejects.toMatchObject({ code: 'IDEMPOTENCY_KEY_IN_USE' });
      clock.advance(2);
      expect(await work.run(keyed('orphan', { async: true }, fingerprint), async () => answer('two'))).toEqual({ result: answer('two'), replayed: false });
    });

    it('frees the key at once when the work fails or its outcome is not kept', async () => {
      const work = new UnitOfWork(t.store, Date.now, { guestMail: true });
      const kind = keyed('retry-me', { async: true });
      await expect(work.run(kind, async () => {
        throw new Error('network down');
      })).rejects.toThrow('network down');
      expect(await t.store.idempotency.getIdempotentResponse(t.orgId, 'retry-me')).toBeUndefined();
      expect((await work.run(kind, async () => answer('bad', 400))).replayed).toBe(false);
      expect(await t.store.idempotency.getIdempotentResponse(t.orgId, 'retry-me')).toBeUndefined();
      expect((await work.run(kind, async () => answer('done'))).replayed).toBe(false);
      expect(await work.run(kind, async () => answer('again'))).toEqual({ result: answer('done'), replayed: true });
    });

    it('runs outside any transaction, also when asked to batch: other writes commit while it awaits', async () => {
      const work = new UnitOfWork(t.store, Date.now, { guestMail: true });
      let start!: () => void;
      const started = new Promise<void>((resolve) => (start = resolve));
      let committed = false;
      // Begun outside the work: inside a transaction of the work's, it would wait for its end.
      const outside = started
        .then(async () => await t.store.transaction(async () => await t.store.settings.setSetting('uow.elsewhere', 'yes')))
        .then(() => (committed = true));
      const result = await work.run({ async: true, batched: true }, async () => {
        start();
        for (let i = 0; i < 200 && !committed; i++) await new Promise((resolve) => setTimeout(resolve, 5));
        return answer(committed ? 'committed meanwhile' : 'blocked');
      });
      await outside;
      expect(result).toEqual({ result: answer('committed meanwhile'), replayed: false });
    });
  });

  describe('process settings', () => {
    it('carries its process\'s settings to the work it runs, whatever its kind, and none outside it', async () => {
      const withoutMail = new UnitOfWork(t.store, Date.now, { guestMail: false });
      const withMail = new UnitOfWork(t.store, Date.now, { guestMail: true });
      const seen = async () => {
        await t.store.settings.getSetting('x');
        return answer(String(processSettings().guestMail));
      };
      const kinds: WorkKind<Answer>[] = [{}, { batched: true }, { async: true }, keyed('s1'), keyed('s2', { batched: true }), keyed('s3', { async: true })];
      // Both units' batches at once: each job still sees its own unit's settings.
      const results = await Promise.all(kinds.flatMap((kind) => [withoutMail.run(kind, seen), withMail.run({ ...kind, idempotent: undefined }, seen)]));
      expect(results.map((r) => r.result.text)).toEqual(kinds.flatMap(() => ['false', 'true']));
      // Outside any unit of work (a test calling a service directly) messages queue for sending.
      expect(processSettings()).toEqual({ guestMail: true });
    });
  });
});
