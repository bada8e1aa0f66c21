import type { Store } from './store/index.js';
import { SYSTEM, type Actor } from './domain/actor.js';
import { createOrganization } from './services/organizations.js';
import { createExperience } from './services/experiences.js';
import { randomBytes } from 'node:crypto';
import { hashPassword } from './domain/passwords.js';
import { HOUR_MS, historyStart, seedDemoHistory } from './demo-history.js';

export const DEMO_ORG_SETTING = 'demo.organizationId';
export const DEMO_KEY_SETTING = 'demo.publishableKey';

export interface DemoSeed {
  organizationId: string;
  apiKey: string;
  publishableKey: string;
  icalFeedUrl: string;
  /** The demo owner, who signs in to the dashboard; the password exists only here and in the banner. */
  ownerEmail: string;
  ownerPassword: string;
  dashboardUrl: string;
}

/**
 * On an empty database, a small tour company with three experiences on weekly schedules (the
 * workshop sold as adult, child and infant tickets) and a month of bookings behind it (demo-history.ts). The publishable key is kept so that `/demo` can
 * embed it on later starts; it is meant for web pages.
 */
export async function seedDemo(store: Store, publicUrl: string, now: number): Promise<DemoSeed | undefined> {
  if (await store.organizations.countOrganizations() > 0) return undefined;
  // Generated, never a fixed demo password: a demo left running on a public address stays closed.
  const ownerPassword = randomBytes(12).toString('base64url');
  const passwordHash = await hashPassword(ownerPassword);
  const planted = await plantDemo(store, publicUrl, passwordHash, now);
  return planted && { ...planted, ownerPassword };
}

/**
 * The demo's records, in one transaction: seedDemo after the password's hash, which takes its
 * time on purpose. Undefined when the database has an organization already.
 */
export async function plantDemo(store: Store, publicUrl: string, passwordHash: string, now: number): Promise<Omit<DemoSeed, 'ownerPassword'> | undefined> {
  const ownerEmail = 'hello@lisbonwalks.example';
  const timezone = 'Europe/Lisbon';
  // The company opened the morning before its month of history, so every booking finds its tours there.
  const opened = historyStart(now, timezone) - 15 * HOUR_MS;
  return await store.transaction(async () => {
    // Checked again: the hash took a moment, in which another process may have seeded the file.
    if (await store.organizations.countOrganizations() > 0) return undefined;
    const created = await createOrganization(
      store,
      {
        name: 'Lisbon Walks',
        email: ownerEmail,
        timezone,
        currency: 'EUR',
        owner: { email: ownerEmail, name: 'Lisbon Walks', passwordHash },
      },
      publicUrl,
      opened,
    );
    const orgId = created.organization.id;
    const walk = await createExperience(store, orgId, {
      name: 'Alfama Old Town Walk',
      description:
        'Two hours through the oldest quarter of Lisbon: tiled façades, fado houses, the Sé cathedral and the view from Miradouro de Santa Luzia.',
      duration: 120,
      price: 2500,
      maxParticipants: 12,
      maxPerBooking: 6,
      minNoticeMinutes: 60,
      schedule: {
        weekly: { mon: ['10:00', '15:00'], tue: ['10:00', '15:00'], wed: ['10:00', '15:00'], thu: ['10:00', '15:00'], fri: ['10:00', '15:00'], sat: ['09:30', '11:30', '15:00'], sun: ['11:30'] },
        exceptions: [{ date: '2026-12-25', times: [] }, { date: '2027-01-01', times: [] }],
      },
    }, opened + 1, SYSTEM);
    const sail = await createExperience(store, orgId, {
      name: 'Sunset Sail on the Tagus',
      description: 'Ninety minutes on a classic sailboat past Belém Tower and under the 25 de Abril bridge, with a glass of vinho verde.',
      duration: 90,
      price: 4500,
      maxParticipants: 8,
      minNoticeMinutes: 120,
      schedule: { weekly: { wed: ['18:30'], fri: ['18:30'], sat: ['18:00'], sun: ['18:00'] } },
    }, opened + 2, SYSTEM);
    // Sold in price categories, so a newcomer sees tickets at once: children pay less, and babies
    // on a parent's lap come free and take no place at the counter.
    const workshop = await createExperience(store, orgId, {
      name: 'Pastel de Nata Workshop',
      description: 'Learn to bake the famous custard tarts with a local pastry chef, then eat your work with a bica.',
      duration: 150,
      price: 6000,
      maxParticipants: 10,
      maxPerBooking: 4,
      maxAdvanceDays: 90,
      schedule: { weekly: { tue: ['14:00'], thu: ['14:00'], sat: ['10:00'] } },
      priceCategories: [
        { name: 'Adult', price: 6000, type: 'ADULT', minAge: 13 },
        { name: 'Child', price: 3500, type: 'CHILD', minAge: 6, maxAge: 12 },
        { name: 'Infant', price: 0, type: 'INFANT', occupiesPlace: false, maxAge: 2 },
      ],
    }, opened + 3, SYSTEM);
    const owner: Actor = { type: 'user', id: created.ownerId ?? null, name: 'Lisbon Walks', ip: null };
    await seedDemoHistory(store, orgId, [{ row: walk }, { row: sail, keepOpenSlotsEmpty: true }, { row: workshop }], owner, now);
    // The history's guests are made up (example.net): their e-mails show in the log, never go out.
    await store.messages.skipPendingMessagesOf(orgId, 'Demo data: not sent');
    await store.settings.setSetting(DEMO_ORG_SETTING, orgId);
    await store.settings.setSetting(DEMO_KEY_SETTING, created.publishableKey);
    return {
      organizationId: orgId,
      apiKey: created.apiKey,
      publishableKey: created.publishableKey,
      icalFeedUrl: created.icalFeedUrl,
      ownerEmail,
      dashboardUrl: `${publicUrl}/dashboard`,
    };
  });
}

/** The demo organization's publishable key, which `/demo` embeds; undefined without a demo. */
export async function demoPublishableKey(store: Store): Promise<string | undefined> {
  return await store.settings.getSetting(DEMO_KEY_SETTING);
}
