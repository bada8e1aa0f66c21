import type { OrganizationRow } from '../store/organizations.js';
import { iso } from './instant.js';
import { notificationEmailsOf, notifyOnOf } from '../domain/notices.js';
import type { Locale, Organization } from '../../shared/index.js';

export function serializeOrganization(row: OrganizationRow): Organization {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    phone: row.phone,
    timezone: row.timezone,
    currency: row.currency,
    onlinePayments: row.onlinePayments === 1,
    cancellationCutoffHours: row.cancellationCutoffHours,
    guestSelfService: row.guestSelfService === 1,
    notificationEmails: notificationEmailsOf(row),
    notifyOn: notifyOnOf(row),
    brandColor: row.brandColor,
    logoUrl: row.logoUrl,
    giftVoucherAmounts: JSON.parse(row.giftVoucherAmounts) as string[],
    waitlistOfferMinutes: row.waitlistOfferMinutes,
    defaultLocale: row.defaultLocale as Locale,
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
  };
}
