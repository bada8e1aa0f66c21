import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, expectError, expectList, expectValidationError, insertBookingRow, type TestApp } from '../test-helpers/index.js';
import { recordEvent } from '../services/event-log.js';
import { serializeBookingEventData } from '../serializers/event.js';
import { EVENT_KINDS, WebhookEvent, type EventKind } from '../../shared/index.js';

describe('GET /v1/events', () => {
  let t: TestApp;
  let experienceId: string;
  beforeEach(async () => {
    t = await createTestApp({ logLevel: 'silent' });
    const res = await t.request('POST', '/v1/experiences', {
      body: { name: 'Kayak tour', description: '', duration: 90, price: 3000, maxParticipants: 8 },
    });
    experienceId = res.body.data.id;
  });
  afterEach(() => t.close());

  /** Records events of the given kinds, in order, for one booking of `orgId`. */
  async function fire(kinds: EventKind[], orgId = t.orgId, expId = experienceId): Promise<string[]> {
    const row = await insertBookingRow(t.store, { orgId, experienceId: expId });
    const view = (await t.store.bookings.getBooking(orgId, row.id))!;
    return await t.store.transaction(async () => {
      const ids: string[] = [];
      for (const kind of kinds) ids.push((await recordEvent(t.store, orgId, kind, serializeBookingEventData(view), Date.now())).id);
      return ids;
    });
  }
  const get = async (query = '') => expectList(await t.request('GET', `/v1/events${query}`), WebhookEvent.strict());

  it('lists every event oldest first as the webhook bodies', async () => {
    const ids = await fire([...EVENT_KINDS]);
    const page = await get();
    expect(page.data.map((e) => e.id)).toEqual(ids);
    expect(page.data.map((e) => e.event)).toEqual([...EVENT_KINDS]);
    expect(page.pagination).toEqual({ total: 6, limit: 20, offset: 0, hasMore: false });
    for (const e of page.data) expect(Object.keys(e).sort()).toEqual(['data', 'event', 'id', 'timestamp']);
  });

  it('pages with limit and offset, and reads on from an event id with after', async () => {
    const ids = await fire(['BOOKING_CREATED', 'BOOKING_UPDATED', 'BOOKING_UPDATED', 'BOOKING_CANCELED', 'BOOKING_CREATED']);
    const first = await get('?limit=2');
    expect(first.data.map((e) => e.id)).toEqual(ids.slice(0, 2));
    expect(first.pagination).toEqual({ total: 5, limit: 2, offset: 0, hasMore: true });
    const second = await get('?limit=2&offset=2');
    expect(second.data.map((e) => e.id)).toEqual(ids.slice(2, 4));

    // An integrator keeps the last id it has and asks for what came after it.
    const after = await get(`?after=${ids[1]}&limit=2`);
    expect(after.data.map((e) => e.id)).toEqual(ids.slice(2, 4));
    expect(after.pagination).toEqual({ total: 3, limit: 2, offset: 0, hasMore: true });
    const tail = await get(`?after=${ids[3]}`);
    expect(tail.data.map((e) => e.id)).toEqual([ids[4]]);
    expect((await get(`?after=${ids[4]}`)).data).toEqual([]);
  });

  it('filters by type, with after counting positions in the whole stream', async () => {
    const ids = await fire(['BOOKING_CREATED', 'BOOKING_UPDATED', 'BOOKING_CREATED', 'BOOKING_UPDATED']);
    expect((await get('?type=BOOKING_UPDATED')).data.map((e) => e.id)).toEqual([ids[1], ids[3]]);
    expect((await get(`?type=BOOKING_CREATED&after=${ids[1]}`)).data.map((e) => e.id)).toEqual([ids[2]]);
  });

  it("refuses an after that is not one of the org's events, and bad parameters", async () => {
    const other = await t.addOrganization({ name: 'Elsewhere' });
    const otherExp = await t.request('POST', '/v1/experiences', {
      key: other.secretKey,
      body: { name: 'Elsewhere', description: '', duration: 60, price: 0, maxParticipants: 5 },
    });
    const [theirs] = await fire(['BOOKING_CREATED'], other.orgId, otherExp.body.data.id);
    await fire(['BOOKING_CREATED']);
    for (const query of [`?after=${theirs}`, '?after=evt_doesnotexist', '?after=']) {
      const details = expectValidationError(await t.request('GET', `/v1/events${query}`), 'after');
      expect(details[0]!.message).toBeTruthy();
    }
    expectValidationError(await t.request('GET', '/v1/events?type=BOOKING_EXPLODED'), 'type');
    expectValidationError(await t.request('GET', '/v1/events?limit=101'), 'limit');
    expectValidationError(await t.request('GET', '/v1/events?offset=-1'), 'offset');
    expectValidationError(await t.request('GET', '/v1/events?since=1'), 'since');
    // Each org sees only its own events.
    expect((await get()).data).toHaveLength(1);
    expectError(await t.request('GET', '/v1/events', { key: null }), 401, 'UNAUTHORIZED');
  });
});
