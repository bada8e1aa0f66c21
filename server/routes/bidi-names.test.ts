import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, everyDay, expectData, expectValidationError, manualClock, type TestApp } from '../test-helpers/index.js';
import { Booking, Experience, Organization, User, UserWithSetupUrl } from '../../shared/index.js';

// Monday 2027-03-01, 08:00 in Lisbon; the tour runs every day at 10:00.
const NOW = Date.UTC(2027, 2, 1, 8, 0, 0);
const START = '2027-03-02T10:00:00.000Z';

/** The embedding, override and isolate controls: each can make a name read as something it is not. */
const BIDI = ['\u202A', '\u202B', '\u202C', '\u202D', '\u202E', '\u2066', '\u2067', '\u2068', '\u2069'];
const hex = (ch: string) => `U+${ch.charCodeAt(0).toString(16).toUpperCase()}`;

let t: TestApp;
let exp: Experience;
let booking: Booking;
let user: User;

beforeAll(async () => {
  t = await createTestApp({ now: manualClock(NOW).now });
  exp = expectData(
    await t.request('POST', '/v1/experiences', {
      body: { name: 'Harbour cruise', description: 'An hour', duration: 60, price: 1500, maxParticipants: 20, schedule: { weekly: everyDay(['10:00']) } },
    }),
    Experience,
    201,
  );
  booking = expectData(
    await t.request('POST', '/v1/bookings', {
      body: { experienceId: exp.id, startTime: START, participants: 1, customerName: 'Ana Costa', customerEmail: 'ana@example.com' },
    }),
    Booking,
    201,
  );
  user = expectData(await t.request('POST', '/v1/users', { body: { email: 'staff@test-tours.example', name: 'Sam Staff', role: 'staff' } }), UserWithSetupUrl, 201);
});
afterAll(() => t.close());

const newBooking = (name: string, path = '/v1/bookings') =>
  t.request('POST', path, { body: { experienceId: exp.id, startTime: START, participants: 1, customerName: name, customerEmail: 'eve@example.com' } });

describe('names refuse bidirectional control characters with 400 naming the field', () => {
  it.each(BIDI.map((ch) => [hex(ch), ch]))('a guest name with %s, on both booking APIs and on PATCH', async (_, ch) => {
    const details = expectValidationError(await newBooking(`Eve${ch}gpj.exe`), 'customerName');
    expect(details[0]?.message).toMatch(/bidirectional control characters \(U\+202A–U\+202E, U\+2066–U\+2069\)/);
    expectValidationError(await newBooking(`${ch}Eve`, '/public/v1/bookings'), 'customerName');
    expectValidationError(await t.request('PATCH', `/v1/bookings/${booking.id}`, { body: { guestName: `Ana${ch}` } }), 'guestName');
    expectValidationError(await t.request('PATCH', `/v1/bookings/${booking.id}`, { body: { customerName: `Ana${ch}` } }), 'customerName');
  });

  it.each(BIDI.map((ch) => [hex(ch), ch]))('an experience, price category, organization or user name with %s', async (_, ch) => {
    const experience = { name: `Tour${ch}`, description: '', duration: 60, price: 100, maxParticipants: 5 };
    expectValidationError(await t.request('POST', '/v1/experiences', { body: experience }), 'name');
    expectValidationError(await t.request('PATCH', `/v1/experiences/${exp.id}`, { body: { name: `Tour${ch}` } }), 'name');
    expectValidationError(
      await t.request('PATCH', `/v1/experiences/${exp.id}`, { body: { priceCategories: [{ name: `Adult${ch}`, price: 100 }] } }),
      'priceCategories[0].name',
    );
    expectValidationError(await t.request('PATCH', '/v1/organization', { body: { name: `Tours${ch}` } }), 'name');
    expectValidationError(await t.request('POST', '/v1/users', { body: { email: 'new@test-tours.example', name: `New${ch}`, role: 'staff' } }), 'name');
    expectValidationError(await t.request('PATCH', `/v1/users/${user.id}`, { body: { name: `Sam${ch}` } }), 'name');
  });

  it('changes nothing when it refuses', async () => {
    expect(expectData(await t.request('GET', `/v1/bookings/${booking.id}`), Booking).guestName).toBe('Ana Costa');
    expect(expectData(await t.request('GET', `/v1/experiences/${exp.id}`), Experience).name).toBe('Harbour cruise');
    expect(expectData(await t.request('GET', '/v1/organization'), Organization).name).toBe('Test Tours');
  });

  it('keeps right-to-left names and the implicit direction marks, which reorder nothing around them', async () => {
    for (const name of ['דנה לוי', 'سارة أحمد', 'Ana\u200FCosta', 'Ana\u200ECosta', 'Ana\u061CCosta']) {
      expect(expectData(await newBooking(name), Booking, 201).guestName).toBe(name);
    }
    expect(expectData(await t.request('PATCH', `/v1/experiences/${exp.id}`, { body: { name: 'جولة الميناء' } }), Experience).name).toBe('جولة الميناء');
  });

  it('leaves other free text alone: notes, descriptions and metadata may quote any character', async () => {
    const description = `Arabic quotes: \u2067مرحبا\u2069`;
    expect(expectData(await t.request('PATCH', `/v1/experiences/${exp.id}`, { body: { description } }), Experience).description).toBe(description);
  });
});
