import { Refusal, notFound, invalid } from '../domain/refusal.js';
import { BOOKING_NUMBER_RE, newBookingNumber, newId } from '../domain/ids.js';
import {
  assertParticipantsWithin,
  assertPlacesFor,
  assertStatusMove,
  assertSlotOpen,
  assertTotalWithin,
  holdsPlaces,
  maxPartySize,
  placesOf,
  slotCapacity,
} from '../domain/bookings.js';
import { categoriesOf, priceTickets, storedTicketsOf, ticketsLine, ticketsOf, type PricedTickets } from '../domain/tickets.js';
import { formatMoney, parseMoney } from '../domain/money.js';
import {
  answersOf,
  bookingExtrasOf,
  checkBookingForm,
  checkFormChange,
  extrasOf,
  priceExtras,
  discountRuleOf,
  formJson,
  lowerPersonExtras,
  personExtrasAbove,
  storedBookingLines,
} from '../domain/booking-form.js';
import { addDays, startOfLocalDay } from '../domain/time.js';
import type { BookingRow, BookingView } from '../store/bookings.js';
import type { ExperienceRow } from '../store/experiences.js';
import type { PaymentRow } from '../store/payments.js';
import type { Store } from '../store/index.js';
import { customerForBooking, guestCustomer, guestRecord, refreshCustomerTimes, saveGuestCustomer } from './customers.js';
import { changesBetween, recordBookingEvent, type Changes } from './event-log.js';
import { queueMessageForChange, queueOperatorNotices } from './message-queue.js';
import { recordActivity, type ActivityEntry } from './activity.js';
import type { Actor } from '../domain/actor.js';
import { assertBookableSlot, assertBookableSlotBeside, busyAround } from './availability.js';
import { getOrganization } from './organizations.js';
import { checkCodes, codeFields, recordCodes, releaseCodes, takeCodes, type CheckedCodes } from './booking-codes.js';
import { offerFreedPlaces } from './waitlist-offers.js';
import type { OrganizationRow } from '../store/organizations.js';
import type { Page, PageResult } from '../store/sql.js';
import type { z } from 'zod';
import {
  bookingLines,
  isCalendarDate,
  type BookingLines,
  type BookingInput,
  type BookingListQuery,
  type BookingPatch,
  type Answer,
  type BookingExtra,
  type BookingStatus,
  type TicketInput,
  type Locale,
} from '../../shared/index.js';

export interface BookingOptions {
  source: BookingRow['source'];
  /** Who books: the activity log names them. */
  actor: Actor;
  /** A PENDING booking that holds its places until this instant (online payment, docs/payments.md). */
  holdExpiresAt?: number;
}

async function experienceFor(store: Store, orgId: string, experienceId: string): Promise<ExperienceRow> {
  const exp = await store.experiences.getExperience(orgId, experienceId);
  if (!exp) throw notFound('Experience');
  return exp;
}


/** A party's places against the experience's per-booking limit; the path names what the request sent. */
function assertPartySize(exp: ExperienceRow, places: number, path: 'participants' | 'tickets' = 'participants'): void {
  const max = maxPartySize(exp);
  if (places > max) throw invalid(path, `At most ${max} ${path === 'tickets' ? 'places' : 'participants'} per booking`);
}

/** What a booking holds: its places, its participants, and for a ticketed one the priced tickets. */
interface Party {
  participants: number;
  places: number;
  priced: PricedTickets | null;
}

/**
 * The party a new booking asks for, by the experience's rules: tickets for an experience with
 * price categories, participants for one without.
 */
function partyOf(exp: ExperienceRow, input: { participants?: number | undefined; tickets?: TicketInput[] | undefined }): Party {
  const offered = categoriesOf(exp.priceCategories);
  if (offered.length === 0) {
    if (input.tickets !== undefined) throw invalid('tickets', 'This experience has no price categories: send participants instead');
    if (input.participants === undefined) throw invalid('participants', 'Required');
    return { participants: input.participants, places: input.participants, priced: null };
  }
  if (input.tickets === undefined) {
    throw invalid('tickets', 'This experience sells tickets in price categories: send tickets [{categoryId, quantity}]');
  }
  const priced = priceTickets(input.tickets, offered, [], input.participants);
  return { participants: priced.participants, places: priced.places, priced };
}

/** What a new party costs: its tickets' total, or the experience's price per participant. */
const partyTotalCents = (exp: ExperienceRow, party: Party): number => party.priced?.totalCents ?? exp.price * party.participants;

/**
 * A booking's total in cents: its party's (tickets, or participants at `unitPrice`) alone, or with
 * extras the sum of its money lines (shared/lines.ts), the one sum every reader of the booking makes.
 */
function totalOf(party: Party, unitPrice: number, extras: readonly BookingExtra[]): number {
  if (extras.length === 0) return party.priced?.totalCents ?? unitPrice * party.participants;
  return bookingLines({ tickets: party.priced?.tickets ?? [], participants: party.participants, unitPrice, extras }).total;
}

/**
 * The total the guest was shown (`expectedTotal`) against the one computed now: a price that changed
 * in between is said, with the new total, rather than charged.
 */
function assertExpectedTotal(expected: string | undefined, totalCents: number): void {
  if (expected === undefined || parseMoney(expected) === totalCents) return;
  const total = formatMoney(totalCents);
  throw new Refusal('PRICE_CHANGED', `The total is now ${total}, not the expected ${expected}: a price changed; nothing was booked`, { total });
}

/**
 * The payment an operator took with the booking: its amount (default the total) more than 0 and at
 * most the total, else a 400 on `payment.amount`.
 */
function paymentCentsOf(payment: BookingInput['payment'], totalCents: number): number | null {
  if (payment === undefined) return null;
  const cents = payment.amount === undefined ? totalCents : parseMoney(payment.amount);
  if (cents <= 0) throw invalid('payment.amount', totalCents === 0 ? 'This booking costs nothing: there is no payment to record' : 'More than 0.00');
  if (cents > totalCents) throw invalid('payment.amount', `At most the booking's total, ${formatMoney(totalCents)}`);
  return cents;
}

/** The stored fields of a party: a ticketed one keeps its tickets, places and total. */
const partyFields = (party: Party) =>
  party.priced === null
    ? { participants: party.participants, tickets: null, places: null, totalCents: null }
    : {
        participants: party.participants,
        tickets: JSON.stringify(party.priced.tickets),
        places: party.priced.places,
        totalCents: party.priced.totalCents,
      };

/** By booking number only: what a guest knows of their booking. */
export async function findBookingByNumber(store: Store, orgId: string, number: string): Promise<BookingView> {
  const upper = number.toUpperCase();
  const booking = BOOKING_NUMBER_RE.test(upper) ? await store.bookings.getBookingByNumber(orgId, upper) : undefined;
  if (!booking) throw notFound('Booking');
  return booking;
}

/** A list bound: a date is a whole local day in the org's time zone, an instant is itself. */
export function boundOf(value: string | undefined, edge: 'from' | 'to', zone: string): number | undefined {
  if (value === undefined) return undefined;
  if (!isCalendarDate(value)) return Date.parse(value);
  return edge === 'from' ? startOfLocalDay(value, zone) : startOfLocalDay(addDays(value, 1), zone) - 1;
}

/** Sorted by slot start, then creation, then id. */
export async function listBookings(store: Store, orgId: string, query: z.output<typeof BookingListQuery>, page: Page): Promise<PageResult<BookingView>> {
  const zone = (await getOrganization(store, orgId)).timezone;
  return await store.bookings.listBookings(
    orgId,
    {
      experienceId: query.experienceId,
      customerId: query.customerId,
      status: query.status,
      source: query.source,
      startFrom: boundOf(query.startDate, 'from', zone),
      startTo: boundOf(query.endDate, 'to', zone),
      q: query.q,
    },
    page,
    query.sort,
  );
}

export async function findBooking(store: Store, orgId: string, ref: string): Promise<BookingView> {
  const upper = ref.toUpperCase();
  const booking = BOOKING_NUMBER_RE.test(upper) ? await store.bookings.getBookingByNumber(orgId, upper) : await store.bookings.getBooking(orgId, ref);
  if (!booking) throw notFound('Booking');
  return booking;
}

/**
 * All of `calls` settled, then their values, or the error of the first that failed (in the order
 * given, not of time): calls issued together so that the store sends them together (one round trip
 * on PostgreSQL), with the same refusal winning as if they had run one after another.
 */
async function together<T extends readonly unknown[]>(calls: { [K in keyof T]: Promise<T[K]> }): Promise<T> {
  const settled = await Promise.allSettled(calls);
  for (const s of settled) if (s.status === 'rejected') throw s.reason;
  return settled.map((s) => (s as PromiseFulfilledResult<unknown>).value) as unknown as T;
}

/** What a booking is priced from: its party, answers, extras and codes. */
export type BookingParts = Pick<BookingInput, 'participants' | 'tickets' | 'answers' | 'extras' | 'promoCode' | 'voucherCode'>;

/** A booking's parts, checked and priced: what a booking stores and what a quote shows. */
export interface PricedParts {
  party: Party;
  form: ReturnType<typeof checkBookingForm>;
  codes: CheckedCodes;
  lines: BookingLines;
}

/**
 * Everything a new booking checks before its slot, in order (the party, its answers and extras,
 * then its codes), and its money lines. `createBooking` and the quote both call this, so a quote
 * and a booking of the same parts made at once cannot disagree. It reads, and writes nothing.
 */
export async function pricedParts(
  store: Store,
  org: OrganizationRow,
  exp: ExperienceRow,
  input: BookingParts,
  now: number,
  withAnswers = true,
): Promise<PricedParts> {
  const party = partyOf(exp, input);
  const path = party.priced ? 'tickets' : 'participants';
  assertPartySize(exp, party.places, path);
  assertParticipantsWithin(exp.maxParticipants, party.participants, path);
  assertTotalWithin(partyTotalCents(exp, party), org.currency, path);
  // Answers and extras once the party is known (a PERSON extra counts its participants), before any 409.
  // A quote has no guest and so no answers: it prices the extras alone.
  const form = withAnswers
    ? checkBookingForm(exp, input, party.participants)
    : { answers: [], extras: input.extras?.length ? priceExtras(extrasOf(exp.extras), input.extras, party.participants) : [] };
  if (form.extras.length) assertTotalWithin(totalOf(party, exp.price, form.extras), org.currency, 'extras');
  // Then the codes, the promo code before the voucher; the total compared is after the discount.
  const codes = await checkCodes(store, org, exp, input, now);
  const lines = bookingLines({
    tickets: party.priced?.tickets ?? [], participants: party.participants, unitPrice: exp.price, extras: form.extras,
    discount: codes.promo?.rule ?? null, voucher: codes.voucher,
  });
  return { party, form, codes, lines };
}

/** Tries at a booking's writes before giving up: another may have taken its number or made its new customer meanwhile. */
const BOOKING_WRITE_TRIES = 3;

/**
 * Takes a booking. On PostgreSQL its transaction is shared (store/sql.ts, "Transactions and the
 * write lock"): bookings run side by side, and only bookings of one slot take turns, on that slot's
 * counter row, whose conditional upsert takes the places only if they fit. SQLite's writers take
 * turns anyway. The reads are sent together, then the writes together.
 */
export async function createBooking(store: Store, orgId: string, input: BookingInput, options: BookingOptions, now: number): Promise<BookingView> {
  return await store.transaction(
    async () => {
      const start = Date.parse(input.startTime);
      const guest = { name: input.customerName, email: input.customerEmail, phone: input.customerPhone ?? null };
      const [org, exp, busy, found] = await together([
        getOrganization(store, orgId),
        experienceFor(store, orgId, input.experienceId),
        busyAround(store, orgId, input.experienceId, start),
        guestRecord(store, orgId, guest.email),
      ] as const);
      let existing = found;
      const { party, form, codes, lines } = await pricedParts(store, org, exp, input, now);
      const path = party.priced ? 'tickets' : 'participants';
      const totalCents = lines.total;
      assertExpectedTotal(input.expectedTotal, totalCents);
      // A payment taken with the booking is at most what the voucher leaves to pay.
      const paidCents = paymentCentsOf(input.payment, lines.due);
      const end = await assertBookableSlotBeside(store, exp, org.timezone, start, now, busy, input.ignoreNotice === true);

      for (let tries = 1; ; tries++) {
        try {
          return await store.transaction(async () => {
            // Read again after a failed try: another booking may have made this guest's customer.
            if (tries > 1) existing = await guestRecord(store, orgId, guest.email);
            const customer = guestCustomer(orgId, existing, guest, now);
            const row: BookingRow = {
              id: newId('booking'),
              orgId,
              bookingNumber: newBookingNumber(),
              experienceId: exp.id,
              customerId: customer.id,
              slotStart: start,
              slotEnd: end,
              // A hold waits for online payment: a booking that owes nothing (a voucher pays it all) has none.
              status: options.holdExpiresAt === undefined || lines.due === 0 ? 'CONFIRMED' : 'PENDING',
              guestName: guest.name,
              guestEmail: guest.email,
              guestPhone: guest.phone,
              ...partyFields(party),
              // With extras or a discount the total is stored: its lines together.
              ...(form.extras.length || codes.promo ? { totalCents } : {}),
              // A ticketed booking's prices are its tickets'; the record shows its unitPrice as null.
              unitPrice: party.priced ? 0 : exp.price,
              currency: org.currency,
              source: options.source,
              metadata: JSON.stringify(input.metadata ?? {}),
              // Without one, the organization's language (a booking always says which it speaks).
              locale: input.locale ?? (org.defaultLocale as Locale),
              internalNote: input.internalNote ?? null,
              answers: formJson(form.answers),
              extras: formJson(form.extras),
              ...codeFields(codes, lines),
              cancellationReason: null,
              cancelledAt: null,
              holdExpiresAt: lines.due === 0 ? null : options.holdExpiresAt ?? null,
              checkoutSessionId: null,
              checkoutUrl: null,
              sequence: 0,
              checkedInAt: null,
              createdAt: now,
              updatedAt: now,
            };
            const view: BookingView = { ...row, experienceName: exp.name, amountRefunded: 0, amountPaid: (paidCents ?? 0) + (row.voucherCents ?? 0), octo: null };
            // The places and a new customer, sent together, with every write whose answer nobody
            // reads kept for the commit (on PostgreSQL, see Store.later): so the locks those take (an
            // event's position, the list counters' rows) are held for the commit's round trip only.
            // A slot already full refuses below, and the transaction rolls back what went with it.
            // The code's use and the voucher's part first: refused here, nothing is written.
            await takeCodes(store, row);
            const [, took] = await together([
              existing ? store.later(() => saveGuestCustomer(store, existing, customer)) : saveGuestCustomer(store, existing, customer),
              store.bookings.takePlaces(exp.id, start, placesOf(row), exp.maxParticipants),
              store.later(async () => {
                await store.bookings.insertBooking(row);
                await recordBookingEvent(store, orgId, 'BOOKING_CREATED', view, now);
                // An operator may book without the confirmation e-mail; later e-mails go as usual.
                if (input.sendConfirmation !== false) await queueMessageForChange(store, undefined, row, now);
                await queueOperatorNotices(store, org, 'BOOKING_CREATED', row, [], now);
                await recordActivity(store, orgId, options.actor, { action: 'booking.create', targetType: 'booking', targetId: view.id, summary: `Booked ${describe(view)}` }, now);
                await recordCodes(store, view, now);
                if (paidCents !== null && input.payment) await recordPaymentTaken(store, view, paidCents, input.payment, options.actor, now);
              }),
            ] as const);
            if (!took) throw new SlotFull();
            return view;
          });
        } catch (err) {
          if (err instanceof SlotFull) {
            // The refusal a full (or closed) slot always gave, with the places it has left.
            await assertRoomIn(store, exp, start, party.places, 0, path);
            continue; // places were freed meanwhile: once more
          }
          if (err instanceof Refusal || tries >= BOOKING_WRITE_TRIES) throw err;
        }
      }
    },
    { lock: 'shared' },
  );
}

/**
 * The money an operator took with a new booking: a SUCCEEDED payment recorded by hand, with its
 * activity entry and PAYMENT_SUCCEEDED (after the booking's BOOKING_CREATED). As
 * `POST /v1/bookings/{id}/payments` records one (services/payments.ts, which builds on this module).
 */
async function recordPaymentTaken(
  store: Store,
  booking: BookingView,
  cents: number,
  payment: NonNullable<BookingInput['payment']>,
  actor: Actor,
  now: number,
): Promise<void> {
  const row: PaymentRow = {
    id: newId('payment'),
    orgId: booking.orgId,
    bookingId: booking.id,
    amount: cents,
    currency: booking.currency,
    status: 'SUCCEEDED',
    provider: 'manual',
    method: payment.method,
    reference: payment.reference ?? null,
    failureReason: null,
    refundRequired: 0,
    createdAt: now,
  };
  await store.payments.insertPayment(row);
  await recordActivity(store, booking.orgId, actor, {
    action: 'payment.create',
    targetType: 'booking',
    targetId: booking.id,
    summary: `Payment of ${formatMoney(row.amount)} ${row.currency} (${row.provider}) on ${booking.bookingNumber}`,
  }, now);
  await recordBookingEvent(store, booking.orgId, 'PAYMENT_SUCCEEDED', booking, now, { payment: row });
}

/**
 * Refuses `places` in a departure that is closed (SLOT_UNAVAILABLE) or has fewer left under its
 * capacity (CAPACITY_EXCEEDED, its override when set); `ownPlaces` are the booking's own, already
 * counted there.
 */
async function assertRoomIn(store: Store, exp: ExperienceRow, start: number, places: number, ownPlaces: number, path: 'participants' | 'tickets'): Promise<void> {
  const slot = await store.slots.getSlot(exp.id, start);
  assertSlotOpen(slot);
  assertPlacesFor(places, slotCapacity(exp.maxParticipants, slot), (slot?.booked ?? 0) - ownPlaces, path);
}

/** The places a booking asked for did not fit in its slot (answered as CAPACITY_EXCEEDED). */
export class SlotFull extends Error {}

/** The booking was changed by another writer since it was read. */
export class ChangedMeanwhile extends Error {}

/**
 * A change of a booking in a shared transaction (see createBooking), run again from its reads when
 * another change of the same booking was saved first, or when the places it took were freed again
 * by the time the refusal was worked out.
 */
export async function changeOfBooking(store: Store, work: () => Promise<BookingView>): Promise<BookingView> {
  return await store.transaction(
    async () => {
      for (let tries = 1; ; tries++) {
        try {
          return await store.transaction(work);
        } catch (err) {
          if (!(err instanceof ChangedMeanwhile || err instanceof SlotFull) || tries >= BOOKING_WRITE_TRIES) throw err;
        }
      }
    },
    { lock: 'shared' },
  );
}

/** The request names of PATCH with their record-name aliases folded in. */
function normalizePatch(patch: BookingPatch) {
  return {
    status: patch.status,
    startTime: patch.startTime,
    participants: patch.participants ?? patch.totalParticipants,
    tickets: patch.tickets,
    answers: patch.answers,
    extras: patch.extras,
    name: patch.customerName ?? patch.guestName,
    email: patch.customerEmail ?? patch.guestEmail,
    phone: patch.customerPhone !== undefined ? patch.customerPhone : patch.guestPhone,
    metadata: patch.metadata,
    locale: patch.locale,
    internalNote: patch.internalNote,
    checkedIn: patch.checkedIn,
  };
}

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** "BK-7Q2M4X9A (2 guests, Sunset walk)" or "BK-… (2 × Adult, 1 × Child, Sunset walk)": a booking as the activity log names it. */
function describe(b: BookingView): string {
  const party = b.tickets === null ? `${b.participants} ${b.participants === 1 ? 'guest' : 'guests'}` : ticketsLine(ticketsOf(b.tickets));
  return `${b.bookingNumber} (${party}, ${b.experienceName})`;
}

/** The activity entry of a saved change: a cancellation, a check-in alone, or any other update. */
function activityOf(event: 'BOOKING_CANCELED' | 'BOOKING_UPDATED', changes: Changes, b: BookingView): ActivityEntry {
  const target = { targetType: 'booking', targetId: b.id };
  if (event === 'BOOKING_CANCELED') return { ...target, action: 'booking.cancel', summary: `Cancelled ${describe(b)}` };
  const fields = Object.keys(changes);
  if (fields.length === 1 && fields[0] === 'checkedInAt') {
    const checkedIn = b.checkedInAt !== null;
    return { ...target, action: 'booking.check_in', summary: `${checkedIn ? 'Checked in' : 'Undid the check-in of'} ${describe(b)}` };
  }
  return { ...target, action: 'booking.update', summary: `Changed ${fields.join(', ')} of ${describe(b)}` };
}

/**
 * Checks a guest in (the first check-in time is kept) or undoes it. Only a CONFIRMED booking is
 * checked in: a pending one is not yet sure, a cancelled one is not coming.
 */
function withCheckIn(row: BookingRow, checkedIn: boolean, now: number): BookingRow {
  if (row.status !== 'CONFIRMED') {
    throw new Refusal('INVALID_STATUS_TRANSITION', `Only a CONFIRMED booking can be checked in or out; this one is ${row.status}`);
  }
  return { ...row, checkedInAt: checkedIn ? (row.checkedInAt ?? now) : null };
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
export async function saveBookingChange(
  store: Store,
  before: BookingView,
  after: BookingRow,
  now: number,
  actor: Actor,
  extra: { payment?: PaymentRow; capacity?: number } = {},
): Promise<BookingView> {
  const paid = extra.payment?.status === 'SUCCEEDED' ? extra.payment.amount : 0;
  const changes = changesBetween(before, { ...after, amountPaid: before.amountPaid + paid });
  if (Object.keys(changes).length === 0) return before;
  const next: BookingView = {
    ...after,
    experienceName: before.experienceName,
    amountRefunded: before.amountRefunded,
    amountPaid: before.amountPaid + paid,
    octo: before.octo,
    sequence: before.sequence + 1,
    updatedAt: now,
  };
  // The codes' rows first, then the slots' counters, the booking (and the list counters its triggers
  // keep) after: the order a new booking takes its locks in too, so two transactions side by side
  // never wait for each other in a circle.
  // Cancelled (any cause): the code's use is freed and the voucher's part returned, in this transaction.
  if (holdsPlaces(before.status) && next.status === 'CANCELLED') await releaseCodes(store, before, now);
  if (holdsPlaces(before.status)) await store.bookings.addBookedPlaces(before.experienceId, before.slotStart, -placesOf(before));
  if (holdsPlaces(next.status)) {
    // With a capacity, the places are taken only if they fit (the check and the write in one statement).
    if (extra.capacity === undefined) await store.bookings.addBookedPlaces(next.experienceId, next.slotStart, placesOf(next));
    else if (!(await store.bookings.takePlaces(next.experienceId, next.slotStart, placesOf(next), extra.capacity))) throw new SlotFull();
  }
  // Saved only over the version read: another change saved meanwhile (beside this one, in a shared
  // transaction) makes the caller read it again, and its transaction rolls back the counters above.
  if (!(await store.bookings.updateBookingAt(next, before.sequence))) throw new ChangedMeanwhile();
  if (next.customerId !== before.customerId) {
    await refreshCustomerTimes(store, before.orgId, before.customerId, now);
    await refreshCustomerTimes(store, before.orgId, next.customerId, now);
  }
  const event = next.status === 'CANCELLED' && before.status !== 'CANCELLED' ? 'BOOKING_CANCELED' : 'BOOKING_UPDATED';
  const { capacity: _capacity, ...about } = extra;
  await recordBookingEvent(store, before.orgId, event, next, now, event === 'BOOKING_UPDATED' ? { changes, ...about } : about);
  await queueMessageForChange(store, before, next, now);
  const org = await store.organizations.getOrganization(before.orgId);
  if (org) await queueOperatorNotices(store, org, event, next, Object.keys(changes), now);
  await recordActivity(store, before.orgId, actor, activityOf(event, changes, next), now);
  // Places freed in the slot it held (cancelled, lapsed, moved away, a smaller party) go to its waitlist first.
  if (holdsPlaces(before.status) && (!holdsPlaces(next.status) || next.slotStart !== before.slotStart || placesOf(next) < placesOf(before))) {
    await offerFreedPlaces(store, before.orgId, before.experienceId, before.slotStart, now);
  }
  return next;
}

/**
 * The party after a change. New tickets are priced like a new booking's, but the categories the
 * booking already has keep its own name and unit price; participants change only a booking
 * without tickets.
 */
async function changedParty(experience: () => Promise<ExperienceRow>, before: BookingRow, p: ReturnType<typeof normalizePatch>): Promise<Party> {
  const own = storedTicketsOf(before.tickets);
  if (p.tickets !== undefined) {
    const offered = categoriesOf((await experience()).priceCategories);
    if (offered.length === 0 && own.length === 0) {
      throw invalid('tickets', 'This experience has no price categories: change participants instead');
    }
    const priced = priceTickets(p.tickets, offered, own);
    return { participants: priced.participants, places: priced.places, priced };
  }
  if (p.participants !== undefined && before.tickets !== null) {
    throw invalid('participants', 'This booking has tickets: change its tickets instead');
  }
  const participants = p.participants ?? before.participants;
  return { participants, places: p.participants === undefined ? placesOf(before) : participants, priced: null };
}

/**
 * The answers and extras after a change, each present only when it changes: a list sent (checked
 * against the experience's current questions and extras), or a smaller party's `PERSON` extras
 * lowered with it when the options allow (else a 400 on `extras`: send them with the party).
 */
async function changedForm(
  experience: () => Promise<ExperienceRow>,
  before: BookingRow,
  p: ReturnType<typeof normalizePatch>,
  participants: number,
  options: UpdateOptions,
): Promise<{ answers?: Answer[]; extras?: BookingExtra[] }> {
  const own = bookingExtrasOf(before.extras);
  const form = p.answers === undefined && p.extras === undefined ? {} : checkFormChange(await experience(), p, participants, own);
  // (A cancelled booking's party does not change at all: that refusal follows.)
  if (form.extras === undefined && participants < before.participants && before.status !== 'CANCELLED') {
    const above = personExtrasAbove(own, participants);
    if (above.length > 0) {
      if (!options.lowerPersonExtras) {
        const names = above.map((e) => `${e.name} (${e.quantity})`).join(', ');
        throw invalid('extras', `At most one per participant: ${names} would exceed ${participants}; send extras with the new party`);
      }
      form.extras = lowerPersonExtras(own, participants);
    }
  }
  // A list equal to the booking's own is no change.
  if (form.answers !== undefined && sameJson(form.answers, answersOf(before.answers))) delete form.answers;
  if (form.extras !== undefined && sameJson(form.extras, own)) delete form.extras;
  return form;
}

export interface UpdateOptions {
  /**
   * More places in the same slot are taken as a new booking would take them: only while the slot is
   * bookable (open, outside the notice and blocks) else SLOT_UNAVAILABLE. The guest's own changes ask
   * for it; the operator may add people to a slot the widget no longer offers.
   */
  growOnlyWhereBookable?: boolean;
  /**
   * A smaller party lowers the booking's `PERSON` extras to its size (the guest's own change, where
   * the party is all they change); without it such a change must send the extras too (else 400).
   */
  lowerPersonExtras?: boolean;
}

export async function updateBooking(
  store: Store,
  orgId: string,
  ref: string,
  patch: BookingPatch,
  now: number,
  actor: Actor,
  options: UpdateOptions = {},
): Promise<BookingView> {
  return await changeOfBooking(store, async () => {
    const before = await findBooking(store, orgId, ref);
    const p = normalizePatch(patch);
    const org = await getOrganization(store, orgId);
    let next: BookingRow = { ...before };
    if (p.metadata !== undefined) next.metadata = JSON.stringify(p.metadata);
    if (p.locale !== undefined) next.locale = p.locale;
    if (p.internalNote !== undefined) next.internalNote = p.internalNote;

    const start = p.startTime === undefined ? before.slotStart : Date.parse(p.startTime);
    // Read only by a change of tickets, time or party size: a check-in or a new name needs no experience.
    let read: ExperienceRow | undefined;
    const experience = async () => (read ??= await experienceFor(store, orgId, before.experienceId));
    const party = await changedParty(experience, before, p);
    const form = await changedForm(experience, before, p, party.participants, options);
    const touchesMoreThanMetadata =
      form.answers !== undefined ||
      form.extras !== undefined ||
      (p.status !== undefined && p.status !== before.status) ||
      start !== before.slotStart ||
      party.participants !== before.participants ||
      party.places !== placesOf(before) ||
      (party.priced !== null && !sameJson(party.priced.tickets, storedTicketsOf(before.tickets))) ||
      (p.name !== undefined && p.name !== before.guestName) ||
      (p.email !== undefined && p.email !== before.guestEmail) ||
      (p.phone !== undefined && p.phone !== before.guestPhone);
    if (before.status === 'CANCELLED' && touchesMoreThanMetadata) {
      throw new Refusal('INVALID_STATUS_TRANSITION', 'A cancelled booking accepts changes to metadata only');
    }
    if (p.status !== undefined) assertStatusMove(before.status, p.status);

    const moves = start !== before.slotStart;
    const grows = party.places > placesOf(before);
    const path = party.priced ? 'tickets' : 'participants';
    // The party's lines (its tickets, or the unit price it was booked at per participant) and its extras.
    const ticketsAfter = party.priced?.tickets ?? storedTicketsOf(before.tickets);
    const extrasAfter = form.extras ?? bookingExtrasOf(before.extras);
    // Its discount is recomputed by its own rule (whatever became of the code since) when the subtotal changes.
    const discount = discountRuleOf(before);
    const linesAfter = bookingLines({ tickets: ticketsAfter, participants: party.participants, unitPrice: before.unitPrice, extras: extrasAfter, discount });
    // The party's limits hold where it grows, never against a decrease (a booking made before them may exceed them).
    const participantsGrow = party.participants > before.participants;
    const totalGrows = linesAfter.subtotal > storedBookingLines(before).subtotal;
    if (moves || grows || participantsGrow || totalGrows) {
      const exp = await experience();
      if (moves || grows) assertPartySize(exp, party.places, path);
      if (participantsGrow) assertParticipantsWithin(exp.maxParticipants, party.participants, path);
      if (totalGrows) assertTotalWithin(linesAfter.subtotal, before.currency, p.extras === undefined ? path : 'extras');
    }
    let capacity: number | undefined;
    if (moves || grows) {
      const exp = await experience();
      capacity = exp.maxParticipants;
      if (!moves && options.growOnlyWhereBookable) await assertBookableSlot(store, exp, org.timezone, start, now);
      const end = moves ? await assertBookableSlot(store, exp, org.timezone, start, now) : before.slotEnd;
      // Its own places are not counted against it when it stays in the same slot.
      const ownPlaces = moves || !holdsPlaces(before.status) ? 0 : placesOf(before);
      await assertRoomIn(store, exp, start, party.places, ownPlaces, path);
      // A new slot is a new arrival: a check-in at the old time says nothing about this one.
      next = { ...next, slotStart: start, slotEnd: end, ...(moves ? { checkedInAt: null } : {}) };
    }
    const partyChanges = party.priced !== null || p.participants !== undefined;
    if (partyChanges) next = { ...next, ...partyFields(party) };
    if (form.answers !== undefined) next.answers = formJson(form.answers);
    if (form.extras !== undefined) next.extras = formJson(form.extras);
    // A total is stored for tickets, extras or a discount; a booking of participants alone keeps unitPrice × participants.
    if (partyChanges || form.extras !== undefined) next.totalCents = ticketsAfter.length || extrasAfter.length || discount ? linesAfter.total : null;
    if (p.name !== undefined) next.guestName = p.name;
    if (p.phone !== undefined) next.guestPhone = p.phone;
    if (p.email !== undefined && p.email !== before.guestEmail) {
      next.guestEmail = p.email;
      if (p.email.toLowerCase() !== before.guestEmail?.toLowerCase()) {
        // A reseller's guest given without a name is known by the address.
        const guest = { name: next.guestName ?? p.email, email: p.email, phone: next.guestPhone };
        next.customerId = (await customerForBooking(store, orgId, guest, now)).id;
      }
    }
    if (p.status !== undefined) next = withStatus(next, p.status, now);
    if (p.checkedIn !== undefined) next = withCheckIn(next, p.checkedIn, now);
    try {
      return await saveBookingChange(store, before, next, now, actor, { capacity });
    } catch (err) {
      if (!(err instanceof SlotFull)) throw err;
      // Taken meanwhile: the refusal the check above gives, with the places left now (this
      // booking's own places, in the same slot, were given back just before).
      await assertRoomIn(store, await experience(), start, party.places, 0, path);
      throw err;
    }
  });
}

export async function cancelBooking(store: Store, orgId: string, ref: string, reason: string | undefined, now: number, actor: Actor): Promise<BookingView> {
  return await changeOfBooking(store, async () => {
    const before = await findBooking(store, orgId, ref);
    if (before.status === 'CANCELLED') {
      throw new Refusal('INVALID_STATUS_TRANSITION', 'This booking is already cancelled');
    }
    return await saveBookingChange(store, before, withStatus(before, 'CANCELLED', now, reason ?? null), now, actor);
  });
}
