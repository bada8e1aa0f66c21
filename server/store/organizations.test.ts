import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Store } from './index.js';
import type { OrganizationRow } from './organizations.js';
import { openTestStore, testEngine } from '../test-helpers/index.js';
import { openTwoStores } from '../test-helpers/process-database.js';
import { REFUSALS } from '../test-helpers/engines.js';

/** What a write broken by this kind of constraint rejects with, on the engine under test. */
const refusal = (why: keyof typeof REFUSALS) => ({
  code: testEngine() === 'sqlite' ? expect.stringMatching(REFUSALS[why].sqlite) : REFUSALS[why].pg,
});

const org = (id: string, fields: Partial<OrganizationRow> = {}): OrganizationRow => ({
  id, name: `Org ${id}`, email: `${id}@example.com`, phone: null, timezone: 'Europe/Lisbon', currency: 'EUR',
  onlinePayments: 0, cancellationCutoffHours: 24, guestSelfService: 1,
  notificationEmails: '[]', notifyOn: '["BOOKING_CREATED","BOOKING_CANCELED"]', brandColor: null, logoUrl: null, giftVoucherAmounts: '[]', waitlistOfferMinutes: 720, defaultLocale: 'en',
  createdAt: 1_700_000_000_000, updatedAt: 1_700_000_000_000,
  ...fields,
});

describe(`organization store (${testEngine()})`, () => {
  let opened: Awaited<ReturnType<typeof openTestStore>>;
  let store: Store;
  beforeEach(async () => {
    opened = await openTestStore();
    store = opened.store;
  });
  afterEach(async () => {
    await opened.close();
  });

  it('inserts, reads and counts organizations; ids compare byte for byte', async () => {
    expect(await store.organizations.countOrganizations()).toBe(0);
    expect(await store.organizations.getOrganization('org_A')).toBeUndefined();
    await store.organizations.insertOrganization(org('org_A', { phone: '+351 210 000 000', onlinePayments: 1 }));
    await store.organizations.insertOrganization(org('org_a', { currency: 'USD', guestSelfService: 0, cancellationCutoffHours: 0 }));
    expect(await store.organizations.countOrganizations()).toBe(2);
    const found = await store.organizations.getOrganization('org_A');
    expect(found).toStrictEqual({
      id: 'org_A', name: 'Org org_A', email: 'org_A@example.com', phone: '+351 210 000 000', timezone: 'Europe/Lisbon',
      currency: 'EUR', onlinePayments: 1, cancellationCutoffHours: 24, guestSelfService: 1,
      notificationEmails: '[]', notifyOn: '["BOOKING_CREATED","BOOKING_CANCELED"]', brandColor: null, logoUrl: null, giftVoucherAmounts: '[]',
      waitlistOfferMinutes: 720, defaultLocale: 'en', createdAt: 1_700_000_000_000, updatedAt: 1_700_000_000_000,
    });
    // The order of the row's keys is the order of the JSON written from it.
    expect(Object.keys(found!)).toEqual([
      'id', 'name', 'email', 'phone', 'timezone', 'currency', 'onlinePayments', 'cancellationCutoffHours', 'guestSelfService',
      'notificationEmails', 'notifyOn', 'brandColor', 'logoUrl', 'giftVoucherAmounts', 'waitlistOfferMinutes', 'defaultLocale', 'createdAt', 'updatedAt',
    ]);
    expect(await store.organizations.getOrganization('org_a')).toStrictEqual(
      org('org_a', { currency: 'USD', guestSelfService: 0, cancellationCutoffHours: 0 }),
    );
    expect(await store.organizations.getOrganization('ORG_A')).toBeUndefined();
  });

  it('refuses a second organization with an id, and values outside the checks', async () => {
    await store.organizations.insertOrganization(org('org_A'));
    await expect(store.organizations.insertOrganization(org('org_A', { name: 'Again' }))).rejects.toMatchObject(refusal('unique'));
    await expect(store.organizations.insertOrganization(org('org_c', { cancellationCutoffHours: 721 }))).rejects.toMatchObject(refusal('check'));
    await expect(store.organizations.updateOrganization(org('org_A', { guestSelfService: 2 }))).rejects.toMatchObject(refusal('check'));
    expect(await store.organizations.countOrganizations()).toBe(1);
    expect(await store.organizations.getOrganization('org_A')).toStrictEqual(org('org_A'));
  });

  it('updates every field but the id and the creation time; an unknown id changes nothing', async () => {
    await store.organizations.insertOrganization(org('org_A'));
    await store.organizations.insertOrganization(org('org_a'));
    const changed = org('org_A', {
      name: 'Renamed', email: 'new@example.com', phone: '+1 212 555 0100', timezone: 'America/New_York', currency: 'USD',
      onlinePayments: 1, cancellationCutoffHours: 720, guestSelfService: 0, createdAt: 1, updatedAt: 1_800_000_000_000,
      notificationEmails: '["ops@example.com"]', notifyOn: '["BOOKING_UPDATED"]', brandColor: '#0b7285', logoUrl: 'https://example.com/logo.png', giftVoucherAmounts: '["25.00"]',
    });
    await store.organizations.updateOrganization(changed);
    expect(await store.organizations.getOrganization('org_A')).toStrictEqual({ ...changed, createdAt: 1_700_000_000_000 });
    expect(await store.organizations.getOrganization('org_a')).toStrictEqual(org('org_a'));
    await store.organizations.updateOrganization(org('org_missing'));
    expect(await store.organizations.getOrganization('org_missing')).toBeUndefined();
    expect(await store.organizations.countOrganizations()).toBe(2);
  });

  it('lists organizations oldest first, ties by id, up to a limit', async () => {
    expect(await store.organizations.listOrganizations(10)).toEqual([]);
    await store.organizations.insertOrganization(org('org_b', { createdAt: 2 }));
    await store.organizations.insertOrganization(org('org_c', { createdAt: 1 }));
    await store.organizations.insertOrganization(org('org_a', { createdAt: 2 }));
    await store.organizations.insertOrganization(org('org_B', { createdAt: 2 }));
    expect((await store.organizations.listOrganizations(10)).map((o) => o.id)).toEqual(['org_c', 'org_B', 'org_a', 'org_b']);
    expect(await store.organizations.listOrganizations(1)).toStrictEqual([org('org_c', { createdAt: 1 })]);
    expect(await store.organizations.listOrganizations(0)).toEqual([]);
  });

  it('sees an organization changed through the same store, inside and after its transaction', async () => {
    // Inserted without the notice and brand settings: they start at their defaults.
    const { notificationEmails: _n, notifyOn: _o, brandColor: _b, logoUrl: _l, giftVoucherAmounts: _g, waitlistOfferMinutes: _w, defaultLocale: _d, ...bare } = org('org_A');
    await store.organizations.insertOrganization(bare);
    expect(await store.organizations.getOrganization('org_A')).toStrictEqual(org('org_A'));
    const before = (await store.organizations.getOrganization('org_A'))!;
    await store.organizations.updateOrganization({ ...before, name: 'Renamed' });
    expect((await store.organizations.getOrganization('org_A'))?.name).toBe('Renamed');
    await store.transaction(async () => {
      await store.organizations.updateOrganization({ ...before, name: 'Inside' });
      expect((await store.organizations.getOrganization('org_A'))?.name).toBe('Inside');
    });
    expect((await store.organizations.getOrganization('org_A'))?.name).toBe('Inside');
  });

  it('forgets what a rolled-back nested transaction wrote, while its outer transaction goes on', async () => {
    await store.organizations.insertOrganization(org('org_A'));
    await store.transaction(async () => {
      expect((await store.organizations.getOrganization('org_A'))?.name).toBe('Org org_A');
      await expect(
        store.transaction(async () => {
          await store.organizations.updateOrganization(org('org_A', { name: 'Nested' }));
          expect((await store.organizations.getOrganization('org_A'))?.name).toBe('Nested');
          throw new Error('rolled back');
        }),
      ).rejects.toThrow('rolled back');
      expect((await store.organizations.getOrganization('org_A'))?.name).toBe('Org org_A');
    });
    expect((await store.organizations.getOrganization('org_A'))?.name).toBe('Org org_A');
  });

  it('forgets an organization inserted by a transaction that rolled back, though it was read inside it', async () => {
    await expect(
      store.transaction(async () => {
        await store.organizations.insertOrganization(org('org_A'));
        expect((await store.organizations.getOrganization('org_A'))?.id).toBe('org_A');
        expect(await store.organizations.countOrganizations()).toBe(1);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await store.organizations.getOrganization('org_A')).toBeUndefined();
    expect(await store.organizations.countOrganizations()).toBe(0);
  });
});

describe(`organizations seen at once across connections (${testEngine()})`, () => {
  it('sees an organization changed through another connection (the CLI, another process), inside a transaction too', async () => {
    const { store, other, close } = await openTwoStores();
    try {
      await store.organizations.insertOrganization(org('org_A'));
      expect((await store.organizations.getOrganization('org_A'))?.timezone).toBe('Europe/Lisbon');
      await other.organizations.updateOrganization(org('org_A', { timezone: 'Asia/Tokyo' }));
      expect((await store.organizations.getOrganization('org_A'))?.timezone).toBe('Asia/Tokyo');
      await other.organizations.updateOrganization(org('org_A', { timezone: 'Europe/Paris' }));
      await store.transaction(async () => {
        expect((await store.organizations.getOrganization('org_A'))?.timezone).toBe('Europe/Paris');
      });
      await other.organizations.insertOrganization(org('org_B'));
      expect(await store.organizations.countOrganizations()).toBe(2);
    } finally {
      await close();
    }
  });
});
