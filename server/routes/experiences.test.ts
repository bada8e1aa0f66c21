import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createTestApp, expectData, expectError, expectList, expectValidationError, insertBookingRow, manualClock,
  type ManualClock, type TestApp,
} from '../test-helpers/index.js';
import { Deleted, Experience, Organization } from '../../shared/index.js';

const walk = { name: 'Alfama walk', description: 'Two hours in the old town', duration: 120, price: 2500, maxParticipants: 12 };

describe('experiences', () => {
  let t: TestApp;
  let clock: ManualClock;
  beforeEach(async () => {
    clock = manualClock(Date.UTC(2026, 2, 1, 9, 0, 0));
    t = await createTestApp({ now: clock.now });
  });
  afterEach(() => t.close());

  const create = async (body: Record<string, unknown> = walk, key?: string) => {
    const res = await t.request('POST', '/v1/experiences', { body, key });
    clock.advance(1000);
    return expectData(res, Experience, 201);
  };
  const post = (body: unknown) => t.request('POST', '/v1/experiences', { body });
  const patch = (id: string, body: unknown) => t.request('PATCH', `/v1/experiences/${id}`, { body });

  describe('POST /v1/experiences', () => {
    it('creates an experience with the defaults and the org’s currency', async () => {
      const exp = await create();
      expect(exp).toEqual({
        id: exp.id,
        ...walk,
        currency: 'EUR',
        maxPerBooking: 12,
        schedule: null,
        minNoticeMinutes: 0,
        maxAdvanceDays: 365,
        active: true,
        priceCategories: [],
        meetingPoint: null,
        meetingPointUrl: null,
        guestInstructions: null,
        questions: [],
        extras: [],
        waitlist: false,
        createdAt: '2026-03-01T09:00:00.000Z',
        updatedAt: '2026-03-01T09:00:00.000Z',
      });
      expect(exp.id).toMatch(/^exp_[A-Za-z0-9]+$/);
    });

    it('stores every optional field', async () => {
      const exp = await create({
        ...walk,
        maxPerBooking: 4,
        minNoticeMinutes: 90,
        maxAdvanceDays: 730,
        active: false,
        schedule: {
          timezone: 'Europe/Lisbon',
          weekly: { mon: ['14:00', '09:00', '09:00'], sat: ['10:00'] },
          startDate: '2026-01-01',
          endDate: '2026-12-31',
          exceptions: [{ date: '2026-12-31', times: ['22:00'] }, { date: '2026-12-25', times: [] }],
        },
      });
      expect(exp).toMatchObject({ maxPerBooking: 4, minNoticeMinutes: 90, maxAdvanceDays: 730, active: false });
      // Stored normalized: times sorted and unique, exceptions by date.
      expect(exp.schedule).toEqual({
        timezone: 'Europe/Lisbon',
        weekly: { mon: ['09:00', '14:00'], sat: ['10:00'] },
        startDate: '2026-01-01',
        endDate: '2026-12-31',
        exceptions: [{ date: '2026-12-25', times: [] }, { date: '2026-12-31', times: ['22:00'] }],
      });
      expect(expectData(await t.request('GET', `/v1/experiences/${exp.id}`), Experience)).toEqual(exp);
    });

    it('fills a schedule’s optional fields with null and [] (the org’s zone applies)', async () => {
      const exp = await create({ ...walk, schedule: { weekly: {} } });
      expect(exp.schedule).toEqual({ timezone: null, weekly: {}, startDate: null, endDate: null, exceptions: [] });
    });

    it('accepts the bounds of every field', async () => {
      await create({ name: 'x'.repeat(200), description: 'd'.repeat(5000), duration: 1440, price: 0, maxParticipants: 10_000, maxPerBooking: 10_000, minNoticeMinutes: 0, maxAdvanceDays: 1 });
      await create({ name: 'y', description: '', duration: 1, price: 1, maxParticipants: 1, maxPerBooking: 1, maxAdvanceDays: 730 });
    });

    const cases: [string, Record<string, unknown>, string][] = [
      ['a missing name', { name: undefined }, 'name'],
      ['an empty name', { name: '' }, 'name'],
      ['a blank name', { name: '   ' }, 'name'],
      ['a name over 200 characters', { name: 'x'.repeat(201) }, 'name'],
      ['a name that is not text', { name: 42 }, 'name'],
      ['a missing description', { description: undefined }, 'description'],
      ['a description over 5000 characters', { description: 'x'.repeat(5001) }, 'description'],
      ['a missing duration', { duration: undefined }, 'duration'],
      ['a duration of 0', { duration: 0 }, 'duration'],
      ['a duration over 1440', { duration: 1441 }, 'duration'],
      ['a fractional duration', { duration: 90.5 }, 'duration'],
      ['a duration as text', { duration: '60' }, 'duration'],
      ['a missing price', { price: undefined }, 'price'],
      ['a negative price', { price: -1 }, 'price'],
      ['a fractional price', { price: 25.5 }, 'price'],
      ['a price as text', { price: '25.00' }, 'price'],
      ['a missing maxParticipants', { maxParticipants: undefined }, 'maxParticipants'],
      ['maxParticipants of 0', { maxParticipants: 0 }, 'maxParticipants'],
      ['maxParticipants over 10000', { maxParticipants: 10_001 }, 'maxParticipants'],
      ['maxPerBooking of 0', { maxPerBooking: 0 }, 'maxPerBooking'],
      ['maxPerBooking above maxParticipants', { maxPerBooking: 13 }, 'maxPerBooking'],
      ['a fractional maxPerBooking', { maxPerBooking: 1.5 }, 'maxPerBooking'],
      ['a negative minNoticeMinutes', { minNoticeMinutes: -1 }, 'minNoticeMinutes'],
      ['maxAdvanceDays of 0', { maxAdvanceDays: 0 }, 'maxAdvanceDays'],
      ['maxAdvanceDays over 730', { maxAdvanceDays: 731 }, 'maxAdvanceDays'],
      ['active as text', { active: 'true' }, 'active'],
      ['an unknown field', { colour: 'blue' }, 'colour'],
      ['a currency (the org’s applies)', { currency: 'USD' }, 'currency'],
      ['an id', { id: 'exp_abc' }, 'id'],
      ['a schedule that is not an object', { schedule: 'weekly' }, 'schedule'],
      ['a schedule without weekly', { schedule: { timezone: 'UTC' } }, 'schedule.weekly'],
      ['an unknown weekday', { schedule: { weekly: { funday: ['10:00'] } } }, 'schedule.weekly.funday'],
      ['a time without leading zero', { schedule: { weekly: { mon: ['9:00'] } } }, 'schedule.weekly.mon[0]'],
      ['a time of 24:00', { schedule: { weekly: { tue: ['10:00', '24:00'] } } }, 'schedule.weekly.tue[1]'],
      ['a time with seconds', { schedule: { weekly: { wed: ['10:00:00'] } } }, 'schedule.weekly.wed[0]'],
      ['minutes over 59', { schedule: { weekly: { thu: ['10:60'] } } }, 'schedule.weekly.thu[0]'],
      ['times that are not a list', { schedule: { weekly: { fri: '10:00' } } }, 'schedule.weekly.fri'],
      ['an unknown time zone', { schedule: { weekly: {}, timezone: 'Nowhere/City' } }, 'schedule.timezone'],
      ['a startDate that does not exist', { schedule: { weekly: {}, startDate: '2026-02-30' } }, 'schedule.startDate'],
      ['a startDate in another format', { schedule: { weekly: {}, startDate: '01/02/2026' } }, 'schedule.startDate'],
      ['an endDate before the startDate', { schedule: { weekly: {}, startDate: '2026-05-01', endDate: '2026-04-30' } }, 'schedule.endDate'],
      ['an exception with a bad date', { schedule: { weekly: {}, exceptions: [{ date: 'tomorrow', times: [] }] } }, 'schedule.exceptions[0].date'],
      ['an exception without times', { schedule: { weekly: {}, exceptions: [{ date: '2026-12-25' }] } }, 'schedule.exceptions[0].times'],
      ['an exception with a bad time', { schedule: { weekly: {}, exceptions: [{ date: '2026-12-25', times: ['25:00'] }] } }, 'schedule.exceptions[0].times[0]'],
      ['two exceptions on one date', { schedule: { weekly: {}, exceptions: [{ date: '2026-12-25', times: [] }, { date: '2026-12-25', times: ['10:00'] }] } }, 'schedule.exceptions[1].date'],
      ['an unknown field in an exception', { schedule: { weekly: {}, exceptions: [{ date: '2026-12-25', times: [], note: 'x' }] } }, 'schedule.exceptions[0].note'],
      ['an unknown field in the schedule', { schedule: { weekly: {}, repeat: 'weekly' } }, 'schedule.repeat'],
    ];
    for (const [what, change, path] of cases) {
      it(`refuses ${what}, naming ${path}`, async () => {
        const res = await post({ ...walk, ...change });
        const details = expectValidationError(res, path);
        for (const d of details) expect(d.message.length).toBeGreaterThan(0);
      });
    }

    it('names every bad field of one request', async () => {
      const details = expectValidationError(await post({ name: '', duration: 0, price: -5, maxParticipants: 5, description: '' }), 'name');
      expect(details.map((d) => d.path)).toEqual(expect.arrayContaining(['name', 'duration', 'price']));
    });

    it('says "Required" for a missing field', async () => {
      const details = expectValidationError(await post({ ...walk, price: undefined }), 'price');
      expect(details.find((d) => d.path === 'price')?.message).toBe('Required');
    });

    it('stores nothing when the request is refused', async () => {
      await post({ ...walk, duration: 0 });
      expect(expectList(await t.request('GET', '/v1/experiences'), Experience).pagination.total).toBe(0);
    });
  });

  describe('GET /v1/experiences', () => {
    it('lists the org’s experiences oldest first in the list envelope', async () => {
      const a = await create({ ...walk, name: 'A' });
      const b = await create({ ...walk, name: 'B' });
      const c = await create({ ...walk, name: 'C' });
      const list = expectList(await t.request('GET', '/v1/experiences'), Experience);
      expect(list.data.map((e) => e.id)).toEqual([a.id, b.id, c.id]);
      expect(list.pagination).toEqual({ total: 3, limit: 20, offset: 0, hasMore: false });
    });

    it('breaks ties of creation time by id', async () => {
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) ids.push(expectData(await post({ ...walk, name: `Same ${i}` }), Experience, 201).id);
      const list = expectList(await t.request('GET', '/v1/experiences'), Experience);
      expect(list.data.map((e) => e.id)).toEqual([...ids].sort());
    });

    it('pages with limit and offset', async () => {
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) ids.push((await create({ ...walk, name: `E${i}` })).id);
      const first = expectList(await t.request('GET', '/v1/experiences?limit=2'), Experience);
      expect(first.data.map((e) => e.id)).toEqual(ids.slice(0, 2));
      expect(first.pagination).toEqual({ total: 5, limit: 2, offset: 0, hasMore: true });
      const last = expectList(await t.request('GET', '/v1/experiences?limit=2&offset=4'), Experience);
      expect(last.data.map((e) => e.id)).toEqual(ids.slice(4));
      expect(last.pagination).toEqual({ total: 5, limit: 2, offset: 4, hasMore: false });
      const beyond = expectList(await t.request('GET', '/v1/experiences?offset=10'), Experience);
      expect(beyond.data).toEqual([]);
      expect(beyond.pagination).toEqual({ total: 5, limit: 20, offset: 10, hasMore: false });
      expect(expectList(await t.request('GET', '/v1/experiences?limit=100'), Experience).pagination.limit).toBe(100);
      expect(expectList(await t.request('GET', '/v1/experiences?limit=1'), Experience).data).toHaveLength(1);
    });

    it('filters by active', async () => {
      const on = await create({ ...walk, name: 'On' });
      const off = await create({ ...walk, name: 'Off', active: false });
      const active = expectList(await t.request('GET', '/v1/experiences?active=true'), Experience);
      expect(active.data.map((e) => e.id)).toEqual([on.id]);
      expect(active.pagination.total).toBe(1);
      expect(expectList(await t.request('GET', '/v1/experiences?active=false'), Experience).data.map((e) => e.id)).toEqual([off.id]);
      expect(expectList(await t.request('GET', '/v1/experiences'), Experience).data).toHaveLength(2);
    });

    it('refuses bad limit, offset and active values, naming the parameter', async () => {
      for (const q of ['limit=0', 'limit=101', 'limit=abc', 'limit=', 'limit=1.5', 'limit=-1', 'limit=1e2']) {
        expectValidationError(await t.request('GET', `/v1/experiences?${q}`), 'limit');
      }
      for (const q of ['offset=-1', 'offset=abc', 'offset=2.5']) {
        expectValidationError(await t.request('GET', `/v1/experiences?${q}`), 'offset');
      }
      for (const q of ['active=yes', 'active=1', 'active=TRUE']) {
        expectValidationError(await t.request('GET', `/v1/experiences?${q}`), 'active');
      }
    });

    it('refuses an unknown or repeated query parameter', async () => {
      expectValidationError(await t.request('GET', '/v1/experiences?sort=name'), 'sort');
      expectValidationError(await t.request('GET', '/v1/experiences?limit=1&limit=2'), 'limit');
    });

    it('shows only the caller’s organization', async () => {
      const other = await t.addOrganization();
      await create({ ...walk, name: 'Theirs' }, other.secretKey);
      const mine = await create();
      const list = expectList(await t.request('GET', '/v1/experiences'), Experience);
      expect(list.data.map((e) => e.id)).toEqual([mine.id]);
      expect(list.pagination.total).toBe(1);
    });

    it('shows the org’s current currency', async () => {
      const exp = await create();
      await t.request('PATCH', '/v1/organization', { body: { currency: 'GBP' } });
      expect(expectData(await t.request('GET', `/v1/experiences/${exp.id}`), Experience).currency).toBe('GBP');
      expect(expectList(await t.request('GET', '/v1/experiences'), Experience).data[0]?.currency).toBe('GBP');
    });
  });

  describe('GET /v1/experiences/{id}', () => {
    it('answers an unknown id, or another org’s experience, with 404', async () => {
      expectError(await t.request('GET', '/v1/experiences/exp_doesnotexist'), 404, 'NOT_FOUND');
      const other = await t.addOrganization();
      const theirs = await create(walk, other.secretKey);
      expectError(await t.request('GET', `/v1/experiences/${theirs.id}`), 404, 'NOT_FOUND');
      expectError(await patch(theirs.id, { name: 'Mine now' }), 404, 'NOT_FOUND');
      expectError(await t.request('DELETE', `/v1/experiences/${theirs.id}`), 404, 'NOT_FOUND');
      const still = expectData(await t.request('GET', `/v1/experiences/${theirs.id}`, { key: other.secretKey }), Experience);
      expect(still.name).toBe(walk.name);
    });
  });

  describe('PATCH /v1/experiences/{id}', () => {
    it('changes any create field and keeps the rest', async () => {
      const exp = await create();
      clock.advance(60_000);
      const updated = expectData(
        await patch(exp.id, { name: 'New', description: 'Changed', duration: 90, price: 3000, maxParticipants: 20, maxPerBooking: 5, minNoticeMinutes: 30, maxAdvanceDays: 60, active: false, schedule: { weekly: { sun: ['11:00'] } } }),
        Experience,
      );
      expect(updated).toMatchObject({ id: exp.id, name: 'New', description: 'Changed', duration: 90, price: 3000, maxParticipants: 20, maxPerBooking: 5, minNoticeMinutes: 30, maxAdvanceDays: 60, active: false, createdAt: exp.createdAt });
      expect(updated.schedule?.weekly).toEqual({ sun: ['11:00'] });
      expect(updated.updatedAt).not.toBe(exp.updatedAt);
      expect(expectData(await t.request('GET', `/v1/experiences/${exp.id}`), Experience)).toEqual(updated);
      const one = expectData(await patch(exp.id, { price: 0 }), Experience);
      expect(one).toMatchObject({ name: 'New', price: 0, schedule: updated.schedule });
    });

    it('removes the schedule with null', async () => {
      const exp = await create({ ...walk, schedule: { weekly: { mon: ['10:00'] } } });
      expect(expectData(await patch(exp.id, { schedule: null }), Experience).schedule).toBeNull();
    });

    it('validates like create, naming the field', async () => {
      const exp = await create();
      expectValidationError(await patch(exp.id, { duration: 0 }), 'duration');
      expectValidationError(await patch(exp.id, { schedule: { weekly: { mon: ['9am'] } } }), 'schedule.weekly.mon[0]');
      expectValidationError(await patch(exp.id, { schedule: { weekly: {}, exceptions: [{ date: '2026-13-01', times: [] }] } }), 'schedule.exceptions[0].date');
      expectValidationError(await patch(exp.id, { schedule: { weekly: {}, timezone: 'Europe/Atlantis' } }), 'schedule.timezone');
      expectValidationError(await patch(exp.id, { currency: 'USD' }), 'currency');
      expectValidationError(await patch(exp.id, { name: null }), 'name');
      expectValidationError(await patch(exp.id, { active: null }), 'active');
    });

    it('refuses an empty body', async () => {
      const exp = await create();
      expectError(await patch(exp.id, {}), 400, 'VALIDATION_ERROR');
      expectError(await t.request('PATCH', `/v1/experiences/${exp.id}`), 400, 'VALIDATION_ERROR');
    });

    describe('maxPerBooking', () => {
      it('follows maxParticipants while unset', async () => {
        const exp = await create({ ...walk, maxParticipants: 10 });
        expect(exp.maxPerBooking).toBe(10);
        expect(expectData(await patch(exp.id, { maxParticipants: 4 }), Experience).maxPerBooking).toBe(4);
        expect(expectData(await patch(exp.id, { maxParticipants: 30 }), Experience).maxPerBooking).toBe(30);
      });

      it('keeps an explicit value when maxParticipants grows', async () => {
        const exp = await create({ ...walk, maxParticipants: 10, maxPerBooking: 3 });
        expect(expectData(await patch(exp.id, { maxParticipants: 50 }), Experience).maxPerBooking).toBe(3);
      });

      it('refuses a value above maxParticipants', async () => {
        const exp = await create({ ...walk, maxParticipants: 10 });
        expectValidationError(await patch(exp.id, { maxPerBooking: 11 }), 'maxPerBooking');
        expectValidationError(await patch(exp.id, { maxParticipants: 5, maxPerBooking: 6 }), 'maxPerBooking');
      });

      it('refuses lowering maxParticipants below an explicit maxPerBooking, so both are lowered together', async () => {
        const exp = await create({ ...walk, maxParticipants: 10, maxPerBooking: 8 });
        expectValidationError(await patch(exp.id, { maxParticipants: 6 }), 'maxParticipants');
        expect(expectData(await t.request('GET', `/v1/experiences/${exp.id}`), Experience).maxParticipants).toBe(10);
        const both = expectData(await patch(exp.id, { maxParticipants: 6, maxPerBooking: 6 }), Experience);
        expect(both).toMatchObject({ maxParticipants: 6, maxPerBooking: 6 });
      });

      it('goes back to following maxParticipants when set to null', async () => {
        const exp = await create({ ...walk, maxParticipants: 10, maxPerBooking: 2 });
        expect(expectData(await patch(exp.id, { maxPerBooking: null }), Experience).maxPerBooking).toBe(10);
        expect(expectData(await patch(exp.id, { maxParticipants: 7 }), Experience).maxPerBooking).toBe(7);
      });
    });
  });

  describe('DELETE /v1/experiences/{id}', () => {
    it('deletes an experience without bookings and answers {id, deleted: true}', async () => {
      const exp = await create();
      const res = await t.request('DELETE', `/v1/experiences/${exp.id}`);
      expect(expectData(res, Deleted)).toEqual({ id: exp.id, deleted: true });
      expectError(await t.request('GET', `/v1/experiences/${exp.id}`), 404, 'NOT_FOUND');
      expectError(await t.request('DELETE', `/v1/experiences/${exp.id}`), 404, 'NOT_FOUND');
    });

    it('refuses to delete an experience with bookings with 409 CONFLICT', async () => {
      const exp = await create();
      await insertBookingRow(t.store, { orgId: t.orgId, experienceId: exp.id, status: 'CANCELLED' });
      const err = expectError(await t.request('DELETE', `/v1/experiences/${exp.id}`), 409, 'CONFLICT');
      expect(err.message).toMatch(/active/);
      expectData(await t.request('GET', `/v1/experiences/${exp.id}`), Experience);
      // Deactivating it is the way out.
      expect(expectData(await patch(exp.id, { active: false }), Experience).active).toBe(false);
    });
  });

  it('needs experiences:read to read and experiences:write to change', async () => {
    const exp = await create();
    const orgOnly = await t.createKey({ scopes: ['organization:read'] });
    for (const [method, path] of [['GET', '/v1/experiences'], ['GET', `/v1/experiences/${exp.id}`]] as const) {
      expect(expectError(await t.request(method, path, { key: orgOnly.key }), 403, 'FORBIDDEN').message).toContain('experiences:read');
    }
    const reader = await t.createKey({ scopes: ['experiences:read'] });
    for (const [method, path] of [['POST', '/v1/experiences'], ['PATCH', `/v1/experiences/${exp.id}`], ['DELETE', `/v1/experiences/${exp.id}`]] as const) {
      expect(expectError(await t.request(method, path, { key: reader.key, body: { name: 'x' } }), 403, 'FORBIDDEN').message).toContain('experiences:write');
    }
    expectData(await t.request('GET', '/v1/organization', { key: orgOnly.key }), Organization);
  });
});
