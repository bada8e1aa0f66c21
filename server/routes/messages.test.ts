import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import ICAL from 'ical.js';
import {
  createTestApp, expectData, expectError, expectList, harbourCruise, insertBookingRow, manualClock, tampered, type ManualClock, type TestApp,
} from '../test-helpers/index.js';
import { startSmtpServer, type TestSmtpServer } from '../test-helpers/smtp.js';
import { guestMailJob, type GuestMailJob } from '../jobs/guest-mail.js';
import { smtpTransport } from '../mail/smtp.js';
import { createLogger } from '../logger.js';
import { createApp } from '../app.js';
import { Activity, Availability, Booking, CustomerErased, Experience, ManagedBooking, Message, Organization, Payment } from '../../shared/index.js';

const quiet = createLogger('silent');
const HOUR = 3_600_000;
// The clock starts on Monday 5 January 2026, 12:00 in Lisbon (UTC+0 in winter).
const SATURDAY_10 = '2026-01-10T10:00:00.000Z';
const SATURDAY_15 = '2026-01-10T15:00:00.000Z';
const SUNDAY_10 = '2026-01-11T10:00:00.000Z';

describe('guest e-mails and the manage link', { timeout: 60_000 }, () => {
  let t: TestApp;
  let clock: ManualClock;
  let smtp: TestSmtpServer;
  let job: GuestMailJob;
  let exp: Experience;

  let logLines: string[] = [];
  const mailJob = (transport = smtpTransport({ url: smtp.url, from: 'Test Tours <book@test-tours.example>', greetingTimeoutMs: 500 })) =>
    guestMailJob({ store: t.store, config: t.config, logger: createLogger('info', (line) => void logLines.push(line)), transport, now: clock.now, random: () => 0.5 });

  beforeEach(async () => {
    clock = manualClock();
    logLines = [];
    smtp = await startSmtpServer();
    t = await createTestApp({ now: clock.now, env: { PUBLIC_URL: 'https://book.test-tours.example', REMINDER_HOURS: '24' } });
    exp = await harbourCruise(t);
    job = mailJob();
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
  const messagesOf = async (id: string) => expectList(await t.request('GET', `/v1/bookings/${id}/messages`), Message).data;
  const manageLink = (index: number) => {
    const text = smtp.received[index]?.mail.text ?? '';
    const match = /https:\/\/book\.test-tours\.example\/manage#([A-Za-z0-9_-]{43})/.exec(text);
    if (!match?.[1]) throw new Error(`No manage link in e-mail ${index}`);
    return match[1];
  };
  const asGuest = (token: string, method: string, path: string, body?: unknown) =>
    t.request(method, `/public/v1/manage${path}`, { key: null, headers: { 'x-manage-token': token }, body });

  describe('the outbox', () => {
    it('queues a confirmation with the booking and sends it with the link and booking.ics', async () => {
      const booking = await book();
      const [queued] = await messagesOf(booking.id);
      expect(queued).toMatchObject({ kind: 'BOOKING_CONFIRMED', to: 'eve@example.com', status: 'PENDING', attempts: 0, bookingId: booking.id });
      await job.runOnce();
      const [sent] = await messagesOf(booking.id);
      expect(sent).toMatchObject({ id: queued!.id, status: 'SENT', attempts: 1, lastError: null });
      expect(sent!.sentAt).not.toBeNull();

      const { mail, to } = smtp.received[0]!;
      expect(to).toEqual(['eve@example.com']);
      expect(mail.messageId).toBe(`<${queued!.id}@book.test-tours.example>`);
      expect(mail.subject).toContain('Harbour cruise');
      expect(mail.html).toContain('/manage#');
      const ics = mail.attachments.find((a) => a.filename === 'booking.ics');
      const vevent = new ICAL.Component(ICAL.parse(ics!.content.toString('utf8'))).getFirstSubcomponent('vevent');
      expect(vevent?.getFirstPropertyValue('uid')).toBe(`${booking.id}@book.test-tours.example`);
      // The link opens the booking.
      const managed = expectData(await asGuest(manageLink(0), 'GET', ''), ManagedBooking);
      expect(managed).toMatchObject({ booking: { bookingNumber: booking.bookingNumber, status: 'CONFIRMED' }, canCancel: true, canReschedule: true, reason: null, locale: 'en', timezone: 'Europe/Lisbon' });
    });

    it('writes in Portuguese for a Portuguese booking', async () => {
      await book({ locale: 'pt' });
      await job.runOnce();
      expect(smtp.received[0]!.mail.subject).toMatch(/Reserva confirmada/);
    });

    it('lists a booking’s extras and answers, escaped in HTML, in English and in Portuguese', async () => {
      const form = (guestEmail: string, locale: 'en' | 'pt') =>
        insertBookingRow(t.store, {
          orgId: t.orgId,
          experienceId: exp.id,
          slotStart: Date.parse(SATURDAY_10),
          slotEnd: Date.parse(SATURDAY_10) + 2 * HOUR,
          status: 'PENDING',
          checkoutUrl: 'https://checkout.example/s/form',
          guestName: 'Eve Adams',
          guestEmail,
          locale,
          participants: 2,
          unitPrice: 4500,
          totalCents: 2 * 4500 + 2 * 1200 + 2500,
          extras: JSON.stringify([
            { extraId: 'ex_lunch', name: 'Lunch', per: 'PERSON', quantity: 2, unitPrice: 1200 },
            { extraId: 'ex_photos', name: 'Photos', per: 'BOOKING', quantity: 1, unitPrice: 2500 },
          ]),
          answers: JSON.stringify([
            { questionId: 'q_diet', label: 'Dietary needs', type: 'TEXT', value: '<script>alert(1)</script>' },
            { questionId: 'q_waiver', label: 'Waiver', type: 'CHECKBOX', value: true },
            { questionId: 'q_towel', label: 'Towel', type: 'CHECKBOX', value: false },
            { questionId: 'q_count', label: 'Children', type: 'NUMBER', value: 2 },
          ]),
        });
      for (const held of [await form('eve@example.com', 'en'), await form('eva@example.com', 'pt')]) {
        expectData(await t.request('POST', `/v1/bookings/${held.id}/payments`, { body: { amount: '139.00', status: 'SUCCEEDED' } }), Payment, 201);
      }
      await job.runOnce();
      expect(smtp.received).toHaveLength(2);
      const en = smtp.received.find((r) => r.to[0] === 'eve@example.com')!.mail;
      expect(en.text).toContain('Participants: 2 participants\nExtras: 2 × Lunch (€24.00), 1 × Photos (€25.00)\nTotal: €139.00\n');
      expect(en.text).toContain('Your answers:\nDietary needs: <script>alert(1)</script>\nWaiver: Yes\nTowel: No\nChildren: 2\n');
      expect(en.html).toContain('2 × Lunch (€24.00), 1 × Photos (€25.00)');
      expect(en.html).toContain('>Your answers</h2>');
      expect(en.html).toContain('&#60;script&#62;alert(1)&#60;/script&#62;');
      expect(en.html).not.toContain('<script>');
      const ics = en.attachments.find((a) => a.filename === 'booking.ics')!.content.toString('utf8');
      expect(ics).not.toContain('script');
      const pt = smtp.received.find((r) => r.to[0] === 'eva@example.com')!.mail;
      expect(pt.subject).toMatch(/^Reserva confirmada/);
      expect(pt.text).toContain('Extras: 2 × Lunch (24,00\u00a0€), 1 × Photos (25,00\u00a0€)\nTotal: 139,00\u00a0€\n');
      expect(pt.text).toContain('As suas respostas:\nDietary needs: <script>alert(1)</script>\nWaiver: Sim\nTowel: Não\nChildren: 2\n');
      expect(pt.html).toContain('>Towel</th><td style="padding:4px 0">Não</td>');
      expect(pt.html).not.toContain('<script>');
    });

    it('records SKIPPED when no mail server is configured, and sends nothing', async () => {
      await job.stop();
      const queuedBefore = await book({ customerEmail: 'before@example.com' });
      // The same database served again by a process without SMTP_URL: its app and its mail job.
      const { app: withoutMail } = createApp({ store: t.store, config: t.config, logger: quiet, now: clock.now, guestMail: false });
      job = guestMailJob({ store: t.store, config: t.config, logger: quiet, transport: null, now: clock.now });
      await job.start();
      // What a run with a mail server left queued is recorded SKIPPED at start; new ones are queued so.
      expect(await messagesOf(queuedBefore.id)).toMatchObject([{ status: 'SKIPPED', attempts: 0, lastError: expect.stringMatching(/SMTP_URL/) }]);
      const res = await withoutMail.request('/v1/bookings', {
        method: 'POST',
        headers: { authorization: `Bearer ${t.secretKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ experienceId: exp.id, startTime: SATURDAY_10, participants: 2, customerName: 'Eve Adams', customerEmail: 'eve@example.com' }),
      });
      const booking = expectData({ status: res.status, body: await res.json() }, Booking, 201);
      expect(await messagesOf(booking.id)).toMatchObject([{ status: 'SKIPPED', attempts: 0, lastError: expect.stringMatching(/SMTP_URL/), nextAttemptAt: null }]);
      await job.runOnce();
      expect(smtp.received).toHaveLength(0);
    });

    it('queues a change notice for a new time or party, a cancellation without a link, and nothing for a check-in or a note', async () => {
      const booking = await book();
      expectData(await t.request('PATCH', `/v1/bookings/${booking.id}`, { body: { metadata: { note: 'window seat' } } }), Booking);
      expectData(await t.request('PATCH', `/v1/bookings/${booking.id}`, { body: { startTime: SATURDAY_15 } }), Booking);
      expectData(await t.request('PATCH', `/v1/bookings/${booking.id}`, { body: { participants: 3 } }), Booking);
      expectData(await t.request('PATCH', `/v1/bookings/${booking.id}/cancel`, { body: { reason: 'Weather' } }), Booking);
      expect((await messagesOf(booking.id)).map((m) => m.kind)).toEqual(['BOOKING_CONFIRMED', 'BOOKING_CHANGED', 'BOOKING_CHANGED', 'BOOKING_CANCELLED']);
      await job.runOnce();
      expect(smtp.received).toHaveLength(4);
      const cancellation = smtp.received.find((r) => /cancel/i.test(r.mail.subject ?? ''));
      expect(cancellation?.mail.text).not.toContain('/manage#');
      expect(cancellation?.mail.attachments).toHaveLength(0);
    });

    it('sends a change notice when a booking’s extras change, none for its answers alone', async () => {
      const form = expectData(
        await t.request('PATCH', `/v1/experiences/${exp.id}`, {
          body: { questions: [{ label: 'Dietary needs', type: 'TEXT' }], extras: [{ name: 'Lunch', price: 1200, per: 'PERSON' }] },
        }),
        Experience,
      );
      const [diet] = form.questions;
      const [lunch] = form.extras;
      const booking = await book({ answers: [{ questionId: diet!.id, value: 'No nuts' }] });
      expectData(await t.request('PATCH', `/v1/bookings/${booking.id}`, { body: { answers: [{ questionId: diet!.id, value: 'Vegan' }] } }), Booking);
      expect((await messagesOf(booking.id)).map((m) => m.kind)).toEqual(['BOOKING_CONFIRMED']);
      const changed = expectData(await t.request('PATCH', `/v1/bookings/${booking.id}`, { body: { extras: [{ extraId: lunch!.id, quantity: 2 }] } }), Booking);
      expect(changed.total).toBe('114.00');
      // The same list again is no change.
      expectData(await t.request('PATCH', `/v1/bookings/${booking.id}`, { body: { extras: [{ extraId: lunch!.id, quantity: 2 }] } }), Booking);
      expect((await messagesOf(booking.id)).map((m) => m.kind)).toEqual(['BOOKING_CONFIRMED', 'BOOKING_CHANGED']);
      await job.runOnce();
      const notice = smtp.received.find((r) => /changed/i.test(r.mail.subject ?? ''))!.mail;
      expect(notice.text).toContain('Extras: 2 × Lunch (€24.00)\nTotal: €114.00\n');
      expect(notice.text).toContain('Your answers:\nDietary needs: Vegan\n');
    });

    it('confirms a held booking once it is paid; a hold cancelled after its payment page opened is told, one that never opened is not', async () => {
      const held = await insertBookingRow(t.store, { orgId: t.orgId, experienceId: exp.id, status: 'PENDING', checkoutUrl: 'https://checkout.example/s/1', guestEmail: 'held@example.com' });
      expect(await messagesOf(held.id)).toEqual([]);
      expectData(await t.request('POST', `/v1/bookings/${held.id}/payments`, { body: { amount: '10.00', status: 'SUCCEEDED' } }), Payment, 201);
      expect((await messagesOf(held.id)).map((m) => m.kind)).toEqual(['BOOKING_CONFIRMED']);

      const lapsed = await insertBookingRow(t.store, { orgId: t.orgId, experienceId: exp.id, status: 'PENDING', checkoutUrl: 'https://checkout.example/s/2', guestEmail: 'lapsed@example.com' });
      expectData(await t.request('PATCH', `/v1/bookings/${lapsed.id}/cancel`, { body: {} }), Booking);
      expect((await messagesOf(lapsed.id)).map((m) => m.kind)).toEqual(['BOOKING_CANCELLED']);

      const unopened = await insertBookingRow(t.store, { orgId: t.orgId, experienceId: exp.id, status: 'PENDING', guestEmail: 'unopened@example.com' });
      expectData(await t.request('PATCH', `/v1/bookings/${unopened.id}/cancel`, { body: {} }), Booking);
      expect(await messagesOf(unopened.id)).toEqual([]);
    });

    it('retries a 451 on the retry schedule and ends FAILED on a 550', async () => {
      let answer = 451;
      await job.stop();
      await smtp.close();
      smtp = await startSmtpServer({
        onRcptTo(address, _session, callback) {
          callback(Object.assign(new Error(answer === 451 ? 'Try again later' : `No such user <${address.address}>`), { responseCode: answer }));
        },
      });
      job = mailJob();
      const booking = await book();
      await job.runOnce();
      const [first] = await messagesOf(booking.id);
      expect(first).toMatchObject({ status: 'PENDING', attempts: 1, lastError: expect.stringContaining('451') });
      // The schedule's first step is 5 s (±10%; random 0.5 is no jitter).
      expect(Date.parse(first!.nextAttemptAt!)).toBe(clock.now() + 5_000);
      await job.runOnce();
      expect((await messagesOf(booking.id))[0]!.attempts).toBe(1);
      clock.advance(5_000);
      answer = 550;
      await job.runOnce();
      expect((await messagesOf(booking.id))[0]).toMatchObject({ status: 'FAILED', attempts: 2, nextAttemptAt: null, lastError: expect.stringContaining('550') });
      // The operator sees the server's words on the message; the log keeps them without the guest's address.
      expect((await messagesOf(booking.id))[0]!.lastError).toContain('eve@example.com');
      const failed = logLines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.msg === 'guest e-mail not sent');
      expect(failed.map((l) => l.outcome)).toEqual(['retry', 'FAILED']);
      expect(logLines.join('\n')).not.toContain('eve@example.com');
    });

    it('keeps a message PENDING while the mail server is down, and sends it once it is back', async () => {
      await job.stop();
      const down = `smtp://127.0.0.1:${smtp.port}`;
      await smtp.close();
      job = mailJob(smtpTransport({ url: down, from: 'book@test-tours.example', connectionTimeoutMs: 500 }));
      const booking = await book();
      await job.runOnce();
      expect((await messagesOf(booking.id))[0]).toMatchObject({ status: 'PENDING', attempts: 1, lastError: expect.stringMatching(/ECONNREFUSED|ESOCKET|ECONNECTION/) });
      // A mail server is back (here on another port: the operator fixed SMTP_URL and restarted).
      await job.stop();
      smtp = await startSmtpServer();
      job = mailJob();
      clock.advance(6_000);
      await job.runOnce();
      expect((await messagesOf(booking.id))[0]).toMatchObject({ status: 'SENT', attempts: 2 });
      expect(smtp.received).toHaveLength(1);
    });

    it('resends as a new message, refuses a cancelled booking’s confirmation, and keeps other organizations out', async () => {
      const booking = await book();
      const [queued] = await messagesOf(booking.id);
      // Still being sent: it goes out by itself, a resend would only add a copy.
      expectError(await t.request('POST', `/v1/bookings/${booking.id}/messages/${queued!.id}/resend`), 409, 'CONFLICT');
      await job.runOnce();
      const [original] = await messagesOf(booking.id);
      const again = expectData(await t.request('POST', `/v1/bookings/${booking.id}/messages/${original!.id}/resend`), Message, 202);
      expect(again).toMatchObject({ kind: 'BOOKING_CONFIRMED', status: 'PENDING', to: 'eve@example.com' });
      expect(again.id).not.toBe(original!.id);
      await job.runOnce();
      expect(smtp.received).toHaveLength(2);
      expect(smtp.received[1]!.mail.messageId).toBe(`<${again.id}@book.test-tours.example>`);

      const other = await t.addOrganization();
      expectError(await t.request('GET', `/v1/bookings/${booking.id}/messages`, { key: other.secretKey }), 404, 'NOT_FOUND');
      expectError(await t.request('POST', `/v1/bookings/${booking.id}/messages/${original!.id}/resend`, { key: other.secretKey }), 404, 'NOT_FOUND');
      expectError(await t.request('POST', `/v1/bookings/${booking.id}/messages/msg_unknown000000000000/resend`), 404, 'NOT_FOUND');
      const reader = (await t.createKey({ scopes: ['bookings:read'] })).key;
      expectError(await t.request('POST', `/v1/bookings/${booking.id}/messages/${original!.id}/resend`, { key: reader }), 403, 'FORBIDDEN');

      expectData(await t.request('PATCH', `/v1/bookings/${booking.id}/cancel`, { body: {} }), Booking);
      expectError(await t.request('POST', `/v1/bookings/${booking.id}/messages/${original!.id}/resend`), 409, 'CONFLICT');
    });
  });

  describe('reminders', () => {
    it('sends one reminder REMINDER_HOURS before the start, none for a booking made inside that window', async () => {
      const early = await book();
      await job.runOnce();
      clock.set(Date.parse(SATURDAY_10) - 24 * HOUR - 60_000);
      await job.runOnce();
      expect((await messagesOf(early.id)).map((m) => m.kind)).toEqual(['BOOKING_CONFIRMED']);
      clock.set(Date.parse(SATURDAY_10) - 23 * HOUR);
      const late = await book({ startTime: SATURDAY_15, customerEmail: 'late@example.com' });
      await job.runOnce();
      // Reminders are looked for once a minute.
      clock.advance(60_000);
      await job.runOnce();
      clock.advance(60_000);
      await job.runOnce();
      expect((await messagesOf(early.id)).map((m) => m.kind)).toEqual(['BOOKING_CONFIRMED', 'BOOKING_REMINDER']);
      expect((await messagesOf(late.id)).map((m) => m.kind)).toEqual(['BOOKING_CONFIRMED']);
      expect(smtp.received.filter((r) => /reminder|lembrete/i.test(r.mail.subject ?? ''))).toHaveLength(1);
    });
  });

  describe('the manage API', () => {
    const tokenFor = async (fields: Record<string, unknown> = {}) => {
      const booking = await book(fields);
      await job.runOnce();
      return { booking, token: manageLink(smtp.received.length - 1) };
    };

    it('answers 404 to a missing, malformed, unknown or tampered token', async () => {
      const { token } = await tokenFor();
      for (const bad of [undefined, 'short', 'A'.repeat(43), tampered(token), `${token}x`]) {
        const res = await t.request('GET', '/public/v1/manage', { key: null, headers: bad === undefined ? {} : { 'x-manage-token': bad } });
        expectError(res, 404, 'NOT_FOUND');
      }
    });

    it('lets the guest cancel before the cutoff, with the usual event, message and activity', async () => {
      const { booking, token } = await tokenFor();
      const cancelled = expectData(await asGuest(token, 'POST', '/cancel', { reason: 'Flight moved' }), ManagedBooking);
      expect(cancelled).toMatchObject({ booking: { status: 'CANCELLED' }, canCancel: false, canReschedule: false, reason: 'NOT_ACTIVE' });
      const record = expectData(await t.request('GET', `/v1/bookings/${booking.id}`), Booking);
      expect(record).toMatchObject({ status: 'CANCELLED', cancellationReason: 'Flight moved' });
      expect((await messagesOf(booking.id)).map((m) => m.kind)).toEqual(['BOOKING_CONFIRMED', 'BOOKING_CANCELLED']);
      const activity = expectList(await t.request('GET', '/v1/activity'), Activity).data;
      expect(activity.find((a) => a.action === 'booking.cancel')).toMatchObject({ actor: { type: 'guest', name: 'Eve Adams' } });
      const events = (await t.request('GET', '/v1/events')).body as { data: { event: string }[] };
      expect(events.data.map((e) => e.event)).toContain('BOOKING_CANCELED');
      expectError(await asGuest(token, 'POST', '/cancel', {}), 409, 'CHANGE_NOT_ALLOWED');
    });

    it('refuses with 409 CHANGE_NOT_ALLOWED a minute inside the cutoff, or when self-service is off', async () => {
      const { booking, token } = await tokenFor();
      clock.set(Date.parse(SATURDAY_10) - 24 * HOUR + 60_000);
      const seen = expectData(await asGuest(token, 'GET', ''), ManagedBooking);
      expect(seen).toMatchObject({ canCancel: false, canReschedule: false, reason: 'PAST_CUTOFF', cutoffAt: '2026-01-09T10:00:00.000Z' });
      expectError(await asGuest(token, 'POST', '/cancel', {}), 409, 'CHANGE_NOT_ALLOWED');
      expectError(await asGuest(token, 'POST', '/reschedule', { startTime: SUNDAY_10 }), 409, 'CHANGE_NOT_ALLOWED');
      clock.set(Date.parse(SATURDAY_10) - 24 * HOUR - 60_000);
      expect(expectData(await t.request('PATCH', '/v1/organization', { body: { guestSelfService: false } }), Organization).guestSelfService).toBe(false);
      expect(expectData(await asGuest(token, 'GET', ''), ManagedBooking).reason).toBe('SELF_SERVICE_OFF');
      expectError(await asGuest(token, 'POST', '/cancel', {}), 409, 'CHANGE_NOT_ALLOWED');
      expect(expectData(await t.request('GET', `/v1/bookings/${booking.id}`), Booking).status).toBe('CONFIRMED');
    });

    it('moves the booking to another slot with room, refusing a full or made-up one', async () => {
      const { booking, token } = await tokenFor();
      const times = expectData(await asGuest(token, 'GET', '/availability?startDate=2026-01-10&endDate=2026-01-11'), Availability);
      expect(times.slots.map((s) => s.startTime)).toEqual([SATURDAY_15, SUNDAY_10, '2026-01-11T15:00:00.000Z']);
      // Sunday 10:00 fills up.
      await book({ startTime: SUNDAY_10, participants: 9, customerEmail: 'group@example.com' });
      const after = expectData(await asGuest(token, 'GET', '/availability?startDate=2026-01-11&endDate=2026-01-11'), Availability);
      expect(after.slots.find((s) => s.startTime === SUNDAY_10)).toMatchObject({ available: false, unavailableReason: 'FULL' });
      expectError(await asGuest(token, 'POST', '/reschedule', { startTime: SUNDAY_10 }), 409, 'CAPACITY_EXCEEDED');
      expectError(await asGuest(token, 'POST', '/reschedule', { startTime: '2026-01-11T11:00:00.000Z' }), 409, 'SLOT_UNAVAILABLE');
      expectError(await asGuest(token, 'POST', '/reschedule', { startTime: 'tomorrow' }), 400, 'VALIDATION_ERROR');

      const moved = expectData(await asGuest(token, 'POST', '/reschedule', { startTime: SATURDAY_15 }), ManagedBooking);
      expect(moved.booking.timeSlot.startTime).toBe(SATURDAY_15);
      expect((await messagesOf(booking.id)).map((m) => m.kind)).toEqual(['BOOKING_CONFIRMED', 'BOOKING_CHANGED']);
      const activity = expectList(await t.request('GET', '/v1/activity'), Activity).data;
      expect(activity.find((a) => a.action === 'booking.update')).toMatchObject({ actor: { type: 'guest' } });
      // The old token still works; so does the new one the change notice carries.
      await job.runOnce();
      expect(expectData(await asGuest(token, 'GET', ''), ManagedBooking).booking.timeSlot.startTime).toBe(SATURDAY_15);
      // The group's confirmation goes out beside the change notice: either may reach the server last.
      const notice = smtp.received.findLastIndex((r) => r.to.includes('eve@example.com'));
      expect(expectData(await asGuest(manageLink(notice), 'GET', ''), ManagedBooking).booking.bookingNumber).toBe(booking.bookingNumber);
    });

    it('refuses a move into the cutoff, and forgets the link when the customer is erased', async () => {
      const { booking, token } = await tokenFor({ startTime: SUNDAY_10 });
      clock.set(Date.parse(SATURDAY_10) - 23 * HOUR);
      expectError(await asGuest(token, 'POST', '/reschedule', { startTime: SATURDAY_10 }), 409, 'CHANGE_NOT_ALLOWED');
      expectData(await t.request('DELETE', `/v1/customers/${booking.customerId}`), CustomerErased);
      expectError(await asGuest(token, 'GET', ''), 404, 'NOT_FOUND');
      expect((await messagesOf(booking.id)).every((m) => m.to !== 'eve@example.com')).toBe(true);
    });

    it('is limited per address like the rest of the public API', async () => {
      await t.close();
      t = await createTestApp({ now: clock.now, env: { PUBLIC_REQUESTS_PER_MINUTE: '2' } });
      const tries = [];
      for (let i = 0; i < 3; i++) tries.push(await t.request('GET', '/public/v1/manage', { key: null, headers: { 'x-manage-token': 'A'.repeat(43) } }));
      expect(tries.map((r) => r.status)).toEqual([404, 404, 429]);
      expect(tries[2]!.headers.get('retry-after')).not.toBeNull();
    });
  });
});
