import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, expectData, expectError, expectList, expectValidationError, manualClock, type ManualClock, type TestApp } from '../test-helpers/index.js';
import { startSmtpServer, type TestSmtpServer } from '../test-helpers/smtp.js';
import { guestMailJob, type GuestMailJob } from '../jobs/guest-mail.js';
import { smtpTransport } from '../mail/smtp.js';
import { createLogger } from '../logger.js';
import { Activity, GIFT_VOUCHER_CODE, GiftVoucher, GiftVoucherMessage, Organization } from '../../shared/index.js';

const quiet = createLogger('silent');
const DAY = 86_400_000;

describe('gift vouchers (/v1/gift-vouchers)', { timeout: 60_000 }, () => {
  let t: TestApp;
  let clock: ManualClock;
  let smtp: TestSmtpServer;
  let job: GuestMailJob;

  beforeEach(async () => {
    clock = manualClock();
    smtp = await startSmtpServer();
    t = await createTestApp({ now: clock.now, env: { PUBLIC_URL: 'https://book.test-tours.example' } });
    job = guestMailJob({
      store: t.store,
      config: t.config,
      logger: quiet,
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

  const create = async (body: Record<string, unknown>, prefix = '/v1') =>
    expectData(await t.request('POST', `${prefix}/gift-vouchers`, { body }), GiftVoucher, 201);

  it('creates a voucher with a new code, the org’s currency and an expiry three years on; gets, lists and pages it (also under /api/v1)', async () => {
    const now = clock.now();
    const made = await create({ amount: '50.00', recipientName: 'Rui', recipientEmail: 'rui@example.com', message: 'Enjoy!' });
    expect(made.code).toMatch(GIFT_VOUCHER_CODE);
    expect(made).toEqual({
      id: expect.stringMatching(/^gv_/), code: made.code, amount: '50.00', balance: '50.00', currency: 'EUR',
      expiresAt: new Date(Date.UTC(2029, 0, 5, 12)).toISOString(), status: 'ACTIVE', recipientName: 'Rui',
      recipientEmail: 'rui@example.com', message: 'Enjoy!', purchase: null, createdAt: new Date(now).toISOString(), redemptions: [],
    });
    expect(expectData(await t.request('GET', `/api/v1/gift-vouchers/${made.id}`), GiftVoucher)).toEqual(made);
    clock.advance(1000);
    const second = await create({ amount: '1.00', expiresAt: null }, '/api/v1');
    expect(second).toMatchObject({ amount: '1.00', expiresAt: null, recipientName: null, recipientEmail: null, message: null });
    expect(second.code).not.toBe(made.code);
    const listed = expectList(await t.request('GET', '/v1/gift-vouchers'), GiftVoucher);
    expect(listed.data.map((v) => v.id)).toEqual([second.id, made.id]);
    expect(listed.pagination).toMatchObject({ total: 2 });
    const page = expectList(await t.request('GET', '/v1/gift-vouchers?limit=1&offset=1'), GiftVoucher);
    expect(page.data.map((v) => v.id)).toEqual([made.id]);
  });

  it('refuses bad amounts, a past expiry and unknown fields', async () => {
    await expectValidationError(await t.request('POST', '/v1/gift-vouchers', { body: { amount: '0.99' } }), 'amount');
    await expectValidationError(await t.request('POST', '/v1/gift-vouchers', { body: { amount: '1000000.00' } }), 'amount');
    await expectValidationError(await t.request('POST', '/v1/gift-vouchers', { body: { amount: '10' } }), 'amount');
    await expectValidationError(await t.request('POST', '/v1/gift-vouchers', { body: {} }), 'amount');
    const past = new Date(clock.now()).toISOString();
    await expectValidationError(await t.request('POST', '/v1/gift-vouchers', { body: { amount: '10.00', expiresAt: past } }), 'expiresAt');
    await expectValidationError(await t.request('POST', '/v1/gift-vouchers', { body: { amount: '10.00', message: 'x'.repeat(501) } }), 'message');
    await expectValidationError(await t.request('POST', '/v1/gift-vouchers', { body: { amount: '10.00', code: 'GV-AAAA-AAAA-AAAA' } }), 'code');
    expect(await create({ amount: '999999.99', message: 'x'.repeat(500) })).toMatchObject({ amount: '999999.99' });
  });

  it('PATCH disables, enables and sets the expiry; status follows; an empty body is 400; the list filters by status', async () => {
    const v = await create({ amount: '20.00' });
    const disabled = expectData(await t.request('PATCH', `/v1/gift-vouchers/${v.id}`, { body: { status: 'DISABLED' } }), GiftVoucher);
    expect(disabled.status).toBe('DISABLED');
    const past = new Date(clock.now() - DAY).toISOString();
    const expired = expectData(await t.request('PATCH', `/v1/gift-vouchers/${v.id}`, { body: { status: 'ACTIVE', expiresAt: past } }), GiftVoucher);
    expect(expired).toMatchObject({ status: 'EXPIRED', expiresAt: past });
    const other = await create({ amount: '30.00' });
    const ids = async (status: string) => expectList(await t.request('GET', `/v1/gift-vouchers?status=${status}`), GiftVoucher).data.map((x) => x.id);
    expect(await ids('EXPIRED')).toEqual([v.id]);
    expect(await ids('ACTIVE')).toEqual([other.id]);
    expect(await ids('DISABLED')).toEqual([]);
    const open = expectData(await t.request('PATCH', `/v1/gift-vouchers/${v.id}`, { body: { expiresAt: null } }), GiftVoucher);
    expect(open).toMatchObject({ status: 'ACTIVE', expiresAt: null });
    await expectValidationError(await t.request('PATCH', `/v1/gift-vouchers/${v.id}`, { body: {} }), '');
    await expectValidationError(await t.request('PATCH', `/v1/gift-vouchers/${v.id}`, { body: { status: 'USED' } }), 'status');
    await expectValidationError(await t.request('PATCH', `/v1/gift-vouchers/${v.id}`, { body: { amount: '10.00' } }), 'amount');
    await expectValidationError(await t.request('GET', '/v1/gift-vouchers?status=NOPE'), 'status');
    await expectError(await t.request('GET', '/v1/gift-vouchers/gv_nope'), 404, 'NOT_FOUND');
    // Another organization's voucher is not found.
    const other2 = await t.addOrganization({ name: 'Other Tours' });
    await expectError(await t.request('GET', `/v1/gift-vouchers/${v.id}`, { key: other2.secretKey }), 404, 'NOT_FOUND');
  });

  it('needs promotions:read to read and promotions:write to write', async () => {
    const v = await create({ amount: '20.00' });
    const reader = await t.createKey({ scopes: ['promotions:read'] });
    const nobody = await t.createKey({ scopes: ['bookings:read'] });
    expect(expectList(await t.request('GET', '/v1/gift-vouchers', { key: reader.key }), GiftVoucher).data).toHaveLength(1);
    await expectError(await t.request('GET', `/v1/gift-vouchers/${v.id}`, { key: nobody.key }), 403, 'FORBIDDEN');
    await expectError(await t.request('POST', '/v1/gift-vouchers', { key: reader.key, body: { amount: '5.00' } }), 403, 'FORBIDDEN');
    await expectError(await t.request('PATCH', `/v1/gift-vouchers/${v.id}`, { key: reader.key, body: { status: 'DISABLED' } }), 403, 'FORBIDDEN');
  });

  it('records gift_voucher.create and .update with the mask, never the code', async () => {
    const v = await create({ amount: '20.00' });
    await t.request('PATCH', `/v1/gift-vouchers/${v.id}`, { body: { status: 'DISABLED' } });
    const entries = expectList(await t.request('GET', '/v1/activity'), Activity).data.filter((a) => a.targetType === 'gift_voucher');
    expect(entries.map((a) => a.action).sort()).toEqual(['gift_voucher.create', 'gift_voucher.update']);
    for (const a of entries) {
      expect(a.targetId).toBe(v.id);
      expect(a.summary).toContain(`GV-••••-••••-${v.code.slice(-4)}`);
      expect(a.summary).not.toContain(v.code);
    }
    expect(JSON.stringify(t.logs)).not.toContain(v.code);
  });

  it('e-mails the code in the organization’s default language', async () => {
    expectData(await t.request('PATCH', '/v1/organization', { body: { defaultLocale: 'fr' } }), Organization);
    await create({ amount: '75.50', recipientName: 'Rui', recipientEmail: 'rui@example.com', expiresAt: '2027-03-01T00:30:00.000Z' });
    await job.runOnce();
    const { mail } = (await smtp.waitFor(1))[0]!;
    expect(mail.subject).toBe('Votre carte cadeau Test Tours');
    expect(mail.headers.get('content-language')).toBe('fr');
    expect(mail.html).toContain('<html lang="fr">');
    expect(mail.text).toContain('Montant: 75,50\u00a0€');
    expect(mail.text).toContain('Valable jusqu’au: 1 mars 2027');
  });

  it('e-mails the code to the recipient (text and HTML, escaped, Reply-To the org), lists and resends it', async () => {
    const v = await create({
      amount: '75.50', recipientName: 'Rui <b>Costa</b>', recipientEmail: 'rui@example.com', message: 'Happy birthday & <enjoy>\nsecond line',
      expiresAt: '2027-03-01T00:30:00.000Z',
    });
    const [queued] = expectList(await t.request('GET', `/v1/gift-vouchers/${v.id}/messages`), GiftVoucherMessage).data;
    expect(queued).toMatchObject({ giftVoucherId: v.id, kind: 'GIFT_VOUCHER', to: 'rui@example.com', status: 'PENDING' });
    await job.runOnce();
    const { mail, to } = (await smtp.waitFor(1))[0]!;
    expect(to).toEqual(['rui@example.com']);
    expect(mail.replyTo?.text).toBe('owner@test-tours.example');
    expect(mail.from?.value[0]?.name).toBe('Test Tours');
    expect(mail.subject).toBe('Your gift voucher from Test Tours');
    expect(mail.text).toContain(`Code: ${v.code}`);
    expect(mail.text).toContain('Amount: €75.50');
    // 00:30 UTC on 1 March is still 1 March in Lisbon (UTC+0 in winter).
    expect(mail.text).toContain('Valid until: 1 March 2027');
    expect(mail.text).toContain('Hello Rui <b>Costa</b>,');
    expect(mail.text).toContain('Happy birthday & <enjoy>\nsecond line');
    expect(mail.text).toContain('owner@test-tours.example');
    const html = String(mail.html);
    expect(html).toContain(v.code);
    expect(html).toContain('Rui &#60;b&#62;Costa&#60;/b&#62;');
    expect(html).toContain('Happy birthday &#38; &#60;enjoy&#62;<br>second line');
    expect(html).not.toContain('<b>Costa');
    const [sent] = expectList(await t.request('GET', `/v1/gift-vouchers/${v.id}/messages`), GiftVoucherMessage).data;
    expect(sent).toMatchObject({ id: queued!.id, status: 'SENT', attempts: 1 });

    const again = expectData(await t.request('POST', `/v1/gift-vouchers/${v.id}/messages/${queued!.id}/resend`), GiftVoucherMessage, 202);
    expect(again).toMatchObject({ giftVoucherId: v.id, kind: 'GIFT_VOUCHER', to: 'rui@example.com', status: 'PENDING' });
    await expectError(await t.request('POST', `/v1/gift-vouchers/${v.id}/messages/${again.id}/resend`), 409, 'CONFLICT');
    await job.runOnce();
    await smtp.waitFor(2);
    expect(smtp.received[1]!.mail.text).toContain(v.code);
    // Another voucher's message is not this one's.
    const other = await create({ amount: '5.00' });
    await expectError(await t.request('POST', `/v1/gift-vouchers/${other.id}/messages/${queued!.id}/resend`), 404, 'NOT_FOUND');
    const reader = await t.createKey({ scopes: ['promotions:read'] });
    await expectError(await t.request('POST', `/v1/gift-vouchers/${v.id}/messages/${queued!.id}/resend`, { key: reader.key }), 403, 'FORBIDDEN');
  });

  it('says "No expiry" for a voucher without one, and sends nothing without a recipient', async () => {
    await create({ amount: '10.00' });
    const v = await create({ amount: '10.00', expiresAt: null, recipientEmail: 'ana@example.com' });
    await job.runOnce();
    const { mail } = (await smtp.waitFor(1))[0]!;
    expect(mail.text).toContain('Valid until: No expiry');
    expect(mail.text).toContain('Hello,');
    expect(smtp.received).toHaveLength(1);
    expect(expectList(await t.request('GET', `/v1/gift-vouchers/${v.id}/messages`), GiftVoucherMessage).data).toHaveLength(1);
  });

  it('records the e-mail SKIPPED when the process has no mail server', async () => {
    const off = await createTestApp({ now: clock.now, deps: { guestMail: false } });
    try {
      const v = expectData(await off.request('POST', '/v1/gift-vouchers', { body: { amount: '10.00', recipientEmail: 'ana@example.com' } }), GiftVoucher, 201);
      const [m] = expectList(await off.request('GET', `/v1/gift-vouchers/${v.id}/messages`), GiftVoucherMessage).data;
      expect(m).toMatchObject({ status: 'SKIPPED', kind: 'GIFT_VOUCHER' });
    } finally {
      await off.close();
    }
  });
});
