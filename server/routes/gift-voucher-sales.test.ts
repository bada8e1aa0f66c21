import { afterEach, describe, expect, it } from 'vitest';
import { startFakeStripe, type FakeStripe } from '../payments/test-helpers/fake-stripe.js';
import { HOST_PAGE, paymentsHarness, type PaymentsHarness } from '../payments/test-helpers/setup.js';
import { expectData, expectError, expectList, expectValidationError, manualClock } from '../test-helpers/index.js';
import { GiftVoucher, GiftVoucherCheckout, GiftVoucherOffer, Organization } from '../../shared/index.js';

const SMTP = { SMTP_URL: 'smtp://127.0.0.1:2525' };
const buyer = { buyerName: 'Ana Costa', buyerEmail: 'ana@example.com' };

describe('POST /public/v1/gift-vouchers', () => {
  let stripe: FakeStripe;
  let h: PaymentsHarness;
  const open: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const close of open.splice(0)) await close();
  });

  async function setUp(options: { smtp?: boolean; onlinePayments?: boolean; amounts?: string[]; stripe?: boolean } = {}) {
    const clock = manualClock();
    stripe = await startFakeStripe({ now: clock.now });
    h = await paymentsHarness({
      ...(options.stripe === false ? {} : { stripe }),
      clock,
      ...(options.onlinePayments === false ? { onlinePayments: false } : {}),
      env: options.smtp === false ? {} : SMTP,
    });
    open.push(async () => { await h.close(); await stripe.close(); });
    const amounts = options.amounts ?? ['25.00', '50.00'];
    expectData(await h.t.request('PATCH', '/v1/organization', { body: { giftVoucherAmounts: amounts } }), Organization);
  }
  const buy = (body: Record<string, unknown>) =>
    h.t.request('POST', '/public/v1/gift-vouchers', { body, headers: { origin: new URL(HOST_PAGE).origin, referer: HOST_PAGE } });
  const messagesOf = async (id: string) => {
    const res = await h.t.request('GET', `/v1/gift-vouchers/${id}/messages`);
    expect(res.status).toBe(200);
    return (res.body as { data: { kind: string; to: string }[] }).data;
  };
  const vouchers = async () => expectList(await h.t.request('GET', '/v1/gift-vouchers'), GiftVoucher).data;

  it('opens a checkout for one of the amounts and makes the voucher, ACTIVE, once Stripe reports the payment', async () => {
    await setUp();
    const res = expectData(await buy({ amount: '50.00', ...buyer, recipientName: 'Rui Costa', recipientEmail: 'rui@example.com', message: 'Parabéns!' }), GiftVoucherCheckout, 201);
    const session = stripe.lastSession();
    expect(res.checkoutUrl).toBe(session.url);
    expect(session.amount_total).toBe(5000);
    const create = stripe.requests.find((r) => r.method === 'POST' && r.path === '/v1/checkout/sessions');
    expect(create?.params).toMatchObject({ customer_email: 'ana@example.com', line_items: [{ quantity: '1', price_data: { unit_amount: '5000' } }] });
    expect(new URL(session.success_url ?? '').searchParams.get('outing_status')).toBe('success');
    // Nothing is made before the payment.
    expect(await vouchers()).toEqual([]);

    const paid = stripe.pay(session.id);
    expect((await h.callback('checkout.session.completed', paid)).status).toBe(200);
    const [voucher] = await vouchers();
    expect(voucher).toMatchObject({ amount: '50.00', balance: '50.00', status: 'ACTIVE', recipientName: 'Rui Costa', recipientEmail: 'rui@example.com', message: 'Parabéns!' });
    expect(voucher!.code).toMatch(/^GV-[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}$/);
    // The operator's record says how it was paid for, and by whom.
    expect(voucher!.purchase).toEqual({ provider: 'stripe', reference: paid.payment_intent, amount: '50.00', buyerName: 'Ana Costa', buyerEmail: 'ana@example.com' });
    const row = (await h.t.store.giftVouchers.getVoucher(h.t.orgId, voucher!.id))!;
    expect(row).toMatchObject({ buyerName: 'Ana Costa', buyerEmail: 'ana@example.com', purchaseProvider: 'stripe', purchaseReference: paid.payment_intent, purchaseAmount: 5000 });
    const messages = await messagesOf(voucher!.id);
    expect(messages.map((m) => [m.kind, m.to]).sort()).toEqual([['GIFT_VOUCHER', 'ana@example.com'], ['GIFT_VOUCHER', 'rui@example.com']]);

    // Reported again (another event about the same payment): still one voucher.
    await h.callback('checkout.session.completed', paid);
    expect(await vouchers()).toHaveLength(1);
  });

  it('sends the code to the buyer alone without a recipient e-mail', async () => {
    await setUp();
    expectData(await buy({ amount: '25.00', ...buyer }), GiftVoucherCheckout, 201);
    await h.callback('checkout.session.completed', stripe.pay(stripe.lastSession().id));
    const [voucher] = await vouchers();
    const messages = await messagesOf(voucher!.id);
    expect(messages.map((m) => m.to)).toEqual(['ana@example.com']);
  });

  it('makes nothing for a checkout that expires or is abandoned', async () => {
    await setUp();
    expectData(await buy({ amount: '25.00', ...buyer }), GiftVoucherCheckout, 201);
    const session = stripe.lastSession();
    expect((await h.callback('checkout.session.expired', { ...session, status: 'expired' })).status).toBe(200);
    expect(await vouchers()).toEqual([]);
  });

  it('answers 400 for another amount or a bad field', async () => {
    await setUp();
    expectValidationError(await buy({ amount: '30.00', ...buyer }), 'amount');
    expectValidationError(await buy({ amount: '25.00', buyerName: 'Ana' }), 'buyerEmail');
    expectValidationError(await buy({ amount: '25.00', ...buyer, code: 'GV-1' }), 'code');
    expect(stripe.sessions.size).toBe(0);
  });

  it.each([
    ['without e-mail on the server', { smtp: false }],
    ['without amounts', { amounts: [] }],
    ['with online payments off', { onlinePayments: false }],
    ['without Stripe', { stripe: false }],
  ])('answers 409 PAYMENTS_NOT_CONFIGURED %s', async (_why, options) => {
    await setUp(options);
    expectError(await buy({ amount: '25.00', ...buyer }), 409, 'PAYMENTS_NOT_CONFIGURED');
    expect(stripe.sessions.size).toBe(0);
  });

  describe('GET /public/v1/gift-vouchers', () => {
    const offer = async () => expectData(await h.t.request('GET', '/public/v1/gift-vouchers'), GiftVoucherOffer);

    it('answers the amounts, the currency and available when a purchase would be taken', async () => {
      await setUp({ amounts: ['100.00', '25.00', '50.50'] });
      expect(await offer()).toEqual({ amounts: ['100.00', '25.00', '50.50'], currency: 'EUR', available: true });
      // The purchase agrees.
      expectData(await buy({ amount: '25.00', ...buyer }), GiftVoucherCheckout, 201);
    });

    it('needs the publishable key', async () => {
      await setUp();
      expectError(await h.t.request('GET', '/public/v1/gift-vouchers', { key: null }), 401, 'UNAUTHORIZED');
    });

    it('answers available: false with no amounts', async () => {
      await setUp({ amounts: [] });
      expect(await offer()).toEqual({ amounts: [], currency: 'EUR', available: false });
    });

    it.each([
      ['without e-mail on the server', { smtp: false }],
      ['with online payments off', { onlinePayments: false }],
      ['without Stripe', { stripe: false }],
    ])('answers available: false %s, where the purchase answers 409', async (_why, options) => {
      await setUp(options);
      expect(await offer()).toEqual({ amounts: ['25.00', '50.00'], currency: 'EUR', available: false });
      expectError(await buy({ amount: '25.00', ...buyer }), 409, 'PAYMENTS_NOT_CONFIGURED');
    });
  });
});
