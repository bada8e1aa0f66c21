import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, expectData, expectError, harbourCruise, manualClock, type ManualClock, type TestApp } from '../test-helpers/index.js';
import { startSmtpServer, type TestSmtpServer } from '../test-helpers/smtp.js';
import { offeredEntry } from '../test-helpers/waitlist.js';
import { guestMailJob, type GuestMailJob } from '../jobs/guest-mail.js';
import { smtpTransport } from '../mail/smtp.js';
import { createLogger } from '../logger.js';
import { newId } from '../domain/ids.js';
import { WaitlistOffer, type Experience } from '../../shared/index.js';

const HOUR = 3_600_000;
// The clock starts on Monday 5 January 2026, 12:00 in Lisbon (UTC+0 in winter).
const SATURDAY_10 = '2026-01-10T10:00:00.000Z';
const LINK = /https:\/\/book\.test-tours\.example\/manage#([A-Za-z0-9_-]{43})/;

describe('the waitlist e-mails, sent over real SMTP', { timeout: 60_000 }, () => {
  let t: TestApp;
  let clock: ManualClock;
  let smtp: TestSmtpServer;
  let job: GuestMailJob;
  let exp: Experience;

  beforeEach(async () => {
    clock = manualClock();
    smtp = await startSmtpServer();
    t = await createTestApp({ now: clock.now, env: { PUBLIC_URL: 'https://book.test-tours.example' } });
    exp = await harbourCruise(t, { name: 'Harbour <cruise>' });
    job = guestMailJob({
      store: t.store,
      config: t.config,
      logger: createLogger('silent'),
      transport: smtpTransport({ url: smtp.url, from: 'Outing <book@test-tours.example>', greetingTimeoutMs: 500 }),
      now: clock.now,
      random: () => 0.5,
    });
  });
  afterEach(async () => {
    await job.stop();
    await t.close();
    await smtp.close();
  });

  const queue = async (kind: 'WAITLIST_JOINED' | 'WAITLIST_OFFER', waitlistEntryId: string, to = 'wren@example.com') => {
    const row = await t.store.messages.enqueueMessage({ orgId: t.orgId, bookingId: null, kind, to, createdAt: clock.now(), waitlistEntryId });
    if (!row) throw new Error('Not queued');
    return row;
  };
  const waiting = async (guestEmail: string, createdAt: number, locale = 'en') => {
    const slotStart = Date.parse(SATURDAY_10);
    const id = newId('waitlistEntry');
    await t.store.waitlist.insertEntry({
      id, orgId: t.orgId, experienceId: exp.id, slotStart, slotEnd: slotStart + 2 * HOUR, status: 'WAITING', places: 3, totalParticipants: 3,
      tickets: '[]', answers: '[]', guestName: 'Wren Guest', guestEmail, guestPhone: null, locale, tokenHash: null, offeredAt: null,
      offerExpiresAt: null, bookingId: null, createdAt, updatedAt: createdAt,
    });
    return id;
  };

  it('WAITLIST_OFFER: from the org, Reply-To its address, the offer’s details and a link whose token opens the offer', async () => {
    const { entry, token: before } = await offeredEntry(t.store, exp, t.orgId, SATURDAY_10, clock.now(), { expiresInMs: 10 * HOUR });
    const message = await queue('WAITLIST_OFFER', entry.id);
    await job.runOnce();
    const [got] = await smtp.waitFor(1);
    const mail = got!.mail;
    expect(got!.to).toEqual(['wren@example.com']);
    expect(mail.from?.value[0]).toMatchObject({ name: 'Test Tours', address: 'book@test-tours.example' });
    expect(mail.replyTo?.value[0]?.address).toBe((await t.store.organizations.getOrganization(t.orgId))!.email);
    expect(mail.messageId).toBe(`<${message.id}@book.test-tours.example>`);
    expect(mail.subject).toBe('Places are free for you: Harbour <cruise>, 10 January, 10:00');
    expect(mail.text).toContain('Date and time: Saturday, 10 January 2026, 10:00–12:00 (Europe/Lisbon, UTC+0)');
    expect(mail.text).toContain('Participants: 2 participants');
    expect(mail.text).toContain('Total: €90.00');
    expect(mail.text).toContain('Held for you until: Monday, 5 January 2026, 22:00 (Europe/Lisbon, UTC+0)');
    const textToken = LINK.exec(mail.text ?? '')?.[1];
    const htmlToken = LINK.exec(typeof mail.html === 'string' ? mail.html : '')?.[1];
    expect(textToken).toBeDefined();
    expect(htmlToken).toBe(textToken);
    expect(mail.html).toContain('Harbour &#60;cruise&#62;');
    // The e-mail's token opens the offer; the one minted before it no longer does.
    const seen = expectData(await t.request('GET', '/public/v1/waitlist/offer', { key: null, headers: { 'x-waitlist-token': textToken! } }), WaitlistOffer);
    expect(seen.entry).toMatchObject({ id: entry.id, status: 'OFFERED' });
    expectError(await t.request('GET', '/public/v1/waitlist/offer', { key: null, headers: { 'x-waitlist-token': before } }), 404, 'NOT_FOUND');
    expect((await t.store.messages.getMessage(message.id))?.status).toBe('SENT');
  });

  it('WAITLIST_JOINED: the position among those waiting, in the entry’s language, with no link', async () => {
    await waiting('first@example.com', clock.now() - 2 * HOUR);
    const id = await waiting('wren@example.com', clock.now() - HOUR, 'pt');
    await queue('WAITLIST_JOINED', id);
    await job.runOnce();
    const [got] = await smtp.waitFor(1);
    expect(got!.mail.subject).toBe('Na lista de espera: Harbour <cruise>, 10 de janeiro, 10:00');
    expect(got!.mail.text).toContain('É o número 2 na lista de espera');
    expect(got!.mail.text).toContain('Participantes: 3 participantes');
    expect(got!.mail.text).not.toMatch(/manage#/);
    expect(got!.mail.html).not.toMatch(/manage#/);
  });

  it('does not send an offer that has ended by the time it would go (FAILED, saying why)', async () => {
    const { entry } = await offeredEntry(t.store, exp, t.orgId, SATURDAY_10, clock.now(), { expiresInMs: HOUR });
    const lapsed = await queue('WAITLIST_OFFER', entry.id);
    clock.advance(HOUR);
    await job.runOnce();
    expect(smtp.received).toHaveLength(0);
    const row = await t.store.messages.getMessage(lapsed.id);
    expect(row).toMatchObject({ status: 'FAILED' });
    expect(row?.lastError).toMatch(/offer is no longer open/);
  });
});
