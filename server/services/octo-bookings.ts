// Resellers' bookings over OCTO (docs/octo-resellers.md): a hold of places that the reseller then
// confirms, changes, extends or cancels. Each is an ordinary Outing booking (source OCTO) that takes
// and frees its places through the same slot counter as every other booking, so holds, widget and
// /v1 bookings and waitlist offers never oversell a slot, on either engine.
import { createHash, randomUUID } from 'node:crypto';
import type { Actor } from '../domain/actor.js';
import { SYSTEM } from '../domain/actor.js';
import { maxPartySize, overlapsAny, placesOf, remainingPlaces, slotCapacity } from '../domain/bookings.js';
import { newBookingNumber, newId } from '../domain/ids.js';
import {
  DEFAULT_HOLD_MINUTES,
  DEFAULT_OPTION_ID,
  canonicalJson,
  contactFromJson,
  contactOf,
  extendedHold,
  guestOf,
  isCancellable,
  localeOf,
  octoSlotStatus,
  octoStatusOf,
  partyOfItems,
  unitItemsOf,
  unitsOf,
  unknownBooking,
  unprocessable,
  type OctoBookingView as OctoView,
  type OctoSlotNow,
  type OctoUnit,
  type StoredUnitItem,
} from '../domain/octo-booking.js';
import { OctoRefusal } from '../domain/octo.js';
import { parseSlotId, slotId, slotProblem } from '../domain/slots.js';
import { addDays, isValidLocalDate, startOfLocalDay } from '../domain/time.js';
import { categoriesOf } from '../domain/tickets.js';
import type { BookingRow, BookingView } from '../store/bookings.js';
import type { ExperienceRow } from '../store/experiences.js';
import type { Store } from '../store/index.js';
import type { OctoBookingFilter, OctoBookingRow } from '../store/octo-bookings.js';
import type { OrganizationRow } from '../store/organizations.js';
import { recordActivity } from './activity.js';
import { rulesOf, zoneOf } from './availability.js';
import { ChangedMeanwhile, changeOfBooking, saveBookingChange, SlotFull } from './bookings.js';
import { recordBookingEvent } from './event-log.js';
import { messageKindFor, queueingNow, queueOperatorNotices } from './message-queue.js';
import { getOrganization } from './organizations.js';
import {
  MAX_AMOUNT_CENTS,
  type Locale,
  type OctoBookingListQuery,
  type OctoCancelBody,
  type OctoConfirmBody,
  type OctoExtendBody,
  type OctoReserveBody,
  type OctoUnitItemInput,
  type OctoUpdateBody,
} from '../../shared/index.js';

/** Who asks: the organization, the key (kept on the booking) and the actor the activity log names. */
/** One booking with what its OCTO object shows (serializers/octo-booking.ts). */
export type OctoBookingView = OctoView<BookingView, OctoBookingRow>;

export interface OctoCaller {
  orgId: string;
  apiKeyId: string;
  actor: Actor;
}

const MINUTE_MS = 60_000;

// ---------------------------------------------------------------------------------------------
// Reading ids

/** An active experience with a schedule of the organization, else INVALID_PRODUCT_ID. */
async function productOf(store: Store, orgId: string, productId: string): Promise<ExperienceRow> {
  const exp = await store.experiences.getExperience(orgId, productId);
  if (!exp || exp.active !== 1 || exp.schedule === null) {
    throw new OctoRefusal('INVALID_PRODUCT_ID', 'No product has this id', productId);
  }
  return exp;
}

function assertOption(optionId: string): void {
  if (optionId !== DEFAULT_OPTION_ID) throw new OctoRefusal('INVALID_OPTION_ID', 'The only option is DEFAULT', optionId);
}

/** The start of an availability id of this product that is one of its scheduled starts, else INVALID_AVAILABILITY_ID. */
function startOf(exp: ExperienceRow, zone: string, availabilityId: string, now: number): number {
  const parsed = parseSlotId(availabilityId);
  const refused = () => new OctoRefusal('INVALID_AVAILABILITY_ID', 'No availability of this product has this id', availabilityId);
  if (!parsed || slotId(exp.id, parsed.start) !== availabilityId) throw refused();
  if (slotProblem(rulesOf(exp), zone, parsed.start, now) === 'NOT_A_SLOT') throw refused();
  return parsed.start;
}

const unitsOfProduct = (exp: ExperienceRow): OctoUnit[] => unitsOf(exp.price, categoriesOf(exp.priceCategories));

/**
 * The unit items a request sends, as kept: a current item named by its uuid keeps its price (for
 * the same unit of the same product), every other is priced now; unknown units → INVALID_UNIT_ID.
 */
function itemsOf(sent: readonly OctoUnitItemInput[], units: readonly OctoUnit[], current: readonly StoredUnitItem[]): StoredUnitItem[] {
  const byId = new Map(units.map((u) => [u.id, u]));
  const own = new Map(current.map((i) => [i.uuid, i]));
  const seen = new Set<string>();
  return sent.map((item, index) => {
    const unit = byId.get(item.unitId);
    if (!unit) throw new OctoRefusal('INVALID_UNIT_ID', 'No unit of this product has this id', item.unitId);
    const uuid = item.uuid ?? randomUUID();
    if (seen.has(uuid)) throw new OctoRefusal('BAD_REQUEST', `unitItems[${index}].uuid repeats another item's uuid`, uuid);
    seen.add(uuid);
    const kept = own.get(uuid);
    return {
      uuid,
      unitId: unit.id,
      resellerReference: item.resellerReference ?? kept?.resellerReference ?? null,
      contact: item.contact !== undefined && item.contact !== null ? contactOf(item.contact) : (kept?.contact ?? contactOf(null)),
      priceCents: kept && kept.unitId === unit.id ? kept.priceCents : unit.price,
    };
  });
}

// ---------------------------------------------------------------------------------------------
// The slot now

async function slotNow(store: Store, exp: ExperienceRow, zone: string, start: number, now: number): Promise<OctoSlotNow> {
  const end = start + exp.duration * MINUTE_MS;
  const [slot, busy] = await Promise.all([store.slots.getSlot(exp.id, start), store.calendarImports.busyIntervalsFor(exp.orgId, exp.id, start, end)]);
  const capacity = slotCapacity(exp.maxParticipants, slot);
  const vacancies = remainingPlaces(capacity, slot?.booked ?? 0);
  const cutoffAt = start - exp.minNoticeMinutes * MINUTE_MS;
  const closed = exp.active !== 1 || slot?.closed === true || now >= cutoffAt || slotProblem(rulesOf(exp), zone, start, now) !== null || overlapsAny(start, end, busy);
  return {
    id: slotId(exp.id, start),
    start,
    end,
    zone,
    cutoffAt,
    status: octoSlotStatus(closed, vacancies, capacity),
    vacancies,
    capacity,
    maxUnits: maxPartySize(exp),
  };
}

/**
 * Refuses `places` (of which `ownPlaces` are already the booking's in that slot) where the slot is
 * not open to bookings or has too few vacancies; also a party no booking of the product may have.
 */
function assertRoomFor(exp: ExperienceRow, slot: OctoSlotNow, party: { participants: number; places: number; totalCents: number }, ownPlaces: number): void {
  if (party.places === 0) throw unprocessable('The unit items take no place: at least one must');
  if (party.places > maxPartySize(exp)) throw unprocessable(`At most ${maxPartySize(exp)} places per booking`);
  if (party.participants > exp.maxParticipants) throw unprocessable(`At most ${exp.maxParticipants} people per booking`);
  if (party.totalCents > MAX_AMOUNT_CENTS) throw unprocessable('The booking would cost more than one booking may');
  const vacancies = slot.vacancies + ownPlaces;
  if (slot.status === 'CLOSED') throw unprocessable('This availability is closed');
  if (vacancies <= 0) throw unprocessable('This availability is sold out');
  if (party.places > vacancies) throw unprocessable(`Only ${vacancies} ${vacancies === 1 ? 'place is' : 'places are'} left on this availability`);
}

// ---------------------------------------------------------------------------------------------
// Views

async function viewOf(store: Store, org: OrganizationRow, booking: BookingView, octo: OctoBookingRow, now: number): Promise<OctoBookingView> {
  const exp = await store.experiences.getExperience(org.id, booking.experienceId);
  if (!exp) throw new Error(`experience ${booking.experienceId} of booking ${booking.id} is gone`);
  const zone = zoneOf(exp, org.timezone);
  return { booking, octo, slot: await slotNow(store, exp, zone, booking.slotStart, now), units: unitsOfProduct(exp), cancellationCutoffHours: org.cancellationCutoffHours, now };
}

/** The booking of a uuid of the organization, else INVALID_BOOKING_UUID. */
async function findOcto(store: Store, orgId: string, uuid: string): Promise<{ booking: BookingView; octo: OctoBookingRow }> {
  const octo = await store.octoBookings.getOctoBookingByUuid(orgId, uuid.toLowerCase());
  const booking = octo && (await store.bookings.getBooking(orgId, octo.bookingId));
  if (!octo || !booking) throw unknownBooking(uuid);
  return { booking, octo };
}

export async function getOctoBooking(store: Store, orgId: string, uuid: string, now: number): Promise<OctoBookingView> {
  const { booking, octo } = await findOcto(store, orgId, uuid);
  return await viewOf(store, await getOrganization(store, orgId), booking, octo, now);
}

const LIST_LIMIT = 1000;

/** The organization's OCTO bookings (made with any key) matching every filter given, by slot start. */
export async function listOctoBookings(store: Store, orgId: string, query: OctoBookingListQuery, now: number): Promise<OctoBookingView[]> {
  const org = await getOrganization(store, orgId);
  const byDate = query.localDate !== undefined || query.localDateStart !== undefined || query.localDateEnd !== undefined;
  if (query.resellerReference === undefined && query.supplierReference === undefined && !byDate) {
    throw new OctoRefusal('BAD_REQUEST', 'Give resellerReference, supplierReference, localDate or localDateStart and localDateEnd');
  }
  const filter: OctoBookingFilter = {};
  if (query.resellerReference !== undefined) filter.resellerReference = query.resellerReference;
  if (query.supplierReference !== undefined) filter.bookingNumber = query.supplierReference.toUpperCase();
  if (query.productId !== undefined) filter.experienceId = query.productId;
  // Products may keep zones of their own: the range is read two days wider in the organization's
  // zone (no two zones are further apart), and each booking's slot then checked in its product's.
  if (query.optionId !== undefined && query.optionId !== DEFAULT_OPTION_ID) return [];
  let days: { from: string; to: string } | undefined;
  if (query.localDate !== undefined) {
    if (query.localDateStart !== undefined || query.localDateEnd !== undefined) throw new OctoRefusal('BAD_REQUEST', 'Give localDate or localDateStart and localDateEnd, not both');
    days = { from: query.localDate, to: query.localDate };
  } else if (byDate) {
    if (query.localDateStart === undefined || query.localDateEnd === undefined) {
      throw new OctoRefusal('BAD_REQUEST', 'localDateStart and localDateEnd go together');
    }
    days = { from: query.localDateStart, to: query.localDateEnd };
  }
  if (days && (!isValidLocalDate(days.from) || !isValidLocalDate(days.to) || days.to < days.from)) {
    throw new OctoRefusal('BAD_REQUEST', 'The dates are not a range of calendar dates');
  }
  if (days) {
    filter.startFrom = startOfLocalDay(addDays(days.from, -2), org.timezone);
    filter.startTo = startOfLocalDay(addDays(days.to, 3), org.timezone);
  }
  const rows = await store.octoBookings.listOctoBookings(orgId, filter, LIST_LIMIT);
  const views: OctoBookingView[] = [];
  for (const octo of rows) {
    const booking = await store.bookings.getBooking(orgId, octo.bookingId);
    if (!booking) continue;
    if (days) {
      // The slot's local date in its product's zone (products may keep zones of their own).
      const exp = await store.experiences.getExperience(orgId, booking.experienceId);
      const zone = exp ? zoneOf(exp, org.timezone) : org.timezone;
      if (booking.slotStart < startOfLocalDay(days.from, zone) || booking.slotStart >= startOfLocalDay(addDays(days.to, 1), zone)) continue;
    }
    views.push(await viewOf(store, org, booking, octo, now));
  }
  return views;
}

// ---------------------------------------------------------------------------------------------
// Reserve

const digestOf = (body: OctoReserveBody, uuid: string): string => createHash('sha256').update(canonicalJson({ ...body, uuid })).digest('hex');

/** A uuid the organization used: the same body answers that booking as it is now, another is refused. */
async function repeatOf(store: Store, orgId: string, uuid: string, digest: string, now: number): Promise<OctoBookingView | undefined> {
  const octo = await store.octoBookings.getOctoBookingByUuid(orgId, uuid);
  if (!octo) return undefined;
  if (octo.requestDigest !== digest) throw unprocessable('This uuid was used for another booking request');
  const booking = await store.bookings.getBooking(orgId, octo.bookingId);
  if (!booking) throw unprocessable('This uuid was used for another booking request');
  return await viewOf(store, await getOrganization(store, orgId), booking, octo, now);
}

/** The Outing fields of a party of unit items. */
function partyFields(units: readonly OctoUnit[], items: readonly StoredUnitItem[], unitPrice: number) {
  const party = partyOfItems(units, items);
  const categorised = party.tickets !== null;
  return {
    party,
    fields: {
      participants: party.participants,
      tickets: categorised ? JSON.stringify(party.tickets) : null,
      places: categorised ? party.places : null,
      totalCents: categorised ? party.totalCents : null,
      unitPrice: categorised ? 0 : unitPrice,
    },
  };
}

/** The guest fields of a contact, with its language. */
const guestFields = (contact: ReturnType<typeof contactOf>, defaultLocale: Locale) => ({ ...guestOf(contact), locale: localeOf(contact, defaultLocale) });

/**
 * `POST /octo/bookings`: a PENDING booking holding its places until the hold ends. Checks, in order:
 * a repeated uuid, the currency, the ids, then the party and the slot (UNPROCESSABLE_ENTITY). The
 * places are taken by the slot counter's conditional upsert, as every booking takes them.
 */
export async function reserveOctoBooking(store: Store, caller: OctoCaller, body: OctoReserveBody, now: number): Promise<OctoBookingView> {
  const uuid = body.uuid ?? randomUUID();
  const digest = digestOf(body, uuid);
  try {
    return await store.transaction(() => reserveIn(store, caller, body, uuid, digest, now), { lock: 'shared' });
  } catch (err) {
    if (err instanceof OctoRefusal) throw err;
    // The same uuid reserved beside this one (its unique index refused the second): answer as a repeat.
    const repeated = await store.transaction(() => repeatOf(store, caller.orgId, uuid, digest, now)).catch(() => undefined);
    if (repeated) return repeated;
    throw err;
  }
}

async function reserveIn(store: Store, caller: OctoCaller, body: OctoReserveBody, uuid: string, digest: string, now: number): Promise<OctoBookingView> {
  const { orgId } = caller;
  const repeated = await repeatOf(store, orgId, uuid, digest, now);
  if (repeated) return repeated;
  const org = await getOrganization(store, orgId);
  if (body.currency !== undefined && body.currency !== null && body.currency !== org.currency) {
    throw new OctoRefusal('BAD_REQUEST', `The currency is ${org.currency}`, body.currency);
  }
  const exp = await productOf(store, orgId, body.productId);
  assertOption(body.optionId);
  const zone = zoneOf(exp, org.timezone);
  const start = startOf(exp, zone, body.availabilityId, now);
  const units = unitsOfProduct(exp);
  const items = itemsOf(body.unitItems ?? [], units, []);
  if (items.length === 0) throw unprocessable('unitItems must name at least one person');
  const { party, fields } = partyFields(units, items, exp.price);
  const slot = await slotNow(store, exp, zone, start, now);
  assertRoomFor(exp, slot, party, 0);

  const contact = contactOf(body.contact);
  const row: BookingRow = {
    id: newId('booking'),
    orgId,
    bookingNumber: newBookingNumber(),
    experienceId: exp.id,
    customerId: null,
    slotStart: start,
    slotEnd: slot.end,
    status: 'PENDING',
    ...guestFields(contact, org.defaultLocale as Locale),
    ...fields,
    currency: org.currency,
    source: 'OCTO',
    metadata: '{}',
    internalNote: body.notes ?? null,
    answers: null,
    extras: null,
    promoCodeId: null,
    discountCode: null,
    discountType: null,
    discountValue: null,
    voucherId: null,
    voucherMask: null,
    voucherCents: null,
    cancellationReason: null,
    cancelledAt: null,
    holdExpiresAt: now + (body.expirationMinutes ?? DEFAULT_HOLD_MINUTES) * MINUTE_MS,
    checkoutSessionId: null,
    checkoutUrl: null,
    sequence: 0,
    checkedInAt: null,
    createdAt: now,
    updatedAt: now,
  };
  const octo: OctoBookingRow = {
    bookingId: row.id,
    orgId,
    uuid,
    apiKeyId: caller.apiKeyId,
    resellerReference: body.resellerReference ?? null,
    contact: JSON.stringify(contact),
    unitItems: JSON.stringify(items),
    requestDigest: digest,
    emailReceipt: 0,
    confirmedAt: null,
    expiredAt: null,
  };
  if (!(await store.bookings.takePlaces(exp.id, start, placesOf(row), exp.maxParticipants))) {
    throw unprocessable('This availability no longer has the places asked for');
  }
  await store.bookings.insertBooking(row);
  await store.octoBookings.insertOctoBooking(octo);
  const view: BookingView = { ...row, experienceName: exp.name, amountRefunded: 0, amountPaid: 0, octo: { uuid, resellerReference: octo.resellerReference, apiKeyId: caller.apiKeyId } };
  await store.later(async () => {
    await recordBookingEvent(store, orgId, 'BOOKING_CREATED', view, now);
    await queueOperatorNotices(store, org, 'BOOKING_CREATED', row, [], now);
    await recordActivity(store, orgId, caller.actor, { action: 'booking.create', targetType: 'booking', targetId: row.id, summary: `Held ${describe(view)} for a reseller` }, now);
  });
  const left = slot.vacancies - placesOf(row);
  return { booking: view, octo, slot: { ...slot, vacancies: left, status: octoSlotStatus(false, left, slot.capacity) }, units, cancellationCutoffHours: org.cancellationCutoffHours, now };
}

const describe = (b: BookingView): string => `${b.bookingNumber} (${b.participants} ${b.participants === 1 ? 'person' : 'people'}, ${b.experienceName})`;

// ---------------------------------------------------------------------------------------------
// Changes

/** A change of an OCTO booking: the booking and its OCTO record read again on a retry (see changeOfBooking). */
async function changeOfOcto(store: Store, orgId: string, uuid: string, now: number, work: (found: { booking: BookingView; octo: OctoBookingRow; org: OrganizationRow }) => Promise<BookingView>): Promise<OctoBookingView> {
  let octoAfter: OctoBookingRow | undefined;
  let orgRow: OrganizationRow | undefined;
  const booking = await changeOfBooking(store, async () => {
    const found = await findOcto(store, orgId, uuid);
    orgRow = await getOrganization(store, orgId);
    const saved = await work({ ...found, org: orgRow });
    octoAfter = (await store.octoBookings.getOctoBooking(saved.id)) ?? found.octo;
    return saved;
  });
  return await store.transaction(async () => {
    const fresh = (await store.bookings.getBooking(orgId, booking.id)) ?? booking;
    return await viewOf(store, orgRow!, fresh, octoAfter!, now);
  });
}

export async function extendOctoBooking(store: Store, caller: OctoCaller, uuid: string, body: OctoExtendBody, now: number): Promise<OctoBookingView> {
  return await changeOfOcto(store, caller.orgId, uuid, now, async ({ booking }) => {
    if (octoStatusOf({ ...booking, expiredAt: null }, now) !== 'ON_HOLD') throw unprocessable('Only a booking ON_HOLD can be extended');
    return await extendHoldOf(store, caller, booking, body.expirationMinutes ?? DEFAULT_HOLD_MINUTES, now);
  });
}

/** A hold's end moved later (never earlier): an activity entry, no event (the booking record does not show it). */
async function extendHoldOf(store: Store, caller: OctoCaller, booking: BookingView, minutes: number, now: number): Promise<BookingView> {
  const until = extendedHold(booking.holdExpiresAt, now, minutes);
  if (until === booking.holdExpiresAt) return booking;
  const next: BookingView = { ...booking, holdExpiresAt: until, sequence: booking.sequence + 1, updatedAt: now };
  if (!(await store.bookings.updateBookingAt(next, booking.sequence))) throw new ChangedMeanwhile();
  await recordActivity(store, caller.orgId, caller.actor, {
    action: 'booking.update', targetType: 'booking', targetId: booking.id, summary: `Extended the hold of ${describe(booking)} to ${new Date(until).toISOString()}`,
  }, now);
  return next;
}

export async function confirmOctoBooking(store: Store, caller: OctoCaller, uuid: string, body: OctoConfirmBody, now: number): Promise<OctoBookingView> {
  return await changeOfOcto(store, caller.orgId, uuid, now, async ({ booking, octo, org }) => {
    const status = octoStatusOf({ ...booking, expiredAt: octo.expiredAt }, now);
    if (status === 'CONFIRMED') return booking;
    if (status === 'EXPIRED') throw unknownBooking(uuid);
    if (status === 'CANCELLED') throw unprocessable('This booking is cancelled');
    return await applyChange(store, caller, org, booking, octo, { ...body, confirm: true }, now);
  });
}

export async function updateOctoBooking(store: Store, caller: OctoCaller, uuid: string, body: Partial<OctoUpdateBody>, now: number): Promise<OctoBookingView> {
  return await changeOfOcto(store, caller.orgId, uuid, now, async ({ booking, octo, org }) => {
    const status = octoStatusOf({ ...booking, expiredAt: octo.expiredAt }, now);
    const cancellable = isCancellable(status, booking.slotStart, org.cancellationCutoffHours, now);
    if (!(status === 'ON_HOLD' || (status === 'CONFIRMED' && cancellable))) throw unprocessable(`A booking ${status} can no longer be changed`);
    return await applyChange(store, caller, org, booking, octo, { ...body, confirm: false }, now);
  });
}

type Change = Partial<OctoUpdateBody> & { confirm: boolean };

/**
 * Applies a confirmation or a PATCH: a new product, slot or list of unit items is checked as a
 * reservation is (only the places added), then the booking is saved through the one path every
 * booking change takes (its places moved between slot counters in the same transaction). A refusal
 * changes nothing: the transaction rolls back.
 */
async function applyChange(store: Store, caller: OctoCaller, org: OrganizationRow, held: BookingView, octo: OctoBookingRow, change: Change, now: number): Promise<BookingView> {
  // `expirationMinutes` extends a hold first, as `extend` does (the booking record does not show it).
  const extend = !change.confirm && change.expirationMinutes !== undefined && change.expirationMinutes !== null && held.status === 'PENDING';
  const before = extend ? await extendHoldOf(store, caller, held, change.expirationMinutes!, now) : held;
  const newProduct = change.productId !== undefined && change.productId !== before.experienceId;
  if (newProduct && (change.availabilityId === undefined || !change.unitItems)) {
    throw unprocessable('Moving to another product needs availabilityId and unitItems');
  }
  const exp = newProduct ? await productOf(store, org.id, change.productId!) : await store.experiences.getExperience(org.id, before.experienceId);
  if (!exp) throw unprocessable('This booking’s product is gone');
  if (change.optionId !== undefined) assertOption(change.optionId);
  const zone = zoneOf(exp, org.timezone);
  const start = change.availabilityId !== undefined ? startOf(exp, zone, change.availabilityId, now) : before.slotStart;
  const units = unitsOfProduct(exp);
  const currentItems = unitItemsOf(octo.unitItems);
  let items = currentItems;
  if (change.unitItems) {
    // Kept items keep their price only on the same product.
    items = itemsOf(change.unitItems, units, newProduct ? [] : currentItems);
    if (items.length === 0) throw unprocessable('unitItems must name at least one person');
  }
  const { party, fields } = partyFields(units, items, newProduct ? exp.price : before.unitPrice);
  const moves = newProduct || start !== before.slotStart;
  const ownPlaces = placesOf(before);
  const grows = moves || party.places > ownPlaces;
  let slotEnd = before.slotEnd;
  if (grows) {
    const slot = await slotNow(store, exp, zone, start, now);
    assertRoomFor(exp, slot, party, moves ? 0 : ownPlaces);
    slotEnd = slot.end;
  }
  const contact = change.contact !== undefined ? contactOf(change.contact) : contactFromJson(octo.contact);
  const resellerReference = change.resellerReference !== undefined ? change.resellerReference : octo.resellerReference;
  // The record's `octo` as changed: the event of this change carries it.
  let next: BookingRow & Pick<BookingView, 'octo'> = {
    ...before, ...fields, experienceId: exp.id, slotStart: start, slotEnd, ...(moves ? { checkedInAt: null } : {}),
    octo: { uuid: octo.uuid, resellerReference, apiKeyId: octo.apiKeyId },
  };
  if (change.contact !== undefined) next = { ...next, ...guestFields(contact, org.defaultLocale as Locale) };
  if (change.notes !== undefined) next.internalNote = change.notes;
  if (change.confirm) next = { ...next, status: 'CONFIRMED', holdExpiresAt: null };
  const octoNext: OctoBookingRow = {
    ...octo,
    resellerReference,
    contact: JSON.stringify(contact),
    unitItems: JSON.stringify(items),
    emailReceipt: change.emailReceipt === true ? 1 : octo.emailReceipt,
    confirmedAt: change.confirm ? now : octo.confirmedAt,
  };
  // The OCTO record first: the guest e-mail the booking's change may queue reads whether one was asked for.
  await store.octoBookings.updateOctoBooking(octoNext);
  if (newProduct) await store.octoBookings.moveBookingToExperience(before.id, exp.id, fields.unitPrice);
  // Named and shown as it will be: its product's name, and the reseller's reference as changed (the change's event carries them).
  const shown: BookingView = { ...before, experienceName: exp.name, octo: next.octo };
  try {
    const saved = await saveBookingChange(store, shown, next, now, caller.actor, grows ? { capacity: exp.maxParticipants } : {});
    // Receipts asked for the first time on a booking already confirmed: its confirmation, now (a
    // change that sends its own e-mail says enough).
    const receiptNow = change.emailReceipt === true && octo.emailReceipt === 0 && before.status === 'CONFIRMED' && !change.confirm;
    if (receiptNow && saved.guestEmail !== null && saved.slotStart > now && messageKindFor(before, saved) === undefined) {
      await store.messages.enqueueMessage({ orgId: org.id, bookingId: saved.id, kind: 'BOOKING_CONFIRMED', to: saved.guestEmail, createdAt: now, ...queueingNow() });
    }
    if (saved === shown && !sameOcto(octo, octoNext)) {
      // Only the reseller's own fields changed: the log says so, the booking record has nothing new.
      await recordActivity(store, org.id, caller.actor, { action: 'booking.update', targetType: 'booking', targetId: before.id, summary: `Changed the reseller's details of ${describe(shown)}` }, now);
    }
    return saved;
  } catch (err) {
    if (err instanceof SlotFull) throw unprocessable('This availability no longer has the places asked for');
    throw err;
  }
}

const sameOcto = (a: OctoBookingRow, b: OctoBookingRow) => a.resellerReference === b.resellerReference && a.contact === b.contact && a.unitItems === b.unitItems && a.emailReceipt === b.emailReceipt;

/** `…/cancel`: a hold or a confirmed booking before the cutoff; a cancelled one is answered as it is. */
export async function cancelOctoBooking(store: Store, caller: OctoCaller, uuid: string, body: OctoCancelBody, now: number): Promise<OctoBookingView> {
  return await changeOfOcto(store, caller.orgId, uuid, now, async ({ booking, octo, org }) => {
    const status = octoStatusOf({ ...booking, expiredAt: octo.expiredAt }, now);
    if (status === 'CANCELLED') return booking;
    if (!isCancellable(status, booking.slotStart, org.cancellationCutoffHours, now)) throw unprocessable(`A booking ${status} cannot be cancelled now`);
    const next: BookingRow = { ...booking, status: 'CANCELLED', cancelledAt: now, cancellationReason: body.reason ?? null, holdExpiresAt: null };
    return await saveBookingChange(store, booking, next, now, caller.actor);
  });
}

// ---------------------------------------------------------------------------------------------
// Lapsed holds

/** The reason a lapsed hold is cancelled with. */
export const EXPIRED_REASON = 'expired';

/**
 * Cancels an OCTO hold that lapsed (the hold sweeper calls it): reason `expired`, by the system, its
 * places freed (and offered to the slot's waitlist) through the one booking change path. No payment
 * is recorded: a reseller's hold never had one. Answers whether it did.
 */
export async function expireOctoHold(store: Store, hold: { orgId: string; id: string }, now: number): Promise<boolean> {
  for (let tries = 1; ; tries++) {
    try {
      return await store.transaction(async () => {
        const booking = await store.bookings.getBooking(hold.orgId, hold.id);
        if (!booking || booking.status !== 'PENDING' || booking.holdExpiresAt === null || booking.holdExpiresAt > now) return false;
        const octo = await store.octoBookings.getOctoBooking(booking.id);
        if (octo) await store.octoBookings.updateOctoBooking({ ...octo, expiredAt: booking.holdExpiresAt });
        const next: BookingRow = { ...booking, status: 'CANCELLED', cancelledAt: now, cancellationReason: EXPIRED_REASON, holdExpiresAt: null };
        await saveBookingChange(store, booking, next, now, SYSTEM);
        return true;
      }, { lock: 'shared' });
    } catch (err) {
      // Confirmed, extended or expired by another process meanwhile: read it again.
      if (!(err instanceof ChangedMeanwhile) || tries >= 3) throw err;
    }
  }
}
