import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createTestApp, expectData, expectError, expectList, expectValidationError, manualClock, type TestApp } from '../test-helpers/index.js';
import { Availability, Booking, CalendarImport, Deleted, Experience } from '../../shared/index.js';
import { guardedCalendarFetcher } from '../ical/fetch.js';
import { syncCalendarImport } from './calendar-sync.js';
import { CalendarSync } from './calendar-sync.js';
import { calendarSyncJob } from '../jobs/calendar-sync.js';
import { createCalendarImport } from './calendar-imports.js';
import { SYSTEM } from '../domain/actor.js';

const NOW = Date.parse('2027-03-01T08:00:00Z');
const DAY = 86_400_000;
const fixture = (name: string) => readFileSync(new URL(`../ical/fixtures/${name}`, import.meta.url));

interface Seen {
  path: string;
  headers: IncomingHttpHeaders;
}

/**
 * A calendar host on 127.0.0.1: `/fixtures/{file}` with ETag and Last-Modified (304 when they
 * match), and `/switch.ics`, whose answer a test changes between syncs.
 */
async function calendarHost() {
  const seen: Seen[] = [];
  let switchAnswer: (res: ServerResponse) => void = (res) => res.writeHead(404).end();
  const serve = (res: ServerResponse, body: Buffer, ifNoneMatch: string | undefined, type = 'text/calendar; charset=utf-8') => {
    const etag = `"${createHash('sha1').update(body).digest('hex')}"`;
    if (ifNoneMatch === etag) return res.writeHead(304, { etag }).end();
    res.writeHead(200, { 'content-type': type, etag, 'last-modified': 'Mon, 01 Feb 2027 10:00:00 GMT' }).end(body);
  };
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://host');
    seen.push({ path: url.pathname + url.search, headers: req.headers });
    const ifNoneMatch = req.headers['if-none-match'];
    const redirect = /^\/redirect\/(\d+)$/.exec(url.pathname);
    if (redirect) {
      const left = Number(redirect[1]);
      return res.writeHead(302, { location: left > 1 ? `/redirect/${left - 1}` : '/fixtures/broken.ics' }).end();
    }
    if (url.pathname === '/switch.ics') return switchAnswer(res);
    if (url.pathname === '/hang') return; // never answers
    if (url.pathname.startsWith('/fixtures/')) {
      try {
        return serve(res, fixture(url.pathname.slice('/fixtures/'.length)), ifNoneMatch);
      } catch {
        return res.writeHead(404).end();
      }
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    seen,
    /** What /switch.ics answers from now on. */
    answer(fn: (res: ServerResponse) => void) {
      switchAnswer = fn;
    },
    serve,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

type Host = Awaited<ReturnType<typeof calendarHost>>;
let t: TestApp | undefined;
let host: Host | undefined;
afterEach(async () => {
  await t?.close();
  await host?.close();
  t = undefined;
  host = undefined;
});

async function setup(env: Record<string, string> = { OUTBOUND_ALLOW_PRIVATE: 'true' }) {
  const clock = manualClock(NOW);
  host = await calendarHost();
  t = await createTestApp({ now: clock.now, env });
  return { t, clock, host };
}

const everyDayAt10 = { mon: ['10:00'], tue: ['10:00'], wed: ['10:00'], thu: ['10:00'], fri: ['10:00'], sat: ['10:00'], sun: ['10:00'] };
async function experience(app: TestApp, timezone = 'Europe/Lisbon') {
  const res = await app.request('POST', '/v1/experiences', {
    body: { name: 'Alfama Walk', description: '', duration: 120, price: 2500, maxParticipants: 10, schedule: { timezone, weekly: everyDayAt10 } },
  });
  return expectData(res, Experience, 201);
}

async function importCalendar(app: TestApp, body: Record<string, unknown>) {
  return expectData(await app.request('POST', '/v1/calendar-imports', { body: { name: 'Guide calendar', ...body } }), CalendarImport, 201);
}

const busy = async (app: TestApp, experienceId: string) =>
  (await app.store.calendarImports.busyIntervalsFor(app.orgId, experienceId, NOW - DAY, NOW + 800 * DAY)).map((i) => `${new Date(i.start).toISOString()}/${new Date(i.end).toISOString()}`);

describe('importing a calendar', () => {
  it('fetches it at once, answers 201 with the record, and stores its busy times', async () => {
    const { t, host } = await setup();
    const exp = await experience(t);
    const record = await importCalendar(t, { url: `${host.base}/fixtures/google-basic.ics` });
    expect(record).toMatchObject({ name: 'Guide calendar', experienceId: null, lastError: null, eventCount: 10 });
    expect(record.lastSyncedAt).toBe(new Date(NOW).toISOString());
    expect(record.url).toBe(`${host.base}/fixtures/…`);
    expect(host.seen).toHaveLength(1);
    // Without experienceId it blocks every experience; floating and all-day times are read in the org's zone.
    expect(await busy(t, exp.id)).toEqual([
      '2027-03-10T14:00:00.000Z/2027-03-10T15:30:00.000Z',
      '2027-03-12T15:00:00.000Z/2027-03-12T16:00:00.000Z',
      '2027-03-13T09:00:00.000Z/2027-03-13T09:45:00.000Z',
      '2027-03-20T00:00:00.000Z/2027-03-21T00:00:00.000Z',
      '2027-03-27T00:00:00.000Z/2027-03-29T23:00:00.000Z',
      '2027-06-15T09:00:00.000Z/2027-06-15T11:00:00.000Z',
      '2027-06-16T08:00:00.000Z/2027-06-16T09:00:00.000Z',
    ]);
    const list = expectList(await t.request('GET', '/v1/calendar-imports'), CalendarImport);
    expect(list.data).toEqual([record]);
    expect(expectData(await t.request('GET', `/v1/calendar-imports/${record.id}`), CalendarImport)).toEqual(record);
  });

  it('reads floating and all-day times in the blocked experience’s zone, and blocks only that experience', async () => {
    const { t, host } = await setup();
    const newYork = await experience(t, 'America/New_York');
    const lisbon = await experience(t);
    const record = await importCalendar(t, { url: `${host.base}/fixtures/google-basic.ics`, experienceId: newYork.id });
    expect(record.experienceId).toBe(newYork.id);
    expect(await busy(t, newYork.id)).toContain('2027-03-12T20:00:00.000Z/2027-03-12T21:00:00.000Z');
    expect(await busy(t, newYork.id)).toContain('2027-03-20T04:00:00.000Z/2027-03-21T04:00:00.000Z');
    expect(await busy(t, lisbon.id)).toEqual([]);
  });

  it('fetches conditionally, and a 304 keeps the last good copy', async () => {
    const { t, clock, host } = await setup();
    const exp = await experience(t);
    const record = await importCalendar(t, { url: `${host.base}/fixtures/outlook.ics` });
    const before = await busy(t, exp.id);
    expect(before).toHaveLength(6);
    clock.advance(60_000);
    const synced = expectData(await t.request('POST', `/v1/calendar-imports/${record.id}/sync`), CalendarImport, 202);
    const second = host.seen[1]!;
    expect(second.headers['if-none-match']).toMatch(/^"[0-9a-f]{40}"$/);
    expect(second.headers['if-modified-since']).toBe('Mon, 01 Feb 2027 10:00:00 GMT');
    expect(synced).toMatchObject({ lastError: null, eventCount: 6, lastSyncedAt: new Date(NOW + 60_000).toISOString() });
    expect(await busy(t, exp.id)).toEqual(before);
  });

  it('fetches in full again once the horizon has moved a day', async () => {
    const { t, clock, host } = await setup();
    const record = await importCalendar(t, { url: `${host.base}/fixtures/outlook.ics` });
    clock.advance(DAY + 1);
    expectData(await t.request('POST', `/v1/calendar-imports/${record.id}/sync`), CalendarImport, 202);
    expect(host.seen[1]!.headers['if-none-match']).toBeUndefined();
  });

  it('keeps the last good copy and says why when a fetch fails', async () => {
    const { t, clock, host } = await setup();
    const exp = await experience(t);
    host.answer((res) => host.serve(res, fixture('outlook.ics'), undefined));
    const record = await importCalendar(t, { url: `${host.base}/switch.ics` });
    const good = await busy(t, exp.id);
    const failures: [string, (res: ServerResponse) => void, RegExp][] = [
      ['an HTTP error', (res) => res.writeHead(500, 'Internal Server Error').end(), /HTTP 500 Internal Server Error/],
      ['a web page', (res) => host.serve(res, fixture('not-a-calendar.html'), undefined, 'text/html'), /not an iCalendar file/],
      ['a truncated calendar', (res) => host.serve(res, fixture('truncated.ics'), undefined), /truncated/],
      ['garbage', (res) => host.serve(res, Buffer.from('\u0000\u0001binary junk'), undefined), /not an iCalendar file/],
      ['more than 5 MB', (res) => host.serve(res, Buffer.concat([fixture('outlook.ics').subarray(0, 200), Buffer.alloc(5 * 1024 * 1024 + 1, 32)]), undefined), /larger than 5 MB/],
    ];
    for (const [what, answer, message] of failures) {
      clock.advance(DAY + 1); // no conditional request: the host's answer is what we read
      host.answer(answer);
      const after = expectData(await t.request('POST', `/v1/calendar-imports/${record.id}/sync`), CalendarImport, 202);
      expect(after.lastError, what).toMatch(message);
      expect(after.lastSyncedAt, what).toBe(record.lastSyncedAt);
      expect(after.eventCount, what).toBe(6);
      expect(await busy(t, exp.id), what).toEqual(good);
    }
    host.answer((res) => host.serve(res, fixture('broken.ics'), undefined));
    const recovered = expectData(await t.request('POST', `/v1/calendar-imports/${record.id}/sync`), CalendarImport, 202);
    expect(recovered.eventCount).toBe(11);
    expect(recovered.lastError).toMatch(/^Synced, but 9 of 11 events were skipped: an event: its BEGIN and END lines do not match; event "impossible-date@example.com"/);
    expect(await busy(t, exp.id)).toEqual(['2027-03-10T10:00:00.000Z/2027-03-10T11:00:00.000Z', '2027-03-15T00:00:00.000Z/2027-03-16T00:00:00.000Z']);
  });

  it('says which event it skipped in words both engines can store, whatever its UID holds', async () => {
    const { t, host } = await setup();
    await experience(t);
    // A UID with a NUL and other control characters: PostgreSQL cannot store a NUL in text.
    const ics = [
      'BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Test//Odd UIDs//EN',
      'BEGIN:VEVENT', 'UID:odd\u0000uid\u0007@example.com', 'DTSTART:20271345T250000Z', 'DTEND:20271346T010000Z', 'END:VEVENT',
      'BEGIN:VEVENT', 'UID:good@example.com', 'DTSTART:20270310T100000Z', 'DTEND:20270310T110000Z', 'END:VEVENT',
      'END:VCALENDAR', '',
    ].join('\r\n');
    host.answer((res) => host.serve(res, Buffer.from(ics), undefined));
    const record = await importCalendar(t, { url: `${host.base}/switch.ics` });
    expect(record).toMatchObject({ eventCount: 2, lastSyncedAt: expect.any(String) });
    expect(record.lastError).toMatch(/^Synced, but 1 of 2 events were skipped: event "odd\uFFFDuid\uFFFD@example.com": /);
  });

  it('answers 201 even when the first fetch fails', async () => {
    const { t, host } = await setup();
    const record = await importCalendar(t, { url: `${host.base}/fixtures/missing.ics` });
    expect(record).toMatchObject({ lastSyncedAt: null, eventCount: 0, lastError: 'The calendar server answered HTTP 404 Not Found' });
  });

  it('gives up on a calendar that does not arrive in time', async () => {
    const { t, host } = await setup();
    const record = await importCalendar(t, { url: `${host.base}/fixtures/outlook.ics` });
    await t.store.calendarImports.insertCalendarImport({ ...(await t.store.calendarImports.getCalendarImportById(record.id))!, id: 'cal_hang', url: `${host.base}/hang`, expandedAt: null });
    const deps = { store: t.store, logger: { debug() {}, info() {}, warn() {}, error() {}, logs: () => false }, now: () => NOW, intervalSeconds: 900 };
    await syncCalendarImport({ ...deps, fetcher: guardedCalendarFetcher(true, 300) }, 'cal_hang');
    expect((await t.store.calendarImports.getCalendarImportById('cal_hang'))!.lastError).toMatch(/did not arrive in time \(No response within 300 ms\)/);
  });

  it('follows at most 3 redirects', async () => {
    const { t, host } = await setup();
    expect((await importCalendar(t, { url: `${host.base}/redirect/3` })).eventCount).toBe(11);
    expect((await importCalendar(t, { url: `${host.base}/redirect/4` })).lastError).toBe('The calendar URL redirects more than 3 times');
  });

  it('reads webcal:// as https://', async () => {
    const { t, host } = await setup();
    const record = await importCalendar(t, { url: `${host.base.replace('http:', 'webcal:')}/fixtures/outlook.ics` });
    expect(record.url).toBe(`${host.base.replace('http:', 'webcal:')}/fixtures/…`);
    // The local host speaks plain HTTP, so the TLS handshake of https:// fails: proof of the scheme used.
    expect(record.lastError).toMatch(/TLS|Connection/);
    expect(host.seen.filter((s) => s.path.includes('outlook'))).toEqual([]);
  });

  it('masks the path after its first segment, the query and credentials in lists', async () => {
    const { t, host } = await setup();
    const port = new URL(host.base).port;
    const record = await importCalendar(t, { url: `http://user:pw@127.0.0.1:${port}/fixtures/outlook.ics?token=secret` });
    expect(record.url).toBe(`http://…@127.0.0.1:${port}/fixtures/…?…`);
    expect(record.eventCount).toBe(6);
    expect(JSON.stringify(expectList(await t.request('GET', '/v1/calendar-imports'), CalendarImport))).not.toContain('secret');
  });

  it('deletes an import and its busy times', async () => {
    const { t, host } = await setup();
    const exp = await experience(t);
    const record = await importCalendar(t, { url: `${host.base}/fixtures/outlook.ics` });
    expect(await busy(t, exp.id)).not.toEqual([]);
    const other = (await t.createKey({ orgId: (await t.addOrganization({ name: 'Other' })).orgId })).key;
    expectError(await t.request('DELETE', `/v1/calendar-imports/${record.id}`, { key: other }), 404, 'NOT_FOUND');
    expect(expectData(await t.request('DELETE', `/v1/calendar-imports/${record.id}`), Deleted)).toEqual({ id: record.id, deleted: true });
    expect(await busy(t, exp.id)).toEqual([]);
    expectError(await t.request('GET', `/v1/calendar-imports/${record.id}`), 404, 'NOT_FOUND');
    expectError(await t.request('POST', `/v1/calendar-imports/${record.id}/sync`), 404, 'NOT_FOUND');
    expectError(await t.request('DELETE', `/v1/calendar-imports/${record.id}`), 404, 'NOT_FOUND');
  });

  it('checks the body, the experience and the scopes', async () => {
    const { t, host } = await setup();
    const url = `${host.base}/fixtures/outlook.ics`;
    expectValidationError(await t.request('POST', '/v1/calendar-imports', { body: { name: 'x', url: 'ftp://example.com/cal.ics' } }), 'url');
    expectValidationError(await t.request('POST', '/v1/calendar-imports', { body: { name: 'x', url: 'not a url' } }), 'url');
    expectValidationError(await t.request('POST', '/v1/calendar-imports', { body: { url } }), 'name');
    expectValidationError(await t.request('POST', '/v1/calendar-imports', { body: { name: 'x', url, extra: 1 } }), 'extra');
    expectError(await t.request('POST', '/v1/calendar-imports', { body: { name: 'x', url, experienceId: 'exp_missing' } }), 404, 'NOT_FOUND');
    const reader = (await t.createKey({ scopes: ['calendars:read'] })).key;
    expectError(await t.request('POST', '/v1/calendar-imports', { key: reader, body: { name: 'x', url } }), 403, 'FORBIDDEN');
    expectList(await t.request('GET', '/v1/calendar-imports', { key: reader }), CalendarImport);
    expect(host.seen).toEqual([]);
  });

  it('refuses loopback and private addresses unless OUTBOUND_ALLOW_PRIVATE is on', async () => {
    const { t, host } = await setup({});
    for (const url of [`${host.base}/fixtures/outlook.ics`, 'http://localhost/cal.ics', 'webcal://10.0.0.8/cal.ics', 'http://2130706433/cal.ics']) {
      expectValidationError(await t.request('POST', '/v1/calendar-imports', { body: { name: 'x', url } }), 'url');
    }
    expect(host.seen).toEqual([]);
  });
});

describe('the background sync', () => {
  it('fetches every CALENDAR_SYNC_INTERVAL and stops when asked', async () => {
    const { t, host } = await setup({ OUTBOUND_ALLOW_PRIVATE: 'true', CALENDAR_SYNC_INTERVAL: '1' });
    const record = await importCalendar(t, { url: `${host.base}/fixtures/outlook.ics` });
    const started = Date.now();
    const runningClock = () => NOW + (Date.now() - started);
    const quiet = { debug() {}, info() {}, warn() {}, error() {}, logs: () => false };
    const sync = calendarSyncJob(new CalendarSync({ store: t.store, config: t.config, logger: quiet, now: runningClock }), quiet);
    await sync.start();
    try {
      await vi.waitFor(() => expect(host.seen.length).toBeGreaterThanOrEqual(3), { timeout: 20_000, interval: 100 });
    } finally {
      await sync.stop();
    }
    const after = host.seen.length;
    expect(host.seen.slice(1).every((s) => s.headers['if-none-match'] !== undefined)).toBe(true);
    expect((await t.store.calendarImports.getCalendarImportById(record.id))!.lastError).toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    expect(host.seen.length).toBe(after);
  });

  it('stores a new import already claimed by the request that fetches it, so no other process fetches it meanwhile', async () => {
    const { t, host } = await setup({ OUTBOUND_ALLOW_PRIVATE: 'true', CALENDAR_SYNC_INTERVAL: '60' });
    const row = await createCalendarImport(
      t.store, t.orgId, { name: 'Guide calendar', url: `${host.base}/fixtures/outlook.ics` },
      { allowPrivate: true, syncIntervalSeconds: 60 }, NOW, SYSTEM,
    );
    expect(row.nextSyncAt).toBe(NOW + 60_000);
    // Another process's background pass, between the insert and the route's own fetch: nothing is due.
    expect(await t.store.calendarImports.listDueCalendarImports(NOW, 10)).toEqual([]);
    const quiet = { debug() {}, info() {}, warn() {}, error() {}, logs: () => false };
    const other = new CalendarSync({ store: t.store, config: t.config, logger: quiet, now: () => NOW });
    await other.syncDue();
    await other.stop();
    expect(host.seen).toHaveLength(0);
    // Had its creator died before fetching, it is fetched one interval later.
    expect(await t.store.calendarImports.listDueCalendarImports(NOW + 60_000, 10)).toEqual([row.id]);
  });

  it('syncs a due import once when several processes see it due at the same time', async () => {
    const { t, host } = await setup({ OUTBOUND_ALLOW_PRIVATE: 'true', CALENDAR_SYNC_INTERVAL: '60' });
    const record = await importCalendar(t, { url: `${host.base}/fixtures/outlook.ics` });
    const fetchedAtImport = host.seen.length;
    const later = NOW + 61_000; // due again
    const quiet = { debug() {}, info() {}, warn() {}, error() {}, logs: () => false };
    // Three syncers over one store stand for three processes over one database: all list the import as due.
    const syncers = [1, 2, 3].map(() => new CalendarSync({ store: t.store, config: t.config, logger: quiet, now: () => later }));
    try {
      await Promise.all(syncers.map((s) => s.syncDue()));
      await vi.waitFor(() => expect(host.seen.length).toBe(fetchedAtImport + 1), { timeout: 10_000, interval: 50 });
      await vi.waitFor(async () => expect((await t.store.calendarImports.getCalendarImportById(record.id))!.lastSyncedAt).toBe(later), { timeout: 10_000, interval: 50 });
      // Nothing is due any more until the next interval.
      await Promise.all(syncers.map((s) => s.syncDue()));
    } finally {
      await Promise.all(syncers.map((s) => s.stop()));
    }
    expect(host.seen.length).toBe(fetchedAtImport + 1);
  });

  it('cancels a fetch under way when stopped, keeping the import as it was', async () => {
    const { t, host } = await setup({ OUTBOUND_ALLOW_PRIVATE: 'true' });
    const record = await importCalendar(t, { url: `${host.base}/fixtures/outlook.ics` });
    await t.store.calendarImports.insertCalendarImport({ ...(await t.store.calendarImports.getCalendarImportById(record.id))!, id: 'cal_hang', url: `${host.base}/hang`, expandedAt: null, nextSyncAt: 0 });
    await t.store.calendarImports.scheduleCalendarImport(record.id, NOW + DAY, NOW + DAY);
    const quiet = { debug() {}, info() {}, warn() {}, error() {}, logs: () => false };
    const sync = calendarSyncJob(new CalendarSync({ store: t.store, config: t.config, logger: quiet, now: () => NOW }), quiet);
    await sync.start();
    await vi.waitFor(() => expect(host.seen.some((s) => s.path === '/hang')).toBe(true), { timeout: 20_000, interval: 50 });
    await sync.stop();
    expect((await t.store.calendarImports.getCalendarImportById('cal_hang'))!.lastError).toBeNull();
  });
});

// Integration with availability and bookings: imported busy time marks
// overlapping slots BLOCKED, booking them is 409 SLOT_UNAVAILABLE, and bookings already there stay.
describe('availability with imported calendars', () => {
  it('marks overlapping slots BLOCKED and refuses to book them, keeping bookings already made', async () => {
    const { t, host } = await setup();
    const exp = await experience(t);
    const existing = expectData(
      await t.request('POST', '/v1/bookings', {
        body: { experienceId: exp.id, startTime: '2027-03-10T10:00:00Z', participants: 2, customerName: 'Early Bird', customerEmail: 'early@example.com' },
      }),
      Booking,
      201,
    );
    // broken.ics: busy 10:00–11:00 UTC on 10 March (the 10:00 Lisbon slot) and all of 15 March.
    await importCalendar(t, { url: `${host.base}/fixtures/broken.ics`, experienceId: exp.id });

    const query = `experienceId=${exp.id}&startDate=2027-03-09&endDate=2027-03-16`;
    for (const path of [`/v1/availability?${query}`, `/public/v1/availability?${query}`]) {
      const availability = expectData(await t.request('GET', path), Availability);
      const reasons = Object.fromEntries(availability.slots.map((s) => [s.startTime.slice(0, 10), s.unavailableReason]));
      expect(reasons, path).toEqual({
        '2027-03-09': null,
        '2027-03-10': 'BLOCKED',
        '2027-03-11': null,
        '2027-03-12': null,
        '2027-03-13': null,
        '2027-03-14': null,
        '2027-03-15': 'BLOCKED',
        '2027-03-16': null,
      });
      expect(availability.slots.find((s) => s.startTime.startsWith('2027-03-10'))).toMatchObject({ available: false, booked: 2 });
    }
    const refused = await t.request('POST', '/v1/bookings', {
      body: { experienceId: exp.id, startTime: '2027-03-15T10:00:00Z', participants: 1, customerName: 'Late', customerEmail: 'late@example.com' },
    });
    expectError(refused, 409, 'SLOT_UNAVAILABLE');
    expect(expectData(await t.request('GET', `/v1/bookings/${existing.id}`), Booking).status).toBe('CONFIRMED');
  });
});
