import ICAL from 'ical.js';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, expectData, expectError, expectList, insertBookingRow, manualClock, tampered, type TestApp } from '../test-helpers/index.js';
import { Booking, CalendarFeed, CalendarFeedWithToken, Deleted, Experience } from '../../shared/index.js';
import { escapeText } from './feed.js';

const NOW = Date.parse('2027-03-01T08:00:00Z');
const DAY = 86_400_000;
let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

async function setup() {
  const clock = manualClock(NOW);
  t = await createTestApp({ now: clock.now, env: { PUBLIC_URL: 'https://book.example.com' } });
  return { t, clock };
}

async function experience(app: TestApp, name = 'Alfama Walk') {
  const res = await app.request('POST', '/v1/experiences', {
    body: { name, description: '', duration: 120, price: 2500, maxParticipants: 10, schedule: { timezone: 'Europe/Lisbon', weekly: { mon: ['10:00'], tue: ['10:00'], wed: ['10:00'], thu: ['10:00'], fri: ['10:00'], sat: ['10:00'], sun: ['10:00'] } } },
  });
  return expectData(res, Experience, 201);
}

async function book(app: TestApp, experienceId: string, startTime: string, participants: number, customerName: string) {
  const res = await app.request('POST', '/v1/bookings', {
    body: { experienceId, startTime, participants, customerName, customerEmail: 'eve@example.com', customerPhone: '+351 900 000 000' },
  });
  return expectData(res, Booking, 201);
}

async function newFeed(app: TestApp, body: Record<string, unknown> = { name: 'Guides' }) {
  return expectData(await app.request('POST', '/v1/calendar-feeds', { body }), CalendarFeedWithToken, 201);
}

/** What a calendar app does: GET the URL and parse the iCalendar text. */
async function subscribe(app: TestApp, url: string, headers: Record<string, string> = {}) {
  const res = await app.app.request(url.replace('https://book.example.com', ''), { headers });
  const text = await res.text();
  return { res, text, calendar: res.status === 200 ? new ICAL.Component(ICAL.parse(text)) : undefined };
}

const prop = (c: ICAL.Component, name: string) => c.getFirstProperty(name);

describe('the bookings feed', () => {
  it('publishes each booking as an RFC 5545 event a calendar app can read', async () => {
    const { t } = await setup();
    const exp = await experience(t);
    const booking = await book(t, exp.id, '2027-03-03T10:00:00Z', 3, 'Eve Adams');
    const single = await book(t, exp.id, '2027-03-04T10:00:00Z', 1, 'Bob');
    const feed = await newFeed(t);
    expect(feed.url).toBe(`https://book.example.com/api/ical/${feed.token}`);
    expect(feed.token).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const { res, text, calendar } = await subscribe(t, feed.url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
    expect(text.endsWith('END:VCALENDAR\r\n')).toBe(true);
    expect(text.split('\r\n').every((line) => Buffer.byteLength(line) <= 75)).toBe(true);
    const cal = calendar!;
    expect(cal.getFirstPropertyValue('method')).toBe('PUBLISH');
    expect(cal.getFirstPropertyValue('prodid')).toBe('-//Outing//Outing bookings feed//EN');
    expect(cal.getFirstPropertyValue('version')).toBe('2.0');
    expect(cal.getFirstPropertyValue('x-wr-calname')).toBe('Test Tours · Guides');
    expect(text).toContain('REFRESH-INTERVAL;VALUE=DURATION:PT15M\r\n');
    expect(text).toContain('X-PUBLISHED-TTL:PT15M\r\n');

    const events = cal.getAllSubcomponents('vevent');
    expect(events.map((e) => e.getFirstPropertyValue('uid'))).toEqual([`${booking.id}@book.example.com`, `${single.id}@book.example.com`]);
    const first = events[0]!;
    for (const name of ['dtstart', 'dtend', 'dtstamp']) {
      const value = prop(first, name)!.getFirstValue() as ICAL.Time;
      expect(value.zone).toBe(ICAL.Timezone.utcTimezone);
    }
    expect((prop(first, 'dtstart')!.getFirstValue() as ICAL.Time).toJSDate().toISOString()).toBe('2027-03-03T10:00:00.000Z');
    expect((prop(first, 'dtend')!.getFirstValue() as ICAL.Time).toJSDate().toISOString()).toBe('2027-03-03T12:00:00.000Z');
    expect(first.getFirstPropertyValue('status')).toBe('CONFIRMED');
    expect(first.getFirstPropertyValue('sequence')).toBe(0);
    expect(first.getFirstPropertyValue('summary')).toBe('Alfama Walk · 3 guests · Eve Adams');
    expect(events[1]!.getFirstPropertyValue('summary')).toBe('Alfama Walk · 1 guest · Bob');
    expect(first.getFirstPropertyValue('description')).toBe(
      [`Booking ${booking.bookingNumber}`, 'E-mail: eve@example.com', 'Phone: +351 900 000 000', 'Participants: 3', 'Total: 75.00 EUR'].join('\n'),
    );
  });

  it('lists a booking’s extras in its DESCRIPTION and never its answers', async () => {
    const { t } = await setup();
    const exp = await experience(t);
    const secret = 'Allergic to shellfish, room 12';
    const row = await insertBookingRow(t.store, {
      orgId: t.orgId,
      experienceId: exp.id,
      slotStart: Date.parse('2027-03-05T10:00:00Z'),
      participants: 2,
      unitPrice: 2500,
      totalCents: 2 * 2500 + 2 * 1200 + 2500,
      guestName: 'Eve Adams',
      guestEmail: 'eve@example.com',
      extras: JSON.stringify([
        { extraId: 'ex_lunch', name: 'Lunch', per: 'PERSON', quantity: 2, unitPrice: 1200 },
        { extraId: 'ex_photos', name: 'Photos', per: 'BOOKING', quantity: 1, unitPrice: 2500 },
      ]),
      answers: JSON.stringify([{ questionId: 'q_diet', label: 'Dietary needs', type: 'TEXT', value: secret }]),
    });
    const { text, calendar } = await subscribe(t, (await newFeed(t)).url);
    const event = calendar!.getFirstSubcomponent('vevent')!;
    expect(event.getFirstPropertyValue('description')).toBe(
      [`Booking ${row.bookingNumber}`, 'E-mail: eve@example.com', 'Participants: 2', 'Extras: 2 × Lunch, 1 × Photos', 'Total: 99.00 EUR'].join('\n'),
    );
    const unfolded = text.replace(/\r\n[ \t]/g, '');
    for (const hidden of ['shellfish', 'Dietary needs']) expect(unfolded).not.toContain(hidden);
  });

  it('escapes guest names so that no property can be injected', async () => {
    const { t } = await setup();
    const exp = await experience(t);
    const evil = 'Eve\r\nATTENDEE;ROLE=CHAIR:mailto:x@evil.example\r\nEND:VEVENT, "a;b" \\ c\nd\re';
    await book(t, exp.id, '2027-03-03T10:00:00Z', 2, evil);
    const feed = await newFeed(t, { name: 'Evil\r\nX-INJECTED:1; a, b \\' });
    const { text, calendar } = await subscribe(t, feed.url);
    const lines = text.split('\r\n');
    expect(lines.filter((l) => /^(ATTENDEE|X-INJECTED)/.test(l))).toEqual([]);
    expect(lines.filter((l) => l === 'END:VEVENT')).toHaveLength(1);
    const event = calendar!.getFirstSubcomponent('vevent')!;
    expect(event.getAllProperties('attendee')).toHaveLength(0);
    expect(event.getFirstPropertyValue('summary')).toBe(`Alfama Walk · 2 guests · ${evil.replace(/\r\n?/g, '\n')}`);
    // ical.js leaves X- properties unescaped: the raw TEXT shows the escapes that kept it on one line.
    expect(calendar!.getFirstPropertyValue('x-wr-calname')).toBe('Test Tours · Evil\\nX-INJECTED:1\\; a\\, b \\\\');
    expect(escapeText('a;b,c\\d\ne')).toBe('a\\;b\\,c\\\\d\\ne');
  });

  it('grows SEQUENCE with each change, marks pending bookings tentative and leaves cancelled ones out', async () => {
    const { t, clock } = await setup();
    const exp = await experience(t);
    const booking = await book(t, exp.id, '2027-03-03T10:00:00Z', 2, 'Eve');
    const feed = await newFeed(t);
    const uid = `${booking.id}@book.example.com`;
    const eventOf = async (id: string) =>
      (await subscribe(t, feed.url)).calendar!.getAllSubcomponents('vevent').find((e) => e.getFirstPropertyValue('uid') === id);

    clock.advance(60_000);
    expectData(await t.request('PATCH', `/v1/bookings/${booking.id}`, { body: { participants: 4 } }), Booking);
    const changed = (await eventOf(uid))!;
    expect(changed.getFirstPropertyValue('sequence')).toBe(1);
    expect(changed.getFirstPropertyValue('summary')).toBe('Alfama Walk · 4 guests · Eve');
    expect((changed.getFirstPropertyValue('dtstamp') as ICAL.Time).toJSDate().getTime()).toBe(NOW + 60_000);

    clock.advance(60_000);
    expectData(await t.request('PATCH', `/v1/bookings/${booking.id}`, { body: { startTime: '2027-03-05T10:00:00Z' } }), Booking);
    const moved = (await eventOf(uid))!;
    expect(moved.getFirstPropertyValue('sequence')).toBe(2);
    expect((moved.getFirstPropertyValue('dtstart') as ICAL.Time).toJSDate().toISOString()).toBe('2027-03-05T10:00:00.000Z');

    const pending = await insertBookingRow(t.store, { orgId: t.orgId, experienceId: exp.id, slotStart: Date.parse('2027-03-06T10:00:00Z'), status: 'PENDING' });
    expect((await eventOf(`${pending.id}@book.example.com`))!.getFirstPropertyValue('status')).toBe('TENTATIVE');

    expectData(await t.request('PATCH', `/v1/bookings/${booking.id}/cancel`, { body: {} }), Booking);
    expect(await eventOf(uid)).toBeUndefined();
  });

  it('holds bookings from the last 90 days to the next 730, and one experience in a per-experience feed', async () => {
    const { t } = await setup();
    const walk = await experience(t);
    const sail = await experience(t, 'Sunset Sail');
    const row = async (slotStart: number, experienceId = walk.id) => (await insertBookingRow(t.store, { orgId: t.orgId, experienceId, slotStart })).id;
    const old = await row(NOW - 91 * DAY);
    const recent = await row(NOW - 89 * DAY);
    const far = await row(NOW + 729 * DAY);
    const tooFar = await row(NOW + 731 * DAY);
    const sailing = await row(NOW + DAY, sail.id);
    const uids = async (url: string) =>
      (await subscribe(t, url)).calendar!.getAllSubcomponents('vevent').map((e) => String(e.getFirstPropertyValue('uid')).split('@')[0]);

    const all = await uids((await newFeed(t)).url);
    expect(all).toEqual(expect.arrayContaining([recent, far, sailing]));
    expect(all).not.toContain(old);
    expect(all).not.toContain(tooFar);
    const onlySail = await newFeed(t, { name: 'Sail', experienceId: sail.id });
    expect(onlySail.experienceId).toBe(sail.id);
    expect(await uids(onlySail.url)).toEqual([sailing]);
  });

  it('answers 304 to If-None-Match until a booking changes', async () => {
    const { t } = await setup();
    const exp = await experience(t);
    const feed = await newFeed(t);
    const first = await subscribe(t, `${feed.url}.ics`);
    const etag = first.res.headers.get('etag')!;
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await subscribe(t, feed.url, { 'if-none-match': etag });
    expect(again.res.status).toBe(304);
    expect(again.text).toBe('');
    expect(again.res.headers.get('etag')).toBe(etag);
    expect((await subscribe(t, feed.url, { 'if-none-match': `W/${etag}` })).res.status).toBe(304);
    await book(t, exp.id, '2027-03-03T10:00:00Z', 1, 'Eve');
    const changed = await subscribe(t, feed.url, { 'if-none-match': etag });
    expect(changed.res.status).toBe(200);
    expect(changed.res.headers.get('etag')).not.toBe(etag);
  });

  it('answers one JSON 404 that reveals nothing for unknown, malformed and deleted tokens', async () => {
    const { t } = await setup();
    const feed = await newFeed(t);
    const other = await t.addOrganization({ name: 'Other' });
    const otherKey = (await t.createKey({ orgId: other.orgId })).key;
    const bodies = new Set<string>();
    const expect404 = async (path: string) => {
      const res = await t.app.request(path);
      expect(res.status).toBe(404);
      const body = await res.json();
      expectError({ status: res.status, body, headers: res.headers }, 404, 'NOT_FOUND');
      bodies.add(JSON.stringify(body));
    };
    await expect404(`/api/ical/${'A'.repeat(43)}`);
    await expect404('/api/ical/short');
    await expect404(`/api/ical/${tampered(feed.token)}.ics`);
    // Another org cannot delete it; its owner can, and then its URL is dead.
    expectError(await t.request('DELETE', `/v1/calendar-feeds/${feed.id}`, { key: otherKey }), 404, 'NOT_FOUND');
    expect(expectData(await t.request('DELETE', `/v1/calendar-feeds/${feed.id}`), Deleted)).toEqual({ id: feed.id, deleted: true });
    await expect404(`/api/ical/${feed.token}`);
    await expect404(`/api/ical/${feed.token}.ics`);
    expect(bodies.size).toBe(1);
  });

  it('never writes a feed token to the request log', async () => {
    const { t } = await setup();
    const feed = await newFeed(t);
    await subscribe(t, feed.url);
    await subscribe(t, `${feed.url}.ics`);
    expect(t.logs.join('\n')).not.toContain(feed.token);
    expect(t.logEntries().filter((l) => String(l.path).startsWith('/api/ical/')).map((l) => l.path)).toEqual([
      '/api/ical/[redacted]',
      '/api/ical/[redacted]',
    ]);
  });
});

describe('the feeds API', () => {
  it('lists feeds without their tokens and refuses an unknown experience', async () => {
    const { t, clock } = await setup();
    clock.advance(1_000); // after the feed init made
    const made = await newFeed(t, { name: 'Office screen' });
    const page = expectList(await t.request('GET', '/v1/calendar-feeds?limit=10'), CalendarFeed);
    // `init` made the first feed; tokens are shown only once.
    expect(page.data.map((f) => f.name)).toEqual(['All bookings', 'Office screen']);
    expect(JSON.stringify(page)).not.toContain(made.token);
    expect(expectData(await t.request('GET', `/v1/calendar-feeds/${made.id}`), CalendarFeed).name).toBe('Office screen');
    expectError(await t.request('POST', '/v1/calendar-feeds', { body: { name: 'x', experienceId: 'exp_nope' } }), 404, 'NOT_FOUND');
    expectError(await t.request('POST', '/v1/calendar-feeds', { body: { name: '' } }), 400, 'VALIDATION_ERROR');
    expectError(await t.request('GET', '/v1/calendar-feeds/nope'), 404, 'NOT_FOUND');
  });

  it('needs the calendars scopes', async () => {
    const { t } = await setup();
    const reader = (await t.createKey({ scopes: ['calendars:read'] })).key;
    const none = (await t.createKey({ scopes: ['bookings:read'] })).key;
    expectList(await t.request('GET', '/v1/calendar-feeds', { key: reader }), CalendarFeed);
    expectError(await t.request('POST', '/v1/calendar-feeds', { key: reader, body: { name: 'x' } }), 403, 'FORBIDDEN');
    expectError(await t.request('GET', '/v1/calendar-feeds', { key: none }), 403, 'FORBIDDEN');
    expectError(await t.request('GET', '/v1/calendar-feeds', { key: null }), 401, 'UNAUTHORIZED');
  });

  it('serves the feed init printed', async () => {
    const { t } = await setup();
    const { res, calendar } = await subscribe(t, t.icalFeedUrl);
    expect(res.status).toBe(200);
    expect(calendar!.getFirstPropertyValue('x-wr-calname')).toBe('Test Tours · All bookings');
  });
});
