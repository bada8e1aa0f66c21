import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createTestApp, expectData, expectError, expectValidationError, insertBookingRow, manualClock, type ManualClock, type TestApp,
} from '../test-helpers/index.js';
import { Experience, Organization } from '../../shared/index.js';

describe('organization', () => {
  let t: TestApp;
  let clock: ManualClock;
  beforeEach(async () => {
    clock = manualClock(Date.UTC(2026, 2, 1, 9, 0, 0));
    t = await createTestApp({ now: clock.now, org: { name: 'Lisbon Walks', email: 'hello@lisbonwalks.example', timezone: 'Europe/Lisbon', currency: 'EUR' } });
  });
  afterEach(() => t.close());

  const patch = (body: unknown) => t.request('PATCH', '/v1/organization', { body });

  it('returns the caller’s organization with every field', async () => {
    const org = expectData(await t.request('GET', '/v1/organization'), Organization);
    expect(org).toEqual({
      id: t.orgId,
      name: 'Lisbon Walks',
      email: 'hello@lisbonwalks.example',
      phone: null,
      timezone: 'Europe/Lisbon',
      currency: 'EUR',
      onlinePayments: false,
      cancellationCutoffHours: 24,
      guestSelfService: true,
      notificationEmails: [],
      notifyOn: ['BOOKING_CREATED', 'BOOKING_CANCELED'],
      brandColor: null,
      logoUrl: null,
      giftVoucherAmounts: [],
      waitlistOfferMinutes: 720,
      defaultLocale: 'en',
      createdAt: '2026-03-01T09:00:00.000Z',
      updatedAt: '2026-03-01T09:00:00.000Z',
    });
    expect(Object.keys(org).sort()).toEqual(
      ['id', 'name', 'email', 'phone', 'timezone', 'currency', 'onlinePayments', 'cancellationCutoffHours', 'guestSelfService',
        'notificationEmails', 'notifyOn', 'brandColor', 'logoUrl', 'giftVoucherAmounts', 'waitlistOfferMinutes', 'defaultLocale', 'createdAt', 'updatedAt'].sort(),
    );
  });

  it('answers each key with its own organization', async () => {
    const other = await t.addOrganization({ name: 'Porto Boats' });
    expect(expectData(await t.request('GET', '/v1/organization', { key: other.secretKey }), Organization).name).toBe('Porto Boats');
    expect(expectData(await t.request('GET', '/v1/organization'), Organization).name).toBe('Lisbon Walks');
  });

  it('changes every field and returns the updated record', async () => {
    clock.advance(60_000);
    const updated = expectData(
      await patch({
        name: 'Lisbon Walks & Talks',
        email: 'team@lw.example',
        phone: '+351 21 000 0000',
        timezone: 'America/New_York',
        currency: 'USD',
        onlinePayments: true,
        cancellationCutoffHours: 48,
        guestSelfService: false,
      }),
      Organization,
    );
    expect(updated).toMatchObject({
      id: t.orgId,
      name: 'Lisbon Walks & Talks',
      email: 'team@lw.example',
      phone: '+351 21 000 0000',
      timezone: 'America/New_York',
      currency: 'USD',
      onlinePayments: true,
      cancellationCutoffHours: 48,
      guestSelfService: false,
      createdAt: '2026-03-01T09:00:00.000Z',
      updatedAt: '2026-03-01T09:01:00.000Z',
    });
    expect(expectData(await t.request('GET', '/v1/organization'), Organization)).toEqual(updated);
  });

  it('changes one field and leaves the others alone', async () => {
    await patch({ phone: '+351 1' });
    const org = expectData(await patch({ name: 'Renamed' }), Organization);
    expect(org).toMatchObject({ name: 'Renamed', phone: '+351 1', email: 'hello@lisbonwalks.example', currency: 'EUR' });
  });

  it('clears the phone with null', async () => {
    await patch({ phone: '+351 1' });
    expect(expectData(await patch({ phone: null }), Organization).phone).toBeNull();
  });

  it('accepts a phone of 40 characters and refuses 41', async () => {
    expectData(await patch({ phone: '1'.repeat(40) }), Organization);
    expectValidationError(await patch({ phone: '1'.repeat(41) }), 'phone');
    expectValidationError(await patch({ phone: 351 }), 'phone');
    expectValidationError(await patch({ cancellationCutoffHours: -1 }), 'cancellationCutoffHours');
    expectValidationError(await patch({ cancellationCutoffHours: 721 }), 'cancellationCutoffHours');
    expectValidationError(await patch({ cancellationCutoffHours: 1.5 }), 'cancellationCutoffHours');
    expectValidationError(await patch({ guestSelfService: 'yes' }), 'guestSelfService');
  });

  it('accepts IANA time zones the runtime knows and refuses others', async () => {
    for (const timezone of ['UTC', 'Asia/Kolkata', 'America/Argentina/Buenos_Aires', 'Pacific/Chatham']) {
      expect(expectData(await patch({ timezone }), Organization).timezone).toBe(timezone);
    }
    for (const timezone of ['Mars/Olympus_Mons', 'Lisbon', '', '+01:00', 'Europe/Lisbon ', 42, null]) {
      expectValidationError(await patch({ timezone }), 'timezone');
    }
  });

  it('accepts two-decimal ISO 4217 currencies and refuses JPY, three-decimal and unknown codes', async () => {
    for (const currency of ['GBP', 'USD', 'CHF', 'EUR']) {
      expect(expectData(await patch({ currency }), Organization).currency).toBe(currency);
    }
    for (const currency of ['JPY', 'KWD', 'BHD', 'XXX', 'eur', 'EURO', '', 978, null]) {
      expectValidationError(await patch({ currency }), 'currency');
    }
  });

  it('refuses a currency change once the organization has bookings with 409 CONFLICT', async () => {
    const exp = expectData(
      await t.request('POST', '/v1/experiences', { body: { name: 'Walk', description: '', duration: 60, price: 1000, maxParticipants: 5 } }),
      Experience,
      201,
    );
    await insertBookingRow(t.store, { orgId: t.orgId, experienceId: exp.id });
    expectError(await patch({ currency: 'USD' }), 409, 'CONFLICT');
    expect(expectData(await t.request('GET', '/v1/organization'), Organization).currency).toBe('EUR');
    // The same currency again is no change, and other fields still change.
    expect(expectData(await patch({ currency: 'EUR', name: 'Still fine' }), Organization).name).toBe('Still fine');
  });

  it('does not count another organization’s bookings', async () => {
    const other = await t.addOrganization();
    const exp = expectData(
      await t.request('POST', '/v1/experiences', { key: other.secretKey, body: { name: 'Walk', description: '', duration: 60, price: 1000, maxParticipants: 5 } }),
      Experience,
      201,
    );
    await insertBookingRow(t.store, { orgId: other.orgId, experienceId: exp.id });
    expect(expectData(await patch({ currency: 'GBP' }), Organization).currency).toBe('GBP');
  });

  it('validates name, e-mail and onlinePayments', async () => {
    expectValidationError(await patch({ name: '' }), 'name');
    expectValidationError(await patch({ name: '   ' }), 'name');
    expectValidationError(await patch({ name: 'x'.repeat(201) }), 'name');
    expect(expectData(await patch({ name: 'x'.repeat(200) }), Organization).name).toHaveLength(200);
    for (const email of ['not-an-email', 'a@', '@b.co', '', `${'a'.repeat(250)}@b.co`]) {
      expectValidationError(await patch({ email }), 'email');
    }
    for (const onlinePayments of ['true', 1, null]) expectValidationError(await patch({ onlinePayments }), 'onlinePayments');
    expectValidationError(await patch({ name: null }), 'name');
  });

  it('refuses an empty body', async () => {
    expectError(await patch({}), 400, 'VALIDATION_ERROR');
    expectError(await t.request('PATCH', '/v1/organization'), 400, 'VALIDATION_ERROR');
  });

  it('refuses an unknown field, naming it in details', async () => {
    const details = expectValidationError(await patch({ name: 'Ok', colour: 'blue' }), 'colour');
    expect(details.find((d) => d.path === 'colour')?.message).toMatch(/unknown/i);
    expectValidationError(await patch({ id: 'org_x' }), 'id');
    expectValidationError(await patch({ createdAt: '2026-01-01T00:00:00.000Z' }), 'createdAt');
    expect(expectData(await t.request('GET', '/v1/organization'), Organization).name).toBe('Lisbon Walks');
  });

  it('names every bad field at once', async () => {
    const details = expectValidationError(await patch({ name: '', email: 'x', currency: 'JPY' }), 'name');
    expect(details.map((d) => d.path).sort()).toEqual(['currency', 'email', 'name']);
  });

  it('changes nothing when any field is bad', async () => {
    await patch({ name: 'New name', currency: 'JPY' });
    expect(expectData(await t.request('GET', '/v1/organization'), Organization).name).toBe('Lisbon Walks');
  });
});
