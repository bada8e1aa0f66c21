import type { OrganizationRow } from './store/organizations.js';
import type { ExperienceRow } from './store/experiences.js';
import type { BookingView } from './store/bookings.js';
import type { CustomerView } from './store/customers.js';
import { formatMoney } from './domain/money.js';
import { slotId } from './domain/slots.js';
import type { Booking, Customer, Experience, Organization, Schedule } from '../shared/index.js';

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;
const LAST_FAST_MS = Date.UTC(9999, 11, 31, 23, 59); // four-digit years only
const dayPrefixes = new Map<number, string>(); // epoch day → 'YYYY-MM-DDT'
const minuteSuffixes: string[] = []; // minute of the day → 'HH:MM:00.000Z'

/**
 * Epoch milliseconds to the contract's instant: UTC with milliseconds, exactly as
 * `Date#toISOString` writes it. Availability writes two per slot (hundreds per response), and
 * slots start on whole minutes: those are assembled from a cached date and a cached time of day,
 * several times faster than formatting a Date.
 */
export function iso(ms: number): string {
  if (ms % MINUTE_MS !== 0 || ms < 0 || ms > LAST_FAST_MS) return new Date(ms).toISOString();
  const day = Math.floor(ms / DAY_MS);
  let prefix = dayPrefixes.get(day);
  if (prefix === undefined) {
    prefix = new Date(day * DAY_MS).toISOString().slice(0, 11);
    if (dayPrefixes.size >= 20_000) dayPrefixes.clear(); // bounded: ~55 years of days
    dayPrefixes.set(day, prefix);
  }
  const minute = (ms - day * DAY_MS) / MINUTE_MS;
  return prefix + (minuteSuffixes[minute] ??= new Date(minute * MINUTE_MS).toISOString().slice(11));
}
export const isoOrNull = (ms: number | null): string | null => (ms === null ? null : iso(ms));

export function serializeOrganization(row: OrganizationRow): Organization {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    phone: row.phone,
    timezone: row.timezone,
    currency: row.currency,
    onlinePayments: row.onlinePayments === 1,
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
  };
}

export function serializeExperience(row: ExperienceRow, currency: string): Experience {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    duration: row.duration,
    price: row.price,
    currency,
    maxParticipants: row.maxParticipants,
    maxPerBooking: row.maxPerBooking ?? row.maxParticipants,
    schedule: row.schedule === null ? null : (JSON.parse(row.schedule) as Schedule),
    minNoticeMinutes: row.minNoticeMinutes,
    maxAdvanceDays: row.maxAdvanceDays,
    active: row.active === 1,
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
  };
}

export function serializeBooking(b: BookingView): Booking {
  return {
    id: b.id,
    bookingNumber: b.bookingNumber,
    status: b.status,
    experience: { id: b.experienceId, title: b.experienceName },
    timeSlot: { id: slotId(b.experienceId, b.slotStart), startTime: iso(b.slotStart), endTime: iso(b.slotEnd) },
    customerId: b.customerId,
    guestName: b.guestName,
    guestEmail: b.guestEmail,
    guestPhone: b.guestPhone,
    totalParticipants: b.participants,
    unitPrice: b.unitPrice,
    total: formatMoney(b.unitPrice * b.participants),
    currency: b.currency,
    source: b.source,
    metadata: JSON.parse(b.metadata) as Record<string, string>,
    cancellationReason: b.cancellationReason,
    cancelledAt: isoOrNull(b.cancelledAt),
    holdExpiresAt: isoOrNull(b.holdExpiresAt),
    createdAt: iso(b.createdAt),
    updatedAt: iso(b.updatedAt),
  };
}

export function serializeCustomer(c: CustomerView, currency: string): Customer {
  return {
    id: c.id,
    name: c.name,
    email: c.email,
    phone: c.phone,
    bookingCount: c.bookingCount,
    totalSpent: formatMoney(c.spentCents),
    currency,
    firstBookingAt: isoOrNull(c.firstBookingAt),
    lastBookingAt: isoOrNull(c.lastBookingAt),
    createdAt: iso(c.createdAt),
    updatedAt: iso(c.updatedAt),
  };
}
