import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { createTestApp, everyDay, expectData, manualClock, testEngine, type ManualClock, type TestApp } from '../test-helpers/index.js';
import { Experience } from '../../shared/index.js';
import { OctoError, OctoProduct, OctoSupplier } from '../../shared/schemas/octo.js';

// Monday 2027-03-01, 08:00 UTC (08:00 in Lisbon, on WET until 2027-03-28).
const NOW = Date.UTC(2027, 2, 1, 8, 0, 0);

const expectOctoError = (res: { status: number; body: unknown }, error: string, field?: Record<string, string>) => {
  expect(res.status, JSON.stringify(res.body)).toBe(400);
  const body = OctoError.parse(res.body);
  expect(body).toEqual({ error, errorMessage: expect.any(String), ...field });
  return body;
};

describe('OCTO: access and errors', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp({ now: manualClock(NOW).now });
  });
  afterEach(() => t.close());

  it('lists its one capability, and names the applied ones in every answer', async () => {
    const res = await t.request('GET', '/octo/capabilities');
    expect(res.status).toBe(200);
    expect(res.body).toEqual([{ id: 'octo/pricing', revision: 1, required: false, dependencies: [], docs: null }]);
    expect(res.headers.get('octo-capabilities')).toBe('');
    expect(res.headers.get('cache-control')).toBe('no-store');
    const asked = await t.request('GET', '/octo/capabilities', { headers: { 'octo-capabilities': 'octo/content, OCTO/PRICING ,octo/pickups' } });
    expect(asked.headers.get('octo-capabilities')).toBe('octo/pricing');
    const empty = await t.request('GET', '/octo/capabilities', { headers: { 'octo-capabilities': '' } });
    expect(empty.status).toBe(200);
    expect(empty.headers.get('octo-capabilities')).toBe('');
  });

  it('takes a secret key with the octo scope or every scope, and nothing else', async () => {
    expectOctoError(await t.request('GET', '/octo/supplier', { key: null }), 'UNAUTHORIZED');
    expectOctoError(await t.request('GET', '/octo/supplier', { key: 'osk_not_a_real_key_at_all_000000000000' }), 'UNAUTHORIZED');
    expectOctoError(await t.request('GET', '/octo/supplier', { key: t.publishableKey }), 'UNAUTHORIZED');
    expectOctoError(await t.request('GET', '/octo/supplier', { key: null, headers: { authorization: `Basic ${t.secretKey}` } }), 'UNAUTHORIZED');
    const bookingsOnly = await t.createKey({ scopes: ['bookings:read', 'bookings:write', 'experiences:read'] });
    expectOctoError(await t.request('GET', '/octo/supplier', { key: bookingsOnly.key }), 'FORBIDDEN');
    const octo = await t.createKey({ scopes: ['octo'] });
    expect((await t.request('GET', '/octo/supplier', { key: octo.key })).status).toBe(200);
    // The default key of `outing init` holds every scope.
    expect((await t.request('GET', '/octo/supplier')).status).toBe(200);
    // A key with the octo scope alone reaches nothing of /v1.
    expect((await t.request('GET', '/v1/experiences', { key: octo.key })).status).toBe(403);
  });

  it('ignores the dashboard’s cookie: only a key authenticates', async () => {
    const res = await t.request('GET', '/octo/supplier', { key: null, headers: { cookie: 'outing_session=anything', 'x-csrf-token': 'x' } });
    expectOctoError(res, 'UNAUTHORIZED');
  });

  it('checks the key before the body', async () => {
    expectOctoError(await t.request('POST', '/octo/availability', { key: null, body: '{not json', headers: { 'content-type': 'application/json' } }), 'UNAUTHORIZED');
    const other = await t.createKey({ scopes: ['bookings:read'] });
    expectOctoError(await t.request('POST', '/octo/availability', { key: other.key, body: { productId: 'exp_nope' } }), 'FORBIDDEN');
  });

  it('answers bad JSON, a body of the wrong kind or mistyped fields with BAD_REQUEST', async () => {
    const json = { 'content-type': 'application/json' };
    expectOctoError(await t.request('POST', '/octo/availability', { body: '{"productId":', headers: json }), 'BAD_REQUEST');
    expectOctoError(await t.request('POST', '/octo/availability', { body: '[1,2]', headers: json }), 'BAD_REQUEST');
    expectOctoError(await t.request('POST', '/octo/availability', { body: '"text"', headers: json }), 'BAD_REQUEST');
    expectOctoError(await t.request('POST', '/octo/availability', { body: 'productId=1', headers: { 'content-type': 'text/plain' } }), 'BAD_REQUEST');
    expectOctoError(await t.request('POST', '/octo/availability', { body: {} }), 'BAD_REQUEST');
    expectOctoError(await t.request('POST', '/octo/availability', { body: { productId: 12, optionId: 'DEFAULT', localDate: '2027-03-02' } }), 'BAD_REQUEST');
    expectOctoError(await t.request('POST', '/octo/availability', { body: { productId: 'exp_x', optionId: 'DEFAULT', localDate: '2027-02-30' } }), 'BAD_REQUEST');
    expectOctoError(await t.request('POST', '/octo/availability', { body: { productId: 'exp_x', optionId: 'DEFAULT', localDate: '2027-03-02', units: [{ id: 'adult', quantity: -1 }] } }), 'BAD_REQUEST');
    expectOctoError(await t.request('POST', '/octo/availability', { body: { productId: 'exp_x\u0000', optionId: 'DEFAULT', localDate: '2027-03-02' } }), 'BAD_REQUEST');
  });

  it('takes a bodiless GET that says Content-Type: application/json', async () => {
    const res = await t.request('GET', '/octo/products', { headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual([]);
  });

  it('never answers 404 on a known route, and answers OCTO’s shape on an unknown one', async () => {
    expectOctoError(await t.request('GET', '/octo/products/exp_unknown'), 'INVALID_PRODUCT_ID', { productId: 'exp_unknown' });
    expectOctoError(await t.request('GET', '/octo/products/anything%20at%20all'), 'INVALID_PRODUCT_ID', { productId: 'anything at all' });
    // Another method on a known path: BAD_REQUEST naming the right one, after the key.
    const wrong = expectOctoError(await t.request('GET', '/octo/availability'), 'BAD_REQUEST');
    expect(wrong.errorMessage).toContain('use POST');
    expectOctoError(await t.request('DELETE', '/octo/bookings/3f1c4a52-0d5e-4a77-9d6b-2f6a1c9e8b10'), 'BAD_REQUEST');
    expectOctoError(await t.request('GET', '/octo/availability', { key: null }), 'UNAUTHORIZED');
    const unknown = await t.request('GET', '/octo/nothing-here');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ error: 'NOT_FOUND', errorMessage: expect.any(String) });
  });

  it.skipIf(testEngine() !== 'sqlite')('answers 503 with Retry-After in OCTO’s shape while the database cannot be reached', async () => {
    // A key never used writes its first use: with another process holding the write lock, it waits out the busy timeout.
    const fresh = await t.createKey({ scopes: ['octo'] });
    const other = new Database(t.dbPath);
    other.pragma('busy_timeout = 0');
    other.exec('BEGIN IMMEDIATE');
    try {
      const res = await t.request('GET', '/octo/supplier', { key: fresh.key });
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('5');
      expect(res.body).toEqual({ error: 'SERVICE_UNAVAILABLE', errorMessage: expect.any(String) });
    } finally {
      other.exec('ROLLBACK');
      other.close();
    }
    expect((await t.request('GET', '/octo/supplier', { key: fresh.key })).status).toBe(200);
  }, 20_000);
});

describe('OCTO: the supplier and its products', () => {
  let t: TestApp;
  let clock: ManualClock;
  const newExperience = async (body: Record<string, unknown>) =>
    expectData(
      await t.request('POST', '/v1/experiences', {
        body: { name: 'Alfama walk', description: '', duration: 90, price: 2500, maxParticipants: 10, schedule: { weekly: everyDay(['10:00', '15:00']) }, ...body },
      }),
      Experience,
      201,
    );
  beforeEach(async () => {
    clock = manualClock(NOW);
    t = await createTestApp({ now: clock.now, org: { timezone: 'Europe/Lisbon', currency: 'EUR'} });
  });
  afterEach(() => t.close());

  it('shows the organization as the supplier', async () => {
    expect((await t.request('PATCH', '/v1/organization', { body: { phone: '+351 210 000 000' } })).status).toBe(200);
    const res = await t.request('GET', '/octo/supplier');
    expect(res.status).toBe(200);
    expect(OctoSupplier.parse(res.body)).toEqual({
      id: t.orgId,
      name: 'Test Tours',
      endpoint: `${t.config.publicUrl.replace(/\/$/, '')}/octo`,
      contact: { website: null, email: 'owner@test-tours.example', telephone: '+351 210 000 000', address: null },
    });
  });

  it('lists the active experiences with a schedule as products, oldest first, each with one DEFAULT option', async () => {
    const walk = await newExperience({ maxPerBooking: 6, minNoticeMinutes: 60 });
    await newExperience({ name: 'Retired', active: false });
    await newExperience({ name: 'On request', schedule: null });
    const cruise = await newExperience({
      name: 'Sunset cruise',
      schedule: { timezone: 'Atlantic/Madeira', weekly: { fri: ['18:30'], sat: ['18:30', '09:00'] }, exceptions: [{ date: '2027-01-10', times: ['07:00'] }, { date: '2027-04-01', times: ['12:15'] }] },
      priceCategories: [
        { name: 'Adult', price: 4000, type: 'ADULT', minAge: 18 },
        { name: 'Child', price: 2000, type: 'CHILD', minAge: 4, maxAge: 17 },
        { name: 'Lap infant', price: 0, type: 'INFANT', occupiesPlace: false, maxAge: 3 },
      ],
    });
    const res = await t.request('GET', '/octo/products');
    expect(res.status).toBe(200);
    const products = (res.body as unknown[]).map((p) => OctoProduct.parse(p));
    expect(products.map((p) => p.id)).toEqual([walk.id, cruise.id]);
    expect(res.body[0]).toEqual({
      id: walk.id,
      internalName: 'Alfama walk',
      reference: null,
      locale: 'en',
      timeZone: 'Europe/Lisbon',
      allowFreesale: false,
      instantConfirmation: true,
      instantDelivery: true,
      availabilityRequired: true,
      availabilityType: 'START_TIME',
      deliveryFormats: ['QRCODE'],
      deliveryMethods: ['VOUCHER'],
      redemptionMethod: 'DIGITAL',
      options: [
        {
          id: 'DEFAULT',
          default: true,
          internalName: 'Default',
          reference: null,
          availabilityLocalStartTimes: ['10:00', '15:00'],
          cancellationCutoff: '24 hours',
          cancellationCutoffAmount: 24,
          cancellationCutoffUnit: 'hour',
          requiredContactFields: [],
          restrictions: { minUnits: 1, maxUnits: 6 },
          units: [
            {
              id: 'adult',
              internalName: 'Adult',
              reference: null,
              type: 'ADULT',
              requiredContactFields: [],
              restrictions: { minAge: 0, maxAge: 99, idRequired: false, minQuantity: null, maxQuantity: null, paxCount: 1, accompaniedBy: [] },
            },
          ],
        },
      ],
    });
    const cruiseOption = products[1]!.options[0]!;
    expect(products[1]!.timeZone).toBe('Atlantic/Madeira');
    // Weekly times and those of exceptions from today on (the January one is past).
    expect(cruiseOption.availabilityLocalStartTimes).toEqual(['09:00', '12:15', '18:30']);
    expect(cruiseOption.restrictions).toEqual({ minUnits: 1, maxUnits: 10 });
    expect(cruiseOption.units.map((u) => [u.id, u.internalName, u.type, u.restrictions.minAge, u.restrictions.maxAge, u.restrictions.paxCount])).toEqual([
      [cruise.priceCategories[0]!.id, 'Adult', 'ADULT', 18, 99, 1],
      [cruise.priceCategories[1]!.id, 'Child', 'CHILD', 4, 17, 1],
      [cruise.priceCategories[2]!.id, 'Lap infant', 'INFANT', 0, 3, 0],
    ]);
    expect(cruiseOption.units[0]).not.toHaveProperty('pricingFrom');
    expect(products[1]).not.toHaveProperty('defaultCurrency');
  });

  it('states the organization’s cancellation cutoff on every option', async () => {
    await newExperience({});
    expect((await t.request('PATCH', '/v1/organization', { body: { cancellationCutoffHours: 48 } })).status).toBe(200);
    const [product] = (await t.request('GET', '/octo/products')).body as OctoProduct[];
    expect(product!.options[0]).toMatchObject({ cancellationCutoff: '48 hours', cancellationCutoffAmount: 48, cancellationCutoffUnit: 'hour' });
  });

  it('adds prices only with the octo/pricing capability', async () => {
    const walk = await newExperience({});
    const cruise = await newExperience({ name: 'Cruise', priceCategories: [{ name: 'Adult', price: 4000, type: 'ADULT' }, { name: 'Child', price: 2050, type: 'CHILD' }] });
    const priced = await t.request('GET', `/octo/products/${cruise.id}`, { headers: { 'octo-capabilities': 'octo/pricing' } });
    expect(priced.headers.get('octo-capabilities')).toBe('octo/pricing');
    const product = OctoProduct.parse(priced.body);
    expect(product).toMatchObject({ defaultCurrency: 'EUR', availableCurrencies: ['EUR'], pricingPer: 'UNIT' });
    const price = (cents: number) => ({ original: cents, retail: cents, net: null, currency: 'EUR', currencyPrecision: 2, includedTaxes: [] });
    expect(product.options[0]!.units.map((u) => u.pricingFrom)).toEqual([[price(4000)], [price(2050)]]);
    const adult = OctoProduct.parse((await t.request('GET', `/octo/products/${walk.id}`, { headers: { 'octo-capabilities': 'octo/pricing' } })).body);
    expect(adult.options[0]!.units[0]!.pricingFrom).toEqual([price(2500)]);
    const plain = await t.request('GET', `/octo/products/${cruise.id}`);
    expect(plain.headers.get('octo-capabilities')).toBe('');
    expect(plain.body).not.toHaveProperty('pricingPer');
    expect(plain.body.options[0].units[0]).not.toHaveProperty('pricingFrom');
  });

  it('refuses a product that is inactive, has no schedule or belongs to another organization', async () => {
    const retired = await newExperience({ active: false });
    const onRequest = await newExperience({ schedule: null });
    expectOctoError(await t.request('GET', `/octo/products/${retired.id}`), 'INVALID_PRODUCT_ID', { productId: retired.id });
    expectOctoError(await t.request('GET', `/octo/products/${onRequest.id}`), 'INVALID_PRODUCT_ID', { productId: onRequest.id });
    const walk = await newExperience({});
    const other = await t.addOrganization({ name: 'Other Tours', email: 'owner@other.example' });
    expectOctoError(await t.request('GET', `/octo/products/${walk.id}`, { key: other.secretKey }), 'INVALID_PRODUCT_ID', { productId: walk.id });
    expect(((await t.request('GET', '/octo/products', { key: other.secretKey })).body as unknown[]).length).toBe(0);
  });
});
