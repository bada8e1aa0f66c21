import { z } from 'zod';
import { DisplayName, Email, EmailString, Instant, Locale, MoneyString, TimeZone } from './common.js';

/** ISO 4217 codes with two minor digits. Zero- and three-decimal currencies (JPY, KWD…) are refused. */
export const TWO_DECIMAL_CURRENCIES = [
  'AED', 'ARS', 'AUD', 'BGN', 'BRL', 'CAD', 'CHF', 'CNY', 'COP', 'CZK', 'DKK', 'EGP', 'EUR', 'GBP',
  'GEL', 'HKD', 'HUF', 'IDR', 'ILS', 'INR', 'MAD', 'MXN', 'MYR', 'NOK', 'NZD', 'PEN', 'PHP', 'PLN',
  'QAR', 'RON', 'RSD', 'SAR', 'SEK', 'SGD', 'THB', 'TRY', 'TWD', 'UAH', 'USD', 'ZAR',
] as const;
export const CurrencyCode = z
  .string()
  .refine((c) => (TWO_DECIMAL_CURRENCIES as readonly string[]).includes(c), {
    message: 'Expected an ISO 4217 code with two decimal places, such as EUR, USD or GBP',
  })
  .describe('ISO 4217 code with two decimal places');

/** The booking events an organization may be told of by e-mail. */
export const NOTICE_EVENTS = ['BOOKING_CREATED', 'BOOKING_CANCELED', 'BOOKING_UPDATED'] as const;
export const NoticeEvent = z.enum(NOTICE_EVENTS);
export type NoticeEvent = z.infer<typeof NoticeEvent>;
export const DEFAULT_NOTICE_EVENTS: NoticeEvent[] = ['BOOKING_CREATED', 'BOOKING_CANCELED'];
export const MAX_NOTIFICATION_EMAILS = 5;

/** Refuses a list naming one value twice, at the second one's index. */
function distinct<T>(key: (item: T) => string, what: string) {
  return (list: T[], ctx: z.RefinementCtx) => {
    const seen = new Set<string>();
    list.forEach((item, index) => {
      const k = key(item);
      if (seen.has(k)) ctx.addIssue({ code: 'custom', path: [index], message: `${what} appears twice` });
      seen.add(k);
    });
  };
}

const NotificationEmails = z
  .array(Email)
  .max(MAX_NOTIFICATION_EMAILS, { message: `At most ${MAX_NOTIFICATION_EMAILS} addresses` })
  .superRefine(distinct((e: string) => e.trim().toLowerCase(), 'This address'))
  .describe('Where notices of booking events go: up to five distinct addresses; [] sends none');
const NotifyOn = z
  .array(NoticeEvent)
  .superRefine(distinct((e: string) => e, 'This kind'))
  .describe('The booking events that send a notice to each of `notificationEmails` (a check-in sends none)');
const BrandColor = z
  .string()
  .regex(/^#[0-9A-Fa-f]{6}$/, { message: 'Expected a colour as #rrggbb, such as #0b7285' })
  .transform((c) => c.toLowerCase())
  .describe('#rrggbb; stored lower-case');
const LogoUrl = z
  .url({ protocol: /^https$/, message: 'Expected an https URL' })
  .max(500)
  .describe('An https address of the logo; the server never fetches it');

const GiftVoucherAmounts = z
  .array(MoneyString.refine((a) => Number(a) >= 1, { message: 'At least 1.00' }))
  .max(6)
  .superRefine(distinct((a: string) => Number(a).toFixed(2), 'This amount'))
  .describe('0–6 distinct amounts (money strings, at least "1.00") the widget sells gift vouchers for; [] sells none online');

export const Organization = z.object({
  id: z.string(),
  name: z.string(),
  email: EmailString,
  phone: z.string().nullable(),
  timezone: z.string(),
  currency: z.string(),
  onlinePayments: z.boolean(),
  cancellationCutoffHours: z.int().describe('Guests may cancel or change a booking on their own until this many hours before it starts'),
  guestSelfService: z.boolean().describe('Whether guests may cancel or change their bookings on their own at all'),
  notificationEmails: z.array(EmailString).describe('Where notices of booking events go (up to five addresses)'),
  notifyOn: z.array(NoticeEvent).describe('The booking events that send a notice to each of `notificationEmails`'),
  brandColor: z.string().nullable().describe('#rrggbb, lower-case: the accent of HTML e-mails and the manage page'),
  logoUrl: z.string().nullable().describe('https URL of the logo shown in HTML e-mails and on the manage page'),
  giftVoucherAmounts: z.array(z.string()).describe('The gift voucher amounts sold online (money strings); [] sells none'),
  waitlistOfferMinutes: z.int().describe('How long a waitlist offer holds its places for the guest, in minutes (default 720)'),
  defaultLocale: Locale.describe('The language of bookings and waitlist entries made without one, and of gift voucher e-mails (default en)'),
  createdAt: Instant,
  updatedAt: Instant,
});
export type Organization = z.infer<typeof Organization>;

export const OrganizationPatch = z
  .strictObject({
    name: DisplayName(200),
    email: Email,
    phone: z.string().max(40).nullable(),
    timezone: TimeZone,
    currency: CurrencyCode,
    onlinePayments: z.boolean(),
    cancellationCutoffHours: z.int().min(0).max(720),
    guestSelfService: z.boolean(),
    notificationEmails: NotificationEmails,
    notifyOn: NotifyOn,
    brandColor: BrandColor.nullable(),
    logoUrl: LogoUrl.nullable(),
    giftVoucherAmounts: GiftVoucherAmounts,
    waitlistOfferMinutes: z.int().min(1).max(10_080).describe('1–10080 (a week): how long a waitlist offer holds its places'),
    defaultLocale: Locale.describe('One of en, pt, es, fr, de, it, nl'),
  })
  .partial()
  .refine((o) => Object.keys(o).length > 0, { message: 'Send at least one field to change' });
export type OrganizationPatch = z.infer<typeof OrganizationPatch>;
