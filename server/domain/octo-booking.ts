/**
 * The rules of a reseller's booking over OCTO (docs/octo-resellers.md): how its unit items become an
 * Outing party, what the reseller sees as its status, who the guest is and which language they
 * speak. Pure: data in, data out.
 */
import { LOCALES, type Locale, type OctoBookingStatus, type OctoContact, type OctoContactInput } from '../../shared/index.js';
import type { StoredTicket } from './tickets.js';
import { OctoRefusal, octoUnprocessable } from './octo.js';
import type { PriceCategory } from '../../shared/index.js';

export const unprocessable = octoUnprocessable;
export const unknownBooking = (uuid: string) => new OctoRefusal('INVALID_BOOKING_UUID', 'No booking has this uuid', uuid);

/** The only option of every product. */
export const DEFAULT_OPTION_ID = 'DEFAULT';
/** The one unit of an experience without price categories. */
export const ADULT_UNIT_ID = 'adult';

/** A unit a person may be booked as: a price category, or `adult` at the experience's price. */
export interface OctoUnit {
  id: string;
  name: string;
  type: PriceCategory['type'];
  price: number;
  occupiesPlace: boolean;
}

/** The units of an experience, in its categories' order. */
export function unitsOf(price: number, categories: readonly PriceCategory[]): OctoUnit[] {
  if (categories.length === 0) return [{ id: ADULT_UNIT_ID, name: 'Adult', type: 'ADULT', price, occupiesPlace: true }];
  return categories.map((c) => ({ id: c.id, name: c.name, type: c.type, price: c.price, occupiesPlace: c.occupiesPlace }));
}

/** One person of a booking as kept: its uuid, unit, reference, contact and the price it was booked at. */
export interface StoredUnitItem {
  uuid: string;
  unitId: string;
  resellerReference: string | null;
  contact: OctoContact;
  priceCents: number;
}

export const unitItemsOf = (json: string): StoredUnitItem[] => JSON.parse(json) as StoredUnitItem[];
export const contactFromJson = (json: string): OctoContact => JSON.parse(json) as OctoContact;

/** A contact as last given: every field, null where not given; `locales` an empty list. */
export function contactOf(input: OctoContactInput | null | undefined): OctoContact {
  return {
    fullName: input?.fullName ?? null,
    firstName: input?.firstName ?? null,
    lastName: input?.lastName ?? null,
    emailAddress: input?.emailAddress ?? null,
    phoneNumber: input?.phoneNumber ?? null,
    postalCode: input?.postalCode ?? null,
    country: input?.country ?? null,
    notes: input?.notes ?? null,
    locales: input?.locales ?? [],
  };
}

const present = (s: string | null): s is string => s !== null && s.trim() !== '';
/** Loose on purpose: what a mail server could take. A malformed address is kept in the contact, never written to. */
const MAIL_ADDRESS = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The booking's guest from a contact: `fullName`, else first and last name, else none; the address only if it is one. */
export function guestOf(contact: OctoContact): { guestName: string | null; guestEmail: string | null; guestPhone: string | null } {
  const joined = [contact.firstName, contact.lastName].filter(present).map((s) => s.trim()).join(' ');
  const guestName = present(contact.fullName) ? contact.fullName.trim() : joined === '' ? null : joined;
  const email = contact.emailAddress?.trim() ?? '';
  return {
    guestName: guestName === null ? null : guestName.slice(0, 200),
    guestEmail: MAIL_ADDRESS.test(email) && email.length <= 254 ? email : null,
    guestPhone: present(contact.phoneNumber) ? contact.phoneNumber.trim() : null,
  };
}

/** The first of the contact's languages Outing speaks (compared without case), else the organization's. */
export function localeOf(contact: OctoContact, defaultLocale: Locale): Locale {
  for (const tag of contact.locales) {
    const lower = tag.toLowerCase();
    const known = LOCALES.find((l) => l === lower);
    if (known) return known;
  }
  return defaultLocale;
}

/** What an Outing booking stores for a list of unit items. */
export interface OctoParty {
  participants: number;
  places: number;
  /** Tickets per unit for an experience with categories; null for `adult` alone. */
  tickets: StoredTicket[] | null;
  totalCents: number;
}

/**
 * The party of unit items: one person each. With price categories, one ticket line per unit (in the
 * experience's order) at the price its items were booked at; without, participants at the price.
 */
export function partyOfItems(units: readonly OctoUnit[], items: readonly StoredUnitItem[]): OctoParty {
  const byId = new Map(units.map((u) => [u.id, u]));
  let places = 0;
  let totalCents = 0;
  for (const item of items) {
    if (byId.get(item.unitId)?.occupiesPlace !== false) places++;
    totalCents += item.priceCents;
  }
  const categorised = !(units.length === 1 && units[0]!.id === ADULT_UNIT_ID);
  const tickets = categorised
    ? units.flatMap((u): StoredTicket[] => {
        const mine = items.filter((i) => i.unitId === u.id);
        if (mine.length === 0) return [];
        return [{ categoryId: u.id, name: u.name, type: u.type, quantity: mine.length, unitPrice: mine[0]!.priceCents, occupiesPlace: u.occupiesPlace }];
      })
    : null;
  return { participants: items.length, places, tickets, totalCents };
}

/** The fields of an Outing booking that tell its OCTO status. */
export interface OctoStatusFacts {
  status: 'CONFIRMED' | 'PENDING' | 'CANCELLED';
  holdExpiresAt: number | null;
  expiredAt: number | null;
}

/** ON_HOLD while its hold lasts, EXPIRED from the hold's end (before and after the sweeper cancels it). */
export function octoStatusOf(b: OctoStatusFacts, now: number): OctoBookingStatus {
  if (b.status === 'CONFIRMED') return 'CONFIRMED';
  if (b.status === 'PENDING') return b.holdExpiresAt !== null && b.holdExpiresAt <= now ? 'EXPIRED' : 'ON_HOLD';
  return b.expiredAt !== null ? 'EXPIRED' : 'CANCELLED';
}

/** When the hold ends (or ended), for ON_HOLD and EXPIRED; null otherwise. */
export function holdEndOf(b: OctoStatusFacts, status: OctoBookingStatus): number | null {
  if (status !== 'ON_HOLD' && status !== 'EXPIRED') return null;
  return b.status === 'PENDING' ? b.holdExpiresAt : b.expiredAt;
}

const HOUR_MS = 3_600_000;

/** A hold may always be cancelled; a confirmed booking until the organization's cutoff before its start. */
export function isCancellable(status: OctoBookingStatus, slotStart: number, cutoffHours: number, now: number): boolean {
  if (status === 'ON_HOLD') return true;
  return status === 'CONFIRMED' && now < slotStart - cutoffHours * HOUR_MS;
}

/** A hold's new end: never earlier than it was. */
export const extendedHold = (current: number | null, now: number, minutes: number): number => Math.max(current ?? 0, now + minutes * 60_000);

export const DEFAULT_HOLD_MINUTES = 30;

/** A slot's OCTO status, from the facts availability shows. */
export type OctoSlotStatus = 'AVAILABLE' | 'LIMITED' | 'SOLD_OUT' | 'CLOSED';
export function octoSlotStatus(closed: boolean, vacancies: number, capacity: number): OctoSlotStatus {
  if (closed) return 'CLOSED';
  if (vacancies <= 0) return 'SOLD_OUT';
  return vacancies < capacity / 2 ? 'LIMITED' : 'AVAILABLE';
}

/** A departure as OCTO shows it now: the booking's `availability`. */
export interface OctoSlotNow {
  id: string;
  start: number;
  end: number;
  zone: string;
  cutoffAt: number;
  status: OctoSlotStatus;
  vacancies: number;
  capacity: number;
  maxUnits: number;
}

/** The fields of an Outing booking the OCTO booking object shows. */
export interface OctoBookingFacts extends OctoStatusFacts {
  id: string;
  bookingNumber: string;
  experienceId: string;
  slotStart: number;
  cancellationReason: string | null;
  cancelledAt: number | null;
  checkedInAt: number | null;
  internalNote: string | null;
  currency: string;
  createdAt: number;
  updatedAt: number;
}

/** What a booking keeps for its reseller (the store's OctoBookingRow). */
export interface OctoRecordFacts {
  uuid: string;
  resellerReference: string | null;
  contact: string;
  unitItems: string;
  confirmedAt: number | null;
  expiredAt: number | null;
}

/** What the serializer needs to show one booking: the booking, its OCTO record, its slot now, the org's terms. */
export interface OctoBookingView<B extends Omit<OctoBookingFacts, 'expiredAt'> = Omit<OctoBookingFacts, 'expiredAt'>, O extends OctoRecordFacts = OctoRecordFacts> {
  booking: B;
  octo: O;
  slot: OctoSlotNow;
  units: OctoUnit[];
  cancellationCutoffHours: number;
  now: number;
}

/** A repeated uuid is the same request when its body says the same: a digest of the parsed body with sorted keys. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** Lists of unit items and the places they take, for messages. */
export const describeUnits = (items: readonly { unitId: string }[]): string => `${items.length} ${items.length === 1 ? 'person' : 'people'}`;
