import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, harbourCruise, manualClock, type ManualClock, type TestApp } from '../test-helpers/index.js';
import { startSmtpServer, type TestSmtpServer } from '../test-helpers/smtp.js';
import { guestMailJob, type GuestMailJob } from '../jobs/guest-mail.js';
import { smtpTransport } from '../mail/smtp.js';
import { createLogger } from '../logger.js';
import { slotId } from '../domain/slots.js';
import { OctoBooking, type Experience } from '../../shared/index.js';

// A reseller's guest hears from Outing only once a confirmation or change carried emailReceipt:
// true, and only at an emailAddress; over a real SMTP server.

const WED_10 = Date.UTC(2026, 0, 7, 10, 0);

describe('OCTO e-mail receipts', { timeout: 60_000 }, () => {
  let t: TestApp;
  let clock: ManualClock;
  let smtp: TestSmtpServer;
  let job: GuestMailJob;
  let cruise: Experience;

  beforeEach(async () => {
    clock = manualClock();
    smtp = await startSmtpServer();
    t = await createTestApp({ now: clock.now, env: { REMINDER_HOURS: '24' } });
    cruise = await harbourCruise(t);
    job = guestMailJob({
      store: t.store,
      config: t.config,
      logger: createLogger('silent'),
      transport: smtpTransport({ url: smtp.url, from: 'Bookings <book@test-tours.example>', greetingTimeoutMs: 500 }),
      now: clock.now,
      random: () => 0.5,
    });
  });
  afterEach(async () => {
    await job.stop();
    await t.close();
    await smtp.close();
  });

  async function reserve(units = 2): Promise<OctoBooking> {
    const res = await t.request('POST', '/octo/bookings', {
      body: { productId: cruise.id, optionId: 'DEFAULT', availabilityId: slotId(cruise.id, WED_10), unitItems: Array.from({ length: units }, () => ({ unitId: 'adult' })) },
    });
    return OctoBooking.parse(res.body);
  }
  const contact = (fields: Record<string, unknown> = {}) => ({ fullName: 'Lena Vogel', emailAddress: 'lena@example.com', locales: ['de-DE', 'de'], ...fields });
  const messagesOf = async (bookingId: string) => (await t.request('GET', `/v1/bookings/${bookingId}/messages`)).body.data as { kind: string; to: string }[];

  it('sends nothing when the confirmation does not ask for a receipt', async () => {
    const held = await reserve();
    const confirmed = await t.request('POST', `/octo/bookings/${held.uuid}/confirm`, { body: { contact: contact() } });
    expect(OctoBooking.parse(confirmed.body).status).toBe('CONFIRMED');
    await t.request('POST', `/octo/bookings/${held.uuid}/cancel`, { body: {} });
    await job.runOnce();
    expect(smtp.received).toEqual([]);
    expect(await messagesOf(held.id)).toEqual([]);
  });

  it('sends the confirmation, in the contact\'s language, when the confirmation asks for it; later changes follow', async () => {
    const held = await reserve();
    await t.request('POST', `/octo/bookings/${held.uuid}/confirm`, { body: { contact: contact(), emailReceipt: true } });
    await job.runOnce();
    const [confirmation] = await smtp.waitFor(1);
    expect(confirmation!.to).toEqual(['lena@example.com']);
    expect(confirmation!.mail.text).toContain(held.supplierReference);
    expect(confirmation!.mail.headers.get('content-language') ?? confirmation!.mail.subject).toBeTruthy();
    await t.request('PATCH', `/octo/bookings/${held.uuid}`, { body: { unitItems: [{ unitId: 'adult' }, { unitId: 'adult' }, { unitId: 'adult' }] } });
    await job.runOnce();
    await smtp.waitFor(2);
    expect((await messagesOf(held.id)).map((m) => m.kind)).toEqual(['BOOKING_CONFIRMED', 'BOOKING_CHANGED']);
  });

  it('starts with a change that asks for it, and never writes to a contact without an address', async () => {
    const held = await reserve();
    await t.request('POST', `/octo/bookings/${held.uuid}/confirm`, { body: { contact: contact() } });
    await t.request('PATCH', `/octo/bookings/${held.uuid}`, { body: { emailReceipt: true, unitItems: [{ unitId: 'adult' }] } });
    await job.runOnce();
    await smtp.waitFor(1);
    expect((await messagesOf(held.id)).map((m) => [m.kind, m.to])).toEqual([['BOOKING_CHANGED', 'lena@example.com']]);

    const anonymous = await reserve();
    const confirmed = await t.request('POST', `/octo/bookings/${anonymous.uuid}/confirm`, { body: { contact: contact({ emailAddress: null }), emailReceipt: true } });
    expect(OctoBooking.parse(confirmed.body).status).toBe('CONFIRMED');
    await job.runOnce();
    expect(smtp.received).toHaveLength(1);
    expect(await messagesOf(anonymous.id)).toEqual([]);
  });

  it('reminds only the guests of bookings whose reseller asked for e-mails', async () => {
    const quiet = await reserve();
    await t.request('POST', `/octo/bookings/${quiet.uuid}/confirm`, { body: { contact: contact({ emailAddress: 'quiet@example.com' }) } });
    const told = await reserve();
    await t.request('POST', `/octo/bookings/${told.uuid}/confirm`, { body: { contact: contact(), emailReceipt: true } });
    await job.runOnce();
    await smtp.waitFor(1);
    clock.set(WED_10 - 23 * 3_600_000);
    await job.runOnce();
    await smtp.waitFor(2);
    await job.runOnce();
    expect(smtp.received.map((m) => m.to[0])).toEqual(['lena@example.com', 'lena@example.com']);
    expect((await messagesOf(told.id)).map((m) => m.kind)).toEqual(['BOOKING_CONFIRMED', 'BOOKING_REMINDER']);
    expect(await messagesOf(quiet.id)).toEqual([]);
  });

  it('sends the confirmation when a change first asks for receipts on a confirmed booking', async () => {
    const held = await reserve();
    await t.request('POST', `/octo/bookings/${held.uuid}/confirm`, { body: { contact: contact() } });
    await t.request('PATCH', `/octo/bookings/${held.uuid}`, { body: { emailReceipt: true } });
    await t.request('PATCH', `/octo/bookings/${held.uuid}`, { body: { emailReceipt: true, resellerReference: 'again' } });
    await job.runOnce();
    await smtp.waitFor(1);
    expect((await messagesOf(held.id)).map((m) => [m.kind, m.to])).toEqual([['BOOKING_CONFIRMED', 'lena@example.com']]);
  });
});
