import type { Sql } from './sql.js';
import { bookingStore, type BookingStore } from './bookings.js';
import { eventStore, type EventStore } from './events.js';
import { userStore, type UserStore } from './users.js';
import { settingsStore, type SettingsStore } from './settings.js';
import { organizationStore, type OrganizationStore } from './organizations.js';
import { apiKeyStore, type ApiKeyStore } from './api-keys.js';
import { rateLimitStore, type RateLimitStore } from './rate-limits.js';
import { idempotencyStore, type IdempotencyStore } from './idempotency.js';
import { paymentStore, type PaymentStore } from './payments.js';
import { refundStore, type RefundStore } from './refunds.js';
import { manifestStore, type ManifestStore } from './manifest.js';
import { reportStore, type ReportStore } from './reports.js';
import { webhookStore, type WebhookStore } from './webhooks.js';
import { messageStore, type MessageStore } from './messages.js';
import { experienceStore, type ExperienceStore } from './experiences.js';
import { calendarFeedStore, type CalendarFeedStore } from './calendar-feeds.js';
import { activityStore, type ActivityStore } from './activity.js';
import { customerStore, type CustomerStore } from './customers.js';
import { calendarImportStore, type CalendarImportStore } from './calendar-imports.js';
import { slotStore, type SlotStore } from './slots.js';
import { giftVoucherStore, type GiftVoucherStore } from './gift-vouchers.js';
import { giftVoucherPurchaseStore, type GiftVoucherPurchaseStore } from './gift-voucher-purchases.js';
import { promoCodeStore, type PromoCodeStore } from './promo-codes.js';
import { codeFailureStore, type CodeFailureStore } from './code-failures.js';
import { waitlistStore, type WaitlistStore } from './waitlist.js';
import { octoBookingStore, type OctoBookingStore } from './octo-bookings.js';

/**
 * The store's slices written once over the port, one per resource: a service asks for the slice it
 * needs (`store.users`), and two modules can never answer to one name.
 */
export interface WrittenOnce {
  users: UserStore;
  settings: SettingsStore;
  organizations: OrganizationStore;
  apiKeys: ApiKeyStore;
  rateLimits: RateLimitStore;
  idempotency: IdempotencyStore;
  payments: PaymentStore;
  refunds: RefundStore;
  manifest: ManifestStore;
  reports: ReportStore;
  webhooks: WebhookStore;
  messages: MessageStore;
  experiences: ExperienceStore;
  calendarFeeds: CalendarFeedStore;
  activity: ActivityStore;
  customers: CustomerStore;
  calendarImports: CalendarImportStore;
  bookings: BookingStore;
  slots: SlotStore;
  promoCodes: PromoCodeStore;
  events: EventStore;
  giftVouchers: GiftVoucherStore;
  giftVoucherPurchases: GiftVoucherPurchaseStore;
  codeFailures: CodeFailureStore;
  waitlist: WaitlistStore;
  octoBookings: OctoBookingStore;
}

/** Every slice written once, over one engine's driver. */
export function slicesOver(sql: Sql): WrittenOnce {
  return {
    users: userStore(sql),
    settings: settingsStore(sql),
    organizations: organizationStore(sql),
    apiKeys: apiKeyStore(sql),
    rateLimits: rateLimitStore(sql),
    idempotency: idempotencyStore(sql),
    payments: paymentStore(sql),
    refunds: refundStore(sql),
    manifest: manifestStore(sql),
    reports: reportStore(sql),
    webhooks: webhookStore(sql),
    messages: messageStore(sql),
    experiences: experienceStore(sql),
    calendarFeeds: calendarFeedStore(sql),
    activity: activityStore(sql),
    customers: customerStore(sql),
    calendarImports: calendarImportStore(sql),
    bookings: bookingStore(sql),
    slots: slotStore(sql),
    promoCodes: promoCodeStore(sql),
    events: eventStore(sql),
    giftVouchers: giftVoucherStore(sql),
    giftVoucherPurchases: giftVoucherPurchaseStore(sql),
    codeFailures: codeFailureStore(sql),
    waitlist: waitlistStore(sql),
    octoBookings: octoBookingStore(sql),
  };
}
