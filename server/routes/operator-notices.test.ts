import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createTestApp, expectData, expectList, expectValidationError, harbourCruise, manualClock, openStoreOn, testEngine,
  type ManualClock, type TestApp,
} from '../test-helpers/index.js';
import { addressesOf, startSmtpServer, type TestSmtpServer } from '../test-helpers/smtp.js';
import { guestMailJob, type GuestMailJob } from '../jobs/guest-mail.js';
import { smtpTransport } from '../mail/smtp.js';
import { createLogger } from '../logger.js';
import { createApp } from '../app.js';
import type { Store } from '../store/index.js';
import { Booking, Message, Organization, UserWithSetupUrl, type Experience } from '../../shared/index.js';

// Notices of booking events to the organization's own addresses, staff invites, and the From,
// Reply-To and brand every e-mail carries: through the API, the outbox and a real SMTP server.

const quiet = createLogger('silent');
const SATURDAY_10 = '2026-01-10T10:00:00.000Z';
const SATURDAY_15 = '2026-01-10T15:00:00.000Z';
const MAIL_FROM = 'Outing Mailer <book@test-tours.example>';

describe(`notices to the operator, invites and the brand (${testEngine()})`, { timeout: 60_000 }, () => {
  let t: TestApp;
  let clock: ManualClock;
  let smtp: TestSmtpServer;
  let exp: Experience;
  const jobs: GuestMailJob[] = [];
  const stores: Store[] = [];

  const mailJob = (store: Store = t.store) => {
    const job = guestMailJob({
      store, config: t.config, logger: quiet, now: clock.now, random: () => 0.5,
      transport: smtpTransport({ url: smtp.url, from: MAIL_FROM, greetingTimeoutMs: 500 }),
    });
    jobs.push(job);
    return job;
  };

  beforeEach(async () => {
    clock = manualClock();
    smtp = await startSmtpServer();
    t = await createTestApp({ now: clock.now, env: { PUBLIC_URL: 'https://book.test-tours.example', MAIL_FROM } });
    exp = await harbourCruise(t);
  });
  afterEach(async () => {
    await Promise.all(jobs.splice(0).map((j) => j.stop()));
    await Promise.all(stores.splice(0).map((s) => s.close()));
    await t.close();
    await smtp.close();
  });

  const patchOrg = (body: Record<string, unknown>) => t.request('PATCH', '/v1/organization', { body });
  const book = async (fields: Record<string, unknown> = {}) =>
    expectData(
      await t.request('POST', '/v1/bookings', {
        body: { experienceId: exp.id, startTime: SATURDAY_10, participants: 2, customerName: 'Eve Adams', customerEmail: 'eve@example.com', customerPhone: '+351 912 000 111', ...fields },
      }),
      Booking,
      201,
    );
  const messagesOf = async (id: string) => expectList(await t.request('GET', `/v1/bookings/${id}/messages?limit=100`), Message).data;
  const notices = async (id: string) => (await messagesOf(id)).filter((m) => m.kind === 'OPERATOR_NOTICE');

  describe('the settings', () => {
    it('start empty, with the defaults, and change with PATCH /v1/organization', async () => {
      const org = expectData(await t.request('GET', '/v1/organization'), Organization);
      expect(org).toMatchObject({ notificationEmails: [], notifyOn: ['BOOKING_CREATED', 'BOOKING_CANCELED'], brandColor: null, logoUrl: null });
      const changed = expectData(
        await patchOrg({ notificationEmails: ['ops@test-tours.example', 'Boss@Test-Tours.example'], notifyOn: ['BOOKING_UPDATED'], brandColor: '#0B7285', logoUrl: 'https://cdn.test-tours.example/logo.png' }),
        Organization,
      );
      expect(changed).toMatchObject({
        notificationEmails: ['ops@test-tours.example', 'Boss@Test-Tours.example'],
        notifyOn: ['BOOKING_UPDATED'],
        brandColor: '#0b7285',
        logoUrl: 'https://cdn.test-tours.example/logo.png',
      });
      expect(expectData(await t.request('GET', '/v1/organization'), Organization)).toMatchObject({ brandColor: '#0b7285', notifyOn: ['BOOKING_UPDATED'] });
      // null clears the brand; [] sends no notices.
      expect(expectData(await patchOrg({ brandColor: null, logoUrl: null, notificationEmails: [], notifyOn: [] }), Organization)).toMatchObject({
        brandColor: null, logoUrl: null, notificationEmails: [], notifyOn: [],
      });
    });

    it('refuses bad values, naming each field', async () => {
      const six = Array.from({ length: 6 }, (_, i) => `ops${i}@test-tours.example`);
      expect(expectValidationError(await patchOrg({ notificationEmails: six }), 'notificationEmails').length).toBeGreaterThan(0);
      expectValidationError(await patchOrg({ notificationEmails: ['ops@x.example', 'OPS@x.example'] }), 'notificationEmails[1]');
      expectValidationError(await patchOrg({ notificationEmails: ['not an address'] }), 'notificationEmails[0]');
      expectValidationError(await patchOrg({ notifyOn: ['BOOKING_CREATED', 'BOOKING_CREATED'] }), 'notifyOn[1]');
      expectValidationError(await patchOrg({ notifyOn: ['PAYMENT_SUCCEEDED'] }), 'notifyOn[0]');
      expectValidationError(await patchOrg({ brandColor: '#0b72' }), 'brandColor');
      expectValidationError(await patchOrg({ brandColor: 'teal' }), 'brandColor');
      expectValidationError(await patchOrg({ logoUrl: 'http://cdn.test-tours.example/logo.png' }), 'logoUrl');
      expectValidationError(await patchOrg({ logoUrl: `https://cdn.test-tours.example/${'a'.repeat(500)}.png` }), 'logoUrl');
      expect(expectData(await t.request('GET', '/v1/organization'), Organization)).toMatchObject({ notificationEmails: [], brandColor: null });
    });
  });

  describe('notices', () => {
    it('records one notice per address with the event, none for a check-in, and by default none for other changes', async () => {
      expectData(await patchOrg({ notificationEmails: ['ops@test-tours.example', 'boss@test-tours.example'] }), Organization);
      const booking = await book();
      expect((await notices(booking.id)).map((m) => m.to).sort()).toEqual(['boss@test-tours.example', 'ops@test-tours.example']);
      expect((await notices(booking.id)).every((m) => m.status === 'PENDING' && m.bookingId === booking.id)).toBe(true);
      expectData(await t.request('PATCH', `/v1/bookings/${booking.id}`, { body: { startTime: SATURDAY_15 } }), Booking);
      expect(await notices(booking.id)).toHaveLength(2); // BOOKING_UPDATED is not asked for by default
      expectData(await t.request('PATCH', `/v1/bookings/${booking.id}/cancel`, { body: { reason: 'Weather' } }), Booking);
      expect(await notices(booking.id)).toHaveLength(4);

      expectData(await patchOrg({ notifyOn: ['BOOKING_UPDATED'], notificationEmails: ['ops@test-tours.example'] }), Organization);
      const other = await book({ customerEmail: 'ana@example.com' });
      expect(await notices(other.id)).toHaveLength(0);
      expectData(await t.request('PATCH', `/v1/bookings/${other.id}`, { body: { checkedIn: true } }), Booking);
      expect(await notices(other.id)).toHaveLength(0); // a check-in sends none
      expectData(await t.request('PATCH', `/v1/bookings/${other.id}`, { body: { participants: 3 } }), Booking);
      expect(await notices(other.id)).toMatchObject([{ to: 'ops@test-tours.example', kind: 'OPERATOR_NOTICE' }]);
    });

    it('sends the notice in English with the booking, the dashboard link, From the organization and Reply-To the guest', async () => {
      expectData(await patchOrg({ name: 'Lisboa Passeios Ação', notificationEmails: ['ops@test-tours.example'], brandColor: '#0B7285', logoUrl: 'https://cdn.test-tours.example/logo.png' }), Organization);
      const booking = await book({ locale: 'pt' });
      await mailJob().runOnce();
      expect(smtp.received).toHaveLength(2);
      const notice = smtp.received.find((r) => r.to[0] === 'ops@test-tours.example')!;
      const guest = smtp.received.find((r) => r.to[0] === 'eve@example.com')!;
      const { mail } = notice;
      expect(mail.subject).toBe(`New booking: ${booking.bookingNumber}, Harbour cruise, 10 Jan, 10:00`);
      for (const part of [booking.bookingNumber, 'Harbour cruise', 'Saturday, 10 January 2026, 10:00', 'Eve Adams', 'eve@example.com', '+351 912 000 111', 'Participants: 2', `Total: ${booking.total} EUR`, 'Source: API',
        `https://book.test-tours.example/dashboard/bookings/${booking.id}`]) {
        expect(mail.text).toContain(part);
      }
      // From: MAIL_FROM's address under the organization's name, encoded as RFC 2047 needs.
      expect(mail.from?.value).toEqual([{ name: 'Lisboa Passeios Ação', address: 'book@test-tours.example' }]);
      expect(mail.headerLines.find((h) => h.key === 'from')?.line).toMatch(/=\?UTF-8\?/i);
      expect(addressesOf(mail.replyTo)).toEqual(['eve@example.com']);
      expect(mail.html).toContain('<img src="https://cdn.test-tours.example/logo.png" alt="Lisboa Passeios Ação"');
      expect(mail.html).toContain('#0b7285');
      // The guest's own e-mail: the same sender, Reply-To the organization, the same brand.
      expect(guest.mail.from?.value).toEqual([{ name: 'Lisboa Passeios Ação', address: 'book@test-tours.example' }]);
      expect(addressesOf(guest.mail.replyTo)).toEqual(['owner@test-tours.example']);
      expect(guest.mail.html).toContain('alt="Lisboa Passeios Ação"');
      expect(guest.mail.html).toContain('#0b7285');
      expect(await notices(booking.id)).toMatchObject([{ status: 'SENT', attempts: 1, to: 'ops@test-tours.example' }]);
    });

    it('says a plain name as it is, and sends no logo the organization has not given', async () => {
      expectData(await patchOrg({ notificationEmails: ['ops@test-tours.example'] }), Organization);
      await book();
      await mailJob().runOnce();
      for (const { mail } of smtp.received) {
        expect(mail.from?.value).toEqual([{ name: 'Test Tours', address: 'book@test-tours.example' }]);
        expect(mail.html).not.toContain('<img');
      }
    });

    it('resends a notice to the address it went to', async () => {
      expectData(await patchOrg({ notificationEmails: ['ops@test-tours.example'] }), Organization);
      const booking = await book();
      await mailJob().runOnce();
      const [notice] = await notices(booking.id);
      const again = expectData(await t.request('POST', `/v1/bookings/${booking.id}/messages/${notice!.id}/resend`), Message, 202);
      expect(again).toMatchObject({ kind: 'OPERATOR_NOTICE', to: 'ops@test-tours.example', status: 'PENDING' });
    });

    it('records notices SKIPPED in a process without a mail server', async () => {
      expectData(await patchOrg({ notificationEmails: ['ops@test-tours.example'] }), Organization);
      const { app: withoutMail } = createApp({ store: t.store, config: t.config, logger: quiet, now: clock.now, guestMail: false });
      const res = await withoutMail.request('/v1/bookings', {
        method: 'POST',
        headers: { authorization: `Bearer ${t.secretKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ experienceId: exp.id, startTime: SATURDAY_10, participants: 1, customerName: 'Eve', customerEmail: 'eve@example.com' }),
      });
      const booking = expectData({ status: res.status, body: await res.json() }, Booking, 201);
      expect(await notices(booking.id)).toMatchObject([{ status: 'SKIPPED', lastError: expect.stringMatching(/SMTP_URL/) }]);
    });

    it('sends each notice once though two processes work the outbox, and one a crashed process took after its lease runs out', async () => {
      expectData(await patchOrg({ notificationEmails: ['a@test-tours.example', 'b@test-tours.example', 'c@test-tours.example'] }), Organization);
      const first = await book({ customerEmail: 'first@example.com' });
      const second = await book({ customerEmail: 'second@example.com' });
      const other = await openStoreOn({ path: t.dbPath, url: t.config.databaseUrl });
      stores.push(other);
      // Two processes' jobs, over their own connections, pass over the outbox at the same moment
      // (each sends a few at a time: as many passes as it takes).
      const here = mailJob();
      const there = mailJob(other);
      for (let pass = 0; pass < 4; pass++) await Promise.all([here.runOnce(), there.runOnce()]);
      expect(smtp.received).toHaveLength(8);
      const ids = smtp.received.map((r) => r.mail.messageId);
      expect(new Set(ids).size).toBe(8);
      for (const id of [first.id, second.id]) expect((await messagesOf(id)).every((m) => m.status === 'SENT' && m.attempts === 1)).toBe(true);

      // A process leases a notice and dies before sending it: nobody else takes it while the lease
      // holds, and once it has run out the notice goes, once.
      const third = await book({ customerEmail: 'third@example.com' });
      const [lost] = await notices(third.id);
      expect(await other.messages.leaseMessage(lost!.id, clock.now(), clock.now() + 60_000)).toBe(true);
      for (let pass = 0; pass < 2; pass++) await here.runOnce();
      expect(smtp.received).toHaveLength(11);
      expect(smtp.received.filter((r) => r.mail.messageId === `<${lost!.id}@book.test-tours.example>`)).toHaveLength(0);
      clock.advance(60_001);
      await here.runOnce();
      expect(smtp.received.filter((r) => r.mail.messageId === `<${lost!.id}@book.test-tours.example>`)).toHaveLength(1);
      expect(smtp.received).toHaveLength(12);
      expect((await notices(third.id)).map((m) => m.status)).toEqual(['SENT', 'SENT', 'SENT']);
    });

    it('commits notices with the booking or not at all', async () => {
      expectData(await patchOrg({ notificationEmails: ['ops@test-tours.example'] }), Organization);
      // A refused booking (over capacity) leaves no notice behind.
      const res = await t.request('POST', '/v1/bookings', {
        body: { experienceId: exp.id, startTime: SATURDAY_10, participants: 999, customerName: 'Eve', customerEmail: 'eve@example.com' },
      });
      expect(res.status).toBe(400);
      await mailJob().runOnce();
      expect(smtp.received).toHaveLength(0);
    });
  });

  describe('staff invites', () => {
    const setupToken = (url: string) => url.split('#')[1]!;

    it('e-mails the setup link to a user added through the API, then keeps no copy of it', async () => {
      expectData(await patchOrg({ brandColor: '#aa3300' }), Organization);
      const made = expectData(await t.request('POST', '/v1/users', { body: { email: 'new@test-tours.example', name: 'Nuno Silva', role: 'staff' } }), UserWithSetupUrl, 201);
      const pending = await inviteRow(t.store, made.id);
      expect(pending).toMatchObject({ kind: 'USER_INVITE', to: 'new@test-tours.example', status: 'PENDING', bookingId: null, setupUrl: made.setupUrl });
      await mailJob().runOnce();
      const [{ mail, to }] = smtp.received as [(typeof smtp.received)[number]];
      expect(to).toEqual(['new@test-tours.example']);
      expect(mail.subject).toBe("You're invited to Test Tours on Outing");
      expect(mail.text).toContain(made.setupUrl!);
      expect(mail.html).toContain(setupToken(made.setupUrl!));
      expect(mail.html).toContain('#aa3300');
      expect(mail.from?.value).toEqual([{ name: 'Test Tours', address: 'book@test-tours.example' }]);
      expect(addressesOf(mail.replyTo)).toEqual(['owner@test-tours.example']);
      expect(await inviteRow(t.store, made.id)).toMatchObject({ status: 'SENT', setupUrl: null });
    });

    it('erases the link when the invite fails for good', async () => {
      await smtp.close();
      smtp = await startSmtpServer({ onRcptTo: (_a, _s, callback) => callback(Object.assign(new Error('No such user'), { responseCode: 550 })) });
      const made = expectData(await t.request('POST', '/v1/users', { body: { email: 'gone@test-tours.example', name: 'Gone', role: 'staff' } }), UserWithSetupUrl, 201);
      await mailJob().runOnce();
      expect(await inviteRow(t.store, made.id)).toMatchObject({ status: 'FAILED', setupUrl: null, lastError: expect.stringMatching(/550/) });
    });

    it('queues none for a user the command line adds, mail server or not', async () => {
      const { COMMAND_LINE, createUser } = await import('../services/users.js');
      const made = await createUser(t.store, t.orgId, COMMAND_LINE, { email: 'cli@test-tours.example', name: 'Cli', role: 'staff' }, t.config.publicUrl, clock.now());
      expect(made.setupUrl).toMatch(/\/dashboard\/setup#/);
      expect(await inviteRow(t.store, made.user.id)).toBeUndefined();
    });

    it('queues none without a mail server', async () => {
      const { app: withoutMail } = createApp({ store: t.store, config: t.config, logger: quiet, now: clock.now, guestMail: false });
      const res = await withoutMail.request('/v1/users', {
        method: 'POST',
        headers: { authorization: `Bearer ${t.secretKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'quiet@test-tours.example', name: 'Quiet', role: 'staff' }),
      });
      const made = expectData({ status: res.status, body: await res.json() }, UserWithSetupUrl, 201);
      expect(await inviteRow(t.store, made.id)).toBeUndefined();
    });
  });
});

/** The invite message of a user, as stored (invites are listed under no booking). */
async function inviteRow(store: Store, userId: string) {
  const [row] = await store.messages.listUserMessages(userId);
  return row;
}
