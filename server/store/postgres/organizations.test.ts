import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Async } from '../index.js';
import type { OrganizationRow, organizationStore } from '../organizations.js';
import { bothEngines, refusedOnBoth, sameOnBoth, REFUSALS, type BothEngines } from '../../test-helpers/engines.js';
import { testDatabaseUrl } from '../../test-helpers/postgres.js';
import { organizationStorePg } from './organizations.js';

type Engine = Async<ReturnType<typeof organizationStore>>;


describe.skipIf(!testDatabaseUrl())('organizationStorePg answers as the SQLite store does', () => {
  let e: BothEngines;
  let pg: Engine;
  beforeEach(async () => {
    e = await bothEngines();
    pg = organizationStorePg(e.pgDb);
  });
  afterEach(async () => {
    await e.close();
  });

  const same = <T>(call: (s: Engine) => Promise<T>) => sameOnBoth<Engine, T>(e.sqlite, pg, call);

  const bothRefuse = (call: (s: Engine) => Promise<unknown>, why: keyof typeof REFUSALS) => refusedOnBoth<Engine>(e.sqlite, pg, call, why);

  const org = (id: string, fields: Partial<OrganizationRow> = {}): OrganizationRow => ({
    id, name: `Org ${id}`, email: `${id}@example.com`, phone: null, timezone: 'Europe/Lisbon', currency: 'EUR',
    onlinePayments: 0, cancellationCutoffHours: 24, guestSelfService: 1, createdAt: 1_700_000_000_000, updatedAt: 1_700_000_000_000,
    ...fields,
  });

  it('inserts, reads, counts and updates organizations', async () => {
    expect(await same((s) => s.countOrganizations())).toBe(0);
    expect(await same((s) => s.getOrganization('org_A'))).toBeUndefined();

    await same((s) => s.insertOrganization(org('org_A', { phone: '+351 210 000 000', onlinePayments: 1 })));
    await same((s) => s.insertOrganization(org('org_a', { currency: 'USD', guestSelfService: 0, cancellationCutoffHours: 0 })));
    expect(await same((s) => s.countOrganizations())).toBe(2);
    expect(await same((s) => s.getOrganization('org_A'))).toMatchObject({ id: 'org_A', phone: '+351 210 000 000', onlinePayments: 1 });
    expect(await same((s) => s.getOrganization('org_a'))).toMatchObject({ id: 'org_a', phone: null, currency: 'USD' });
    expect(await same((s) => s.getOrganization('ORG_A'))).toBeUndefined(); // ids compare byte for byte

    await bothRefuse((s) => s.insertOrganization(org('org_A')), 'unique');
    await bothRefuse((s) => s.insertOrganization(org('org_c', { cancellationCutoffHours: 721 })), 'check');
    expect(await same((s) => s.countOrganizations())).toBe(2);

    const changed = org('org_A', {
      name: 'Renamed', email: 'new@example.com', phone: null, timezone: 'America/New_York', currency: 'USD',
      onlinePayments: 0, cancellationCutoffHours: 720, guestSelfService: 0, createdAt: 1, updatedAt: 1_800_000_000_000,
    });
    await same((s) => s.updateOrganization(changed));
    // Every field but created_at changes.
    expect(await same((s) => s.getOrganization('org_A'))).toStrictEqual({ ...changed, createdAt: 1_700_000_000_000 });
    expect(await same((s) => s.getOrganization('org_a'))).toStrictEqual(org('org_a', { currency: 'USD', guestSelfService: 0, cancellationCutoffHours: 0 }));

    await same((s) => s.updateOrganization(org('org_missing'))); // no row, no error
    await bothRefuse((s) => s.updateOrganization(org('org_a', { guestSelfService: 2 })), 'check');
    expect(await same((s) => s.countOrganizations())).toBe(2);
    expect(await same((s) => s.getOrganization('org_missing'))).toBeUndefined();
  });

  it('lists organizations oldest first, ties by id, up to a limit', async () => {
    expect(await same((s) => s.listOrganizations(10))).toEqual([]);
    await same((s) => s.insertOrganization(org('org_b', { createdAt: 2 })));
    await same((s) => s.insertOrganization(org('org_c', { createdAt: 1 })));
    await same((s) => s.insertOrganization(org('org_a', { createdAt: 2 })));
    expect((await same((s) => s.listOrganizations(10))).map((o) => o.id)).toEqual(['org_c', 'org_a', 'org_b']);
    expect(await same((s) => s.listOrganizations(1))).toStrictEqual([org('org_c', { createdAt: 1 })]);
  });
});
