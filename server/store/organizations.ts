import type { Sql } from './sql.js';

export interface OrganizationRow {
  id: string;
  name: string;
  email: string;
  phone: string | null;
  timezone: string;
  currency: string;
  onlinePayments: number;
  cancellationCutoffHours: number;
  guestSelfService: number;
  /** JSON array of the addresses notices to the operator go to (0-5). */
  notificationEmails: string;
  /** JSON array of the booking event kinds that send a notice. */
  notifyOn: string;
  /** `#rrggbb`, lower-case: the accent of e-mails and the manage page. */
  brandColor: string | null;
  /** An https URL of the logo; never fetched by the server. */
  logoUrl: string | null;
  /** JSON array of the money strings gift vouchers are sold online for (migration 018); '[]' sells none. */
  giftVoucherAmounts: string;
  /** Minutes a waitlist offer holds its places (migration 019; default 720). */
  waitlistOfferMinutes: number;
  /** The language a booking or waitlist entry made without one speaks (migration 020; default 'en'). */
  defaultLocale: string;
  createdAt: number;
  updatedAt: number;
}

/** The fields a new organization starts with its defaults for (notices, brand). */
export type OrganizationDefaults = 'notificationEmails' | 'notifyOn' | 'brandColor' | 'logoUrl' | 'giftVoucherAmounts' | 'waitlistOfferMinutes' | 'defaultLocale';

/** The organizations (tenants) a server holds. */
export interface OrganizationStore {
  /** A new organization; the notice and brand settings start at their defaults unless given. */
  insertOrganization(row: Omit<OrganizationRow, OrganizationDefaults> & Partial<Pick<OrganizationRow, OrganizationDefaults>>): Promise<void>;
  getOrganization(id: string): Promise<OrganizationRow | undefined>;
  /** Every field but the id and the creation time; nothing happens when no organization has the id. */
  updateOrganization(row: OrganizationRow): Promise<void>;
  countOrganizations(): Promise<number>;
  /** Every organization on the server, oldest first (id breaking ties), up to `limit` (for the CLI). */
  listOrganizations(limit: number): Promise<OrganizationRow[]>;
}

/** The notices an organization gets until it says otherwise (the column's default too). */
export const DEFAULT_NOTIFY_ON = '["BOOKING_CREATED","BOOKING_CANCELED"]';

const COLUMNS = `id, name, email, phone, timezone, currency, online_payments AS "onlinePayments",
  cancellation_cutoff_hours AS "cancellationCutoffHours", guest_self_service AS "guestSelfService",
  notification_emails AS "notificationEmails", notify_on AS "notifyOn", brand_color AS "brandColor", logo_url AS "logoUrl",
  gift_voucher_amounts AS "giftVoucherAmounts", waitlist_offer_minutes AS "waitlistOfferMinutes",
  default_locale AS "defaultLocale", created_at AS "createdAt", updated_at AS "updatedAt"`;

export function organizationStore(sql: Sql): OrganizationStore {
  return {
    async insertOrganization(row) {
      await sql.run(
        `INSERT INTO organizations
          (id, name, email, phone, timezone, currency, online_payments, cancellation_cutoff_hours, guest_self_service,
            notification_emails, notify_on, brand_color, logo_url, gift_voucher_amounts, waitlist_offer_minutes, default_locale, created_at, updated_at)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [row.id, row.name, row.email, row.phone, row.timezone, row.currency, row.onlinePayments,
          row.cancellationCutoffHours, row.guestSelfService, row.notificationEmails ?? '[]',
          row.notifyOn ?? DEFAULT_NOTIFY_ON, row.brandColor ?? null, row.logoUrl ?? null, row.giftVoucherAmounts ?? '[]', row.waitlistOfferMinutes ?? 720, row.defaultLocale ?? 'en', row.createdAt, row.updatedAt],
      );
    },
    getOrganization: (id) => sql.getCached<OrganizationRow>(`SELECT ${COLUMNS} FROM organizations WHERE id = ?`, [id]),
    async updateOrganization(row) {
      await sql.run(
        `UPDATE organizations SET name = ?, email = ?, phone = ?, timezone = ?, currency = ?, online_payments = ?,
          cancellation_cutoff_hours = ?, guest_self_service = ?, notification_emails = ?, notify_on = ?,
          brand_color = ?, logo_url = ?, gift_voucher_amounts = ?, waitlist_offer_minutes = ?, default_locale = ?, updated_at = ?
          WHERE id = ?`,
        [row.name, row.email, row.phone, row.timezone, row.currency, row.onlinePayments,
          row.cancellationCutoffHours, row.guestSelfService, row.notificationEmails, row.notifyOn,
          row.brandColor, row.logoUrl, row.giftVoucherAmounts, row.waitlistOfferMinutes, row.defaultLocale, row.updatedAt, row.id],
      );
    },
    async countOrganizations() {
      const row = await sql.get<{ n: number }>('SELECT count(*) AS n FROM organizations');
      return row!.n; // count(*) always answers one row
    },
    listOrganizations: (limit) =>
      sql.all<OrganizationRow>(`SELECT ${COLUMNS} FROM organizations ORDER BY created_at, id LIMIT ?`, [limit]),
  };
}
