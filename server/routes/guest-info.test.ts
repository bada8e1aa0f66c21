import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import ICAL from 'ical.js';
import { createTestApp, expectData, expectError, harbourCruise, manualClock, tampered, type ManualClock, type TestApp } from '../test-helpers/index.js';
import { startSmtpServer, type TestSmtpServer } from '../test-helpers/smtp.js';
import { guestMailJob, type GuestMailJob } from '../jobs/guest-mail.js';
import { smtpTransport } from '../mail/smtp.js';
import { createLogger } from '../logger.js';
import { Booking, Experience, ManagedBooking, PublicExperience } from '../../shared/index.js';

const HOUR = 3_600_000;
// The clock starts on Monday 5 January 2026, 12:00 in Lisbon (UTC+0 in winter).
const SATURDAY_10 = '2026-01-10T10:00:00.000Z';

const GUEST_INFO = {
  meetingPoint: 'Kiosk <b>by</b> the marina, Dock 3',
  meetingPointUrl: 'https://maps.example.com/?q=dock+3&z=17',
  guestInstructions: 'Bring a towel & sun cream.\nArrive 15 minutes early.',
};

describe('guest information and the calendar file', { timeout: 60_000 }, () => {
  let t: TestApp;
  let clock: ManualClock;
  let smtp: TestSmtpServer;
  let job: GuestMailJob;
  let exp: Experience;

  beforeEach(async () => {
    clock = manualClock();
    smtp = await startSmtpServer();
    t = await createTestApp({ now: clock.now, env: { PUBLIC_URL: 'https://book.test-tours.example', REMINDER_HOURS: '24' } });
    exp = await harbourCruise(t, GUEST_INFO);
    job = guestMailJob({
      store: t.store,
      config: t.config,
      logger: createLogger('silent'),
      transport: smtpTransport({ url: smtp.url, from: 'Test Tours <book@test-tours.example>', greetingTimeoutMs: 500 }),
      now: clock.now,
      random: () => 0.5,
    });
  });
  afterEach(async () => {
    await job.stop();
    await t.close();
    await smtp.close();
  });

  const book = async (fields: Record<string, unknown> = {}) =>
    expectData(
      await t.request('POST', '/v1/bookings', {
        body: { experienceId: exp.id, startTime: SATURDAY_10, participants: 2, customerName: 'Eve Adams', customerEmail: 'eve@example.com', ...fields },
      }),
      Booking,
      201,
    );
  const lastManageToken = () => {
    const text = smtp.received.at(-1)?.mail.text ?? '';
    const match = /https:\/\/book\.test-tours\.example\/manage#([A-Za-z0-9_-]{43})/.exec(text);
    if (!match?.[1]) throw new Error('No manage link in the last e-mail');
    return match[1];
  };
  const calendar = (query: string, headers: Record<string, string> = {}) =>
    t.request('GET', `/public/v1/manage/calendar.ics${query}`, { key: null, headers });
  const eventOf = (text: string) => new ICAL.Component(ICAL.parse(text)).getFirstSubcomponent('vevent')!;

  describe('the experience', () => {
    it('keeps the three fields on create, shows them on /v1 and /public/v1, and PATCH changes or clears them', async () => {
      expect(exp).toMatchObject(GUEST_INFO);
      const publicExp = expectData(await t.request('GET', `/public/v1/experiences/${exp.id}`), PublicExperience);
      expect(publicExp).toMatchObject(GUEST_INFO);

      const patched = expectData(
        await t.request('PATCH', `/v1/experiences/${exp.id}`, { body: { meetingPoint: '  Main gate  ', meetingPointUrl: null, guestInstructions: '   ' } }),
        Experience,
      );
      expect(patched).toMatchObject({ meetingPoint: 'Main gate', meetingPointUrl: null, guestInstructions: null });
      expect(expectData(await t.request('GET', `/v1/experiences/${exp.id}`), Experience)).toMatchObject({ meetingPoint: 'Main gate', meetingPointUrl: null });

      const plain = await harbourCruise(t, { name: 'Plain' });
      expect(plain).toMatchObject({ meetingPoint: null, meetingPointUrl: null, guestInstructions: null });
    });

    it('refuses an http or overlong link and overlong texts, naming the field', async () => {
      const cases: [Record<string, unknown>, string][] = [
        [{ meetingPointUrl: 'http://maps.example.com/' }, 'meetingPointUrl'],
        [{ meetingPointUrl: 'javascript:alert(1)' }, 'meetingPointUrl'],
        [{ meetingPointUrl: `https://maps.example.com/${'a'.repeat(480)}` }, 'meetingPointUrl'],
        [{ meetingPoint: 'x'.repeat(501) }, 'meetingPoint'],
        [{ guestInstructions: 'x'.repeat(2001) }, 'guestInstructions'],
      ];
      for (const [body, path] of cases) {
        const err = expectError(await t.request('PATCH', `/v1/experiences/${exp.id}`, { body }), 400, 'VALIDATION_ERROR');
        expect(err.details?.map((d) => d.path)).toEqual([path]);
      }
      expect(expectData(await t.request('PATCH', `/v1/experiences/${exp.id}`, { body: { meetingPoint: 'x'.repeat(500), guestInstructions: 'y'.repeat(2000) } }), Experience).meetingPoint).toHaveLength(500);
    });
  });

  describe('e-mails', () => {
    it('puts the meeting point, its link and the instructions in the confirmation, escaped in HTML, and the LOCATION in booking.ics', async () => {
      await book();
      await job.runOnce();
      const { mail } = smtp.received[0]!;
      expect(mail.text).toContain('Meeting point:\nKiosk <b>by</b> the marina, Dock 3\nOpen the map: https://maps.example.com/?q=dock+3&z=17');
      expect(mail.text).toContain('Before you come:\nBring a towel & sun cream.\nArrive 15 minutes early.');
      expect(mail.html).toContain('Kiosk &#60;b&#62;by&#60;/b&#62; the marina, Dock 3');
      expect(mail.html).not.toContain('<b>by</b>');
      expect(mail.html).toContain('<a href="https://maps.example.com/?q=dock+3&#38;z=17">Open the map</a>');
      expect(mail.html).toContain('Bring a towel &#38; sun cream.<br>Arrive 15 minutes early.');
      const ics = mail.attachments.find((a) => a.filename === 'booking.ics')!.content.toString('utf8');
      const event = eventOf(ics);
      expect(event.getFirstPropertyValue('location')).toBe(GUEST_INFO.meetingPoint);
      expect(String(event.getFirstPropertyValue('description'))).toContain('Arrive 15 minutes early.');
    });

    it('speaks Portuguese to a Portuguese guest, and the reminder carries the same information', async () => {
      const booking = await book({ locale: 'pt' });
      await job.runOnce();
      clock.set(Date.parse(SATURDAY_10) - 24 * HOUR + 60_000);
      await job.runOnce();
      clock.advance(60_000);
      await job.runOnce();
      expect(smtp.received).toHaveLength(2);
      for (const { mail } of smtp.received) {
        expect(mail.text).toContain('Ponto de encontro:\nKiosk <b>by</b> the marina, Dock 3\nAbrir o mapa: https://maps.example.com/?q=dock+3&z=17');
        expect(mail.text).toContain('Antes de vir:\nBring a towel & sun cream.');
        expect(mail.html).toContain('>Ponto de encontro</h2>');
      }
      expect(smtp.received[1]!.mail.subject).toMatch(/^Lembrete/);
      expect(booking.bookingNumber).toMatch(/^BK-/);
    });

    it('leaves the section out of the cancellation, and out of every e-mail of an experience without it', async () => {
      const booking = await book();
      expectData(await t.request('PATCH', `/v1/bookings/${booking.id}/cancel`, { body: {} }), Booking);
      await job.runOnce();
      const cancellation = smtp.received.find((r) => /cancelled/i.test(r.mail.subject ?? ''))!;
      expect(cancellation.mail.text).not.toContain('Meeting point');

      const plain = await harbourCruise(t, { name: 'Plain' });
      await book({ experienceId: plain.id, customerEmail: 'plain@example.com' });
      await job.runOnce();
      const confirmation = smtp.received.find((r) => r.to.includes('plain@example.com'))!;
      expect(confirmation.mail.text).not.toContain('Meeting point');
      expect(confirmation.mail.html).not.toContain('<h2');
    });
  });

  describe('the manage API', () => {
    it('answers guestInfo with the experience’s three fields', async () => {
      await book();
      await job.runOnce();
      const managed = expectData(await t.request('GET', '/public/v1/manage', { key: null, headers: { 'x-manage-token': lastManageToken() } }), ManagedBooking);
      expect(managed.guestInfo).toEqual(GUEST_INFO);
    });

    it('serves calendar.ics by header or ?token=, one VEVENT with the feed’s UID and SEQUENCE', async () => {
      const booking = await book({ participants: 3 });
      await job.runOnce();
      const token = lastManageToken();
      const byHeader = await calendar('', { 'x-manage-token': token });
      const byQuery = await calendar(`?token=${token}`);
      for (const res of [byHeader, byQuery]) {
        expect(res.status).toBe(200);
        expect(res.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
        expect(res.headers.get('content-disposition')).toBe(`attachment; filename="${booking.bookingNumber}.ics"`);
        expect(res.headers.get('cache-control')).toBe('no-store');
      }
      expect(byQuery.text).toBe(byHeader.text);
      const text = byHeader.text;
      expect(text.match(/BEGIN:VEVENT/g)).toHaveLength(1);
      expect(text).toMatch(/\r\nDTSTART:20260110T100000Z\r\n/);
      expect(text).toMatch(/\r\nDTEND:20260110T120000Z\r\n/);
      const event = eventOf(text);
      expect(event.getFirstPropertyValue('uid')).toBe(`${booking.id}@book.test-tours.example`);
      expect(event.getFirstPropertyValue('sequence')).toBe(0);
      expect(event.getFirstPropertyValue('summary')).toBe('Harbour cruise');
      expect(event.getFirstPropertyValue('location')).toBe(GUEST_INFO.meetingPoint);
      expect(event.getFirstPropertyValue('description')).toBe(
        `Booking number: ${booking.bookingNumber}\nParticipants: 3 participants\nOpen the map: ${GUEST_INFO.meetingPointUrl}\n\n` +
          `Before you come:\n${GUEST_INFO.guestInstructions}`,
      );
      expect(event.getFirstPropertyValue('status')).toBe('CONFIRMED');

      // The feed's event for the same booking has the same UID and SEQUENCE.
      const { renderBookingsFeed } = await import('../ical/feed.js');
      const stored = (await t.store.bookings.getBooking(t.orgId, booking.id))!;
      const feedEvent = eventOf(renderBookingsFeed({ calendarName: 'x', host: 'book.test-tours.example', bookings: [stored] }));
      expect(feedEvent.getFirstPropertyValue('uid')).toBe(event.getFirstPropertyValue('uid'));
      expect(feedEvent.getFirstPropertyValue('sequence')).toBe(event.getFirstPropertyValue('sequence'));
    });

    it('has no LOCATION without a meeting point, speaks the guest’s language, and says CANCELLED once cancelled', async () => {
      await t.request('PATCH', `/v1/experiences/${exp.id}`, { body: { meetingPoint: null, meetingPointUrl: null, guestInstructions: null } });
      const booking = await book({ locale: 'pt' });
      await job.runOnce();
      const token = lastManageToken();
      const before = await calendar('', { 'x-manage-token': token });
      expect(before.text).not.toContain('LOCATION');
      expect(eventOf(before.text).getFirstPropertyValue('description')).toBe(`Número da reserva: ${booking.bookingNumber}\nParticipantes: 2 participantes`);

      expectData(await t.request('PATCH', `/v1/bookings/${booking.id}/cancel`, { body: {} }), Booking);
      const after = await calendar(`?token=${token}`);
      expect(after.status).toBe(200);
      const event = eventOf(after.text);
      expect(event.getFirstPropertyValue('status')).toBe('CANCELLED');
      expect(event.getFirstPropertyValue('sequence')).toBeGreaterThan(0);
    });

    it('is 404 without a token or with an unknown one, and never logs the token', async () => {
      await book();
      await job.runOnce();
      const token = lastManageToken();
      expectError(await calendar(''), 404, 'NOT_FOUND');
      expectError(await calendar('?token='), 404, 'NOT_FOUND');
      expectError(await calendar(`?token=${tampered(token)}`), 404, 'NOT_FOUND');
      expectError(await calendar('', { 'x-manage-token': tampered(token) }), 404, 'NOT_FOUND');
      expect((await calendar(`?token=${token}`)).status).toBe(200);
      const logged = t.logs.join('\n');
      expect(logged).toContain('/public/v1/manage/calendar.ics?token=[redacted]');
      expect(logged).not.toContain(token);
      expect(logged).not.toContain(tampered(token));
    });
  });
});
