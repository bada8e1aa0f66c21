import { z } from 'zod';
import { DisplayName, Email, EmailString, Instant, TimeZone } from './common.js';

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
  })
  .partial()
  .refine((o) => Object.keys(o).length > 0, { message: 'Send at least one field to change' });
export type OrganizationPatch = z.infer<typeof OrganizationPatch>;
