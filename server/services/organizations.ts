import { newId } from '../domain/ids.js';
import { CLI, type Actor } from '../domain/actor.js';
import { recordActivity } from './activity.js';
import { Refusal, notFound } from '../domain/refusal.js';
import { DEFAULT_NOTIFY_ON, type OrganizationRow } from '../store/organizations.js';
import type { Store } from '../store/index.js';
import { createApiKey } from './api-keys.js';
import { createCalendarFeed, feedUrl } from './calendar-feeds.js';
import { COMMAND_LINE, createUser } from './users.js';
import type { OrganizationPatch } from '../../shared/index.js';

export interface NewOrganization {
  name: string;
  email: string;
  timezone: string;
  currency: string;
  /** Its first user, an owner (`outing init`, the demo); without it the organization has no user yet. */
  owner?: { email: string; name: string; passwordHash?: string };
}

/** An organization ready to use: a secret key, a publishable key and a bookings feed (`outing init`). */
export async function createOrganization(store: Store, input: NewOrganization, publicUrl: string, now: number) {
  return await store.transaction(async () => {
    const org: OrganizationRow = {
      notificationEmails: '[]',
      notifyOn: DEFAULT_NOTIFY_ON,
      brandColor: null,
      logoUrl: null,
      giftVoucherAmounts: '[]',
      waitlistOfferMinutes: 720,
      defaultLocale: 'en',
      id: newId('organization'),
      name: input.name,
      email: input.email,
      phone: null,
      timezone: input.timezone,
      currency: input.currency,
      onlinePayments: 0,
      cancellationCutoffHours: 24,
      guestSelfService: 1,
      createdAt: now,
      updatedAt: now,
    };
    await store.organizations.insertOrganization(org);
    const secret = await createApiKey(store, { orgId: org.id, name: 'Default secret key', type: 'secret' }, now);
    const publishable = await createApiKey(store, { orgId: org.id, name: 'Default publishable key', type: 'publishable' }, now);
    const feed = await createCalendarFeed(store, { orgId: org.id, name: 'All bookings', experienceId: null }, now, CLI);
    const owner = input.owner && await createUser(store, org.id, COMMAND_LINE, { ...input.owner, role: 'owner' }, publicUrl, now);
    return {
      organization: org,
      ownerId: owner?.user.id,
      ownerSetupUrl: owner?.setupUrl ?? null,
      apiKeyId: secret.id,
      apiKey: secret.key,
      publishableKey: publishable.key,
      icalFeedUrl: feedUrl(publicUrl, feed.token),
    };
  });
}

export async function updateOrganization(store: Store, orgId: string, patch: OrganizationPatch, now: number, actor: Actor): Promise<OrganizationRow> {
  return await store.transaction(async () => {
    const current = await getOrganization(store, orgId);
    if (patch.currency !== undefined && patch.currency !== current.currency && await store.bookings.orgHasBookings(orgId)) {
      throw new Refusal('CONFLICT', 'The currency cannot change once the organization has bookings');
    }
    const next: OrganizationRow = {
      ...current,
      name: patch.name ?? current.name,
      email: patch.email ?? current.email,
      phone: patch.phone === undefined ? current.phone : patch.phone,
      timezone: patch.timezone ?? current.timezone,
      currency: patch.currency ?? current.currency,
      onlinePayments: patch.onlinePayments === undefined ? current.onlinePayments : patch.onlinePayments ? 1 : 0,
      cancellationCutoffHours: patch.cancellationCutoffHours ?? current.cancellationCutoffHours,
      guestSelfService: patch.guestSelfService === undefined ? current.guestSelfService : patch.guestSelfService ? 1 : 0,
      notificationEmails: patch.notificationEmails === undefined ? current.notificationEmails : JSON.stringify(patch.notificationEmails.map((e) => e.trim())),
      notifyOn: patch.notifyOn === undefined ? current.notifyOn : JSON.stringify(patch.notifyOn),
      brandColor: patch.brandColor === undefined ? current.brandColor : patch.brandColor,
      logoUrl: patch.logoUrl === undefined ? current.logoUrl : patch.logoUrl,
      giftVoucherAmounts: patch.giftVoucherAmounts === undefined ? current.giftVoucherAmounts : JSON.stringify(patch.giftVoucherAmounts),
      waitlistOfferMinutes: patch.waitlistOfferMinutes ?? current.waitlistOfferMinutes,
      defaultLocale: patch.defaultLocale ?? current.defaultLocale,
      updatedAt: now,
    };
    await store.organizations.updateOrganization(next);
    await recordActivity(store, orgId, actor, { action: 'organization.update', targetType: 'organization', targetId: orgId, summary: `Changed ${Object.keys(patch).join(', ')} of the organization` }, now);
    return next;
  });
}

/** The caller's organization; every request names one that exists, but a deleted one is a 404. */
export async function getOrganization(store: Store, orgId: string): Promise<OrganizationRow> {
  const org = await store.organizations.getOrganization(orgId);
  if (!org) throw notFound('Organization');
  return org;
}
