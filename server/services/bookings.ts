import { Refusal, notFound, invalid } from '../domain/refusal.js';
import { BOOKING_NUMBER_RE, newBookingNumber, newId } from '../domain/ids.js';
import { assertPlacesFor, assertStatusMove, holdsPlaces, maxPartySize } from '../domain/bookings.js';
import { formatMoney } from '../domain/money.js';
import { slotId } from '../domain/slots.js';
import { iso } from '../serialize.js';
import type { BookingRow, BookingView } from '../store/bookings.js';
import type { ExperienceRow } from '../store/experiences.js';
import type { Store } from '../store/index.js';
import { customerForBooking, refreshCustomerTimes } from './customers.js';
import { eventData, recordEvent, type Changes } from './events.js';
import { assertBookableSlot } from './slots.js';
import type { BookingCreate, BookingPatch, BookingStatus, EventData } from '../../shared/index.js';

export interface BookingOptions {
  source: 'API' | 'WIDGET';
  /** A PENDING booking that holds its places until this instant (online payment, SPEC §11). */
  holdExpiresAt?: number;
}

function experienceFor(store: Store, orgId: string, experienceId: string): ExperienceRow {
  const exp = store.getExperience(orgId, experienceId);
  if (!exp) throw notFound('Experience');
  return exp;
}

function orgTimezone(store: Store, orgId: string): { timezone: string; currency: string } {
  const org = store.getOrganization(orgId);
  if (!org) throw notFound('Organization');
  return org;
}

function assertPartySize(exp: ExperienceRow, participants: number): void {
  const max = maxPartySize(exp);
  if (participants > max) throw invalid('participants', `At most ${max} participants per booking`);
}

function uniqueBookingNumber(store: Store): string {
  for (;;) {
    const candidate = newBookingNumber();
    if (!store.bookingNumberTaken(candidate)) return candidate;
  }
}

export function findBooking(store: Store, orgId: string, ref: string): BookingView {
  const upper = ref.toUpperCase();
  const booking = BOOKING_NUMBER_RE.test(upper) ? store.getBookingByNumber(orgId, upper) : store.getBooking(orgId, ref);
  if (!booking) throw notFound('Booking');
  return booking;
}

/**
 * Takes a booking (SPEC §6). The checks and the insert run in one IMMEDIATE transaction: no other
 * writer can book the same places between the capacity check and the insert.
 */
export function createBooking(store: Store, orgId: string, input: BookingCreate, options: BookingOptions, now: number): BookingView {
  return store.transaction(() => {
    const org = orgTimezone(store, orgId);
    const exp = experienceFor(store, orgId, input.experienceId);
    assertPartySize(exp, input.participants);
    const start = Date.parse(input.startTime);
    const end = assertBookableSlot(store, exp, org.timezone, start, now);
    assertPlacesFor(input.participants, exp.maxParticipants, store.bookedPlaces(exp.id, start));

    const guest = { name: input.customerName, email: input.customerEmail, phone: input.customerPhone ?? null };
    const customer = customerForBooking(store, orgId, guest, now);
    const row: BookingRow = {
      id: newId('booking'),
      orgId,
      bookingNumber: uniqueBookingNumber(store),
      experienceId: exp.id,
      customerId: customer.id,
      slotStart: start,
      slotEnd: end,
      status: options.holdExpiresAt === undefined ? 'CONFIRMED' : 'PENDING',
      guestName: guest.name,
      guestEmail: guest.email,
      guestPhone: guest.phone,
      participants: input.participants,
      unitPrice: exp.price,
      currency: org.currency,
      source: options.source,
      metadata: JSON.stringify(input.metadata ?? {}),
      cancellationReason: null,
      cancelledAt: null,
      holdExpiresAt: options.holdExpiresAt ?? null,
      checkoutSessionId: null,
      checkoutUrl: null,
      sequence: 0,
      createdAt: now,
      updatedAt: now,
    };
    store.insertBooking(row);
    store.addBookedPlaces(exp.id, start, row.participants);
    const view: BookingView = { ...row, experienceName: exp.name };
    recordEvent(store, orgId, 'BOOKING_CREATED', eventData(view), now);
    return view;
  });
}

/** The request names of PATCH with their record-name aliases folded in. */
function normalizePatch(patch: BookingPatch) {
  return {
    status: patch.status,
    startTime: patch.startTime,
    participants: patch.participants ?? patch.totalParticipants,
    name: patch.customerName ?? patch.guestName,
    email: patch.customerEmail ?? patch.guestEmail,
    phone: patch.customerPhone !== undefined ? patch.customerPhone : patch.guestPhone,
    metadata: patch.metadata,
  };
}

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

function timeSlotOf(b: BookingRow) {
  return { id: slotId(b.experienceId, b.slotStart), startTime: iso(b.slotStart), endTime: iso(b.slotEnd) };
}

/** What changed between two versions of a booking, in the record's names (SPEC §8). */
function changesBetween(before: BookingRow, after: BookingRow): Changes {
  const changes: Changes = {};
  const note = (field: string, from: unknown, to: unknown) => {
    if (!sameJson(from, to)) changes[field] = { from, to };
  };
  note('status', before.status, after.status);
  note('timeSlot', timeSlotOf(before), timeSlotOf(after));
  note('totalParticipants', before.participants, after.participants);
  note('total', formatMoney(before.unitPrice * before.participants), formatMoney(after.unitPrice * after.participants));
  note('guestName', before.guestName, after.guestName);
  note('guestEmail', before.guestEmail, after.guestEmail);
  note('guestPhone', before.guestPhone, after.guestPhone);
  note('customerId', before.customerId, after.customerId);
  note('metadata', JSON.parse(before.metadata), JSON.parse(after.metadata));
  return changes;
}

/** Applies a status change's side fields. */
function withStatus(row: BookingRow, status: BookingStatus, now: number, reason: string | null = null): BookingRow {
  if (status === row.status) return row;
  if (status === 'CANCELLED') return { ...row, status, cancelledAt: now, cancellationReason: reason, holdExpiresAt: null };
  return { ...row, status, holdExpiresAt: status === 'CONFIRMED' ? null : row.holdExpiresAt };
}

/**
 * Writes a new version of a booking: moves its places between slot counters, keeps customers in
 * step, and fires the event of the change (none when nothing changed).
 */
export function saveBookingChange(
  store: Store,
  before: BookingView,
  after: BookingRow,
  now: number,
  extra: { payment?: EventData['payment'] } = {},
): BookingView {
  const changes = changesBetween(before, after);
  if (Object.keys(changes).length === 0) return before;
  const next: BookingView = { ...after, experienceName: before.experienceName, sequence: before.sequence + 1, updatedAt: now };
  store.updateBooking(next);
  if (holdsPlaces(before.status)) store.addBookedPlaces(before.experienceId, before.slotStart, -before.participants);
  if (holdsPlaces(next.status)) store.addBookedPlaces(next.experienceId, next.slotStart, next.participants);
  if (next.customerId !== before.customerId) {
    refreshCustomerTimes(store, before.orgId, before.customerId, now);
    refreshCustomerTimes(store, before.orgId, next.customerId, now);
  }
  const event = next.status === 'CANCELLED' && before.status !== 'CANCELLED' ? 'BOOKING_CANCELED' : 'BOOKING_UPDATED';
  const data = event === 'BOOKING_UPDATED' ? eventData(next, { changes, ...extra }) : eventData(next, extra);
  recordEvent(store, before.orgId, event, data, now);
  return next;
}

export function updateBooking(store: Store, orgId: string, ref: string, patch: BookingPatch, now: number): BookingView {
  return store.transaction(() => {
    const before = findBooking(store, orgId, ref);
    const p = normalizePatch(patch);
    const org = orgTimezone(store, orgId);
    let next: BookingRow = { ...before };
    if (p.metadata !== undefined) next.metadata = JSON.stringify(p.metadata);

    const start = p.startTime === undefined ? before.slotStart : Date.parse(p.startTime);
    const participants = p.participants ?? before.participants;
    const touchesMoreThanMetadata =
      (p.status !== undefined && p.status !== before.status) ||
      start !== before.slotStart ||
      participants !== before.participants ||
      (p.name !== undefined && p.name !== before.guestName) ||
      (p.email !== undefined && p.email !== before.guestEmail) ||
      (p.phone !== undefined && p.phone !== before.guestPhone);
    if (before.status === 'CANCELLED' && touchesMoreThanMetadata) {
      throw new Refusal('INVALID_STATUS_TRANSITION', 'A cancelled booking accepts changes to metadata only');
    }
    if (p.status !== undefined) assertStatusMove(before.status, p.status);

    const moves = start !== before.slotStart;
    const grows = participants > before.participants;
    if (moves || grows) {
      const exp = experienceFor(store, orgId, before.experienceId);
      assertPartySize(exp, participants);
      const end = moves ? assertBookableSlot(store, exp, org.timezone, start, now) : before.slotEnd;
      // Its own places are not counted against it when it stays in the same slot.
      const ownPlaces = moves || !holdsPlaces(before.status) ? 0 : before.participants;
      assertPlacesFor(participants, exp.maxParticipants, store.bookedPlaces(exp.id, start) - ownPlaces);
      next = { ...next, slotStart: start, slotEnd: end };
    }
    next.participants = participants;
    if (p.name !== undefined) next.guestName = p.name;
    if (p.phone !== undefined) next.guestPhone = p.phone;
    if (p.email !== undefined && p.email !== before.guestEmail) {
      next.guestEmail = p.email;
      if (p.email.toLowerCase() !== before.guestEmail.toLowerCase()) {
        const guest = { name: next.guestName, email: p.email, phone: next.guestPhone };
        next.customerId = customerForBooking(store, orgId, guest, now).id;
      }
    }
    if (p.status !== undefined) next = withStatus(next, p.status, now);
    return saveBookingChange(store, before, next, now);
  });
}

export function cancelBooking(store: Store, orgId: string, ref: string, reason: string | undefined, now: number): BookingView {
  return store.transaction(() => {
    const before = findBooking(store, orgId, ref);
    if (before.status === 'CANCELLED') {
      throw new Refusal('INVALID_STATUS_TRANSITION', 'This booking is already cancelled');
    }
    return saveBookingChange(store, before, withStatus(before, 'CANCELLED', now, reason ?? null), now);
  });
}
