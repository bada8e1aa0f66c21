// The waitlist as the guest and the organization see it: joining a full slot, the org's list of
// entries, removing one, an entry's e-mails, and forgetting an erased customer's entries. The offers
// that hand freed places to waiting guests are waitlist.ts.
import { Refusal, notFound } from '../domain/refusal.js';
import { newId } from '../domain/ids.js';
import { remainingPlaces, slotCapacity } from '../domain/bookings.js';
import type { Actor } from '../domain/actor.js';
import { formJson } from '../domain/booking-form.js';
import { ticketsLine, ticketsOf } from '../domain/tickets.js';
import type { MessageRow } from '../store/messages.js';
import type { WaitlistRow } from '../store/waitlist.js';
import type { Store } from '../store/index.js';
import type { Page, PageResult } from '../store/sql.js';
import { assertBookableSlotBeside, busyAround } from './availability.js';
import { boundOf, pricedParts } from './bookings.js';
import { getOrganization } from './organizations.js';
import { recordActivity } from './activity.js';
import { queueingNow } from './message-queue.js';
import { cancelLiveEntry } from './waitlist-removal.js';
import type { z } from 'zod';
import type { WaitlistJoin, WaitlistListQuery } from '../../shared/index.js';

/** An entry as its record shows it: the row, its experience's name, and its rank while WAITING. */
export interface WaitlistEntryView {
  row: WaitlistRow;
  experienceName: string;
  /** 1-based among the slot's WAITING entries; null unless WAITING. */
  position: number | null;
}

export interface JoinOptions {
  /** Who joins: the guest on /public/v1, the key or user on /v1. */
  actor: Actor;
  /** /public/v1: an inactive experience is as good as absent (404), as for bookings. */
  publicApi?: boolean;
}

const viewOf = async (store: Store, row: WaitlistRow, experienceName: string): Promise<WaitlistEntryView> => ({
  row,
  experienceName,
  position: row.status === 'WAITING' ? await store.waitlist.waitingPosition(row) : null,
});

/** How the activity log names an entry: its party, experience and slot, never its guest. */
function describe(row: WaitlistRow, experienceName: string): string {
  const tickets = ticketsOf(row.tickets === '[]' ? null : row.tickets);
  const party = tickets.length ? ticketsLine(tickets) : `${row.totalParticipants} ${row.totalParticipants === 1 ? 'guest' : 'guests'}`;
  return `${row.id} (${party}, ${experienceName}, ${new Date(row.slotStart).toISOString()})`;
}

/**
 * Puts a guest on a full slot's waitlist. Checks, in order: the experience (404), the party, answers
 * and limits as a booking's (400), that the experience is active, takes a waitlist and the start is a
 * bookable slot, open and not blocked by a calendar (409 SLOT_UNAVAILABLE), that the e-mail has no
 * live entry on the slot (409 ALREADY_ON_WAITLIST), and that the slot has fewer places left than the
 * party takes (else 409 SLOT_HAS_PLACES: book instead). The entry starts WAITING, with its
 * WAITLIST_JOINED e-mail queued in the same transaction.
 *
 * One exclusive transaction: joins take turns with bookings and offers, so the places read here are
 * the places there are, and no offer of places freed meanwhile can pass a guest over.
 */
export async function joinWaitlist(store: Store, orgId: string, input: WaitlistJoin, options: JoinOptions, now: number): Promise<WaitlistEntryView> {
  return await store.transaction(async () => {
    const start = Date.parse(input.startTime);
    const org = await getOrganization(store, orgId);
    const exp = await store.experiences.getExperience(orgId, input.experienceId);
    if (!exp || (options.publicApi && exp.active !== 1)) throw notFound('Experience');
    // The party, its answers and limits, exactly as a booking of it would be checked (no extras or codes here).
    const { party, form } = await pricedParts(store, org, exp, { participants: input.participants, tickets: input.tickets, answers: input.answers }, now);
    const end = await assertBookableSlotBeside(store, exp, org.timezone, start, now, await busyAround(store, orgId, exp.id, start));
    if (exp.waitlist !== 1) throw new Refusal('SLOT_UNAVAILABLE', 'This experience takes no waitlist');
    const slot = await store.slots.getSlot(exp.id, start);
    if (slot?.closed) throw new Refusal('SLOT_UNAVAILABLE', 'This time slot is closed');
    if (await store.waitlist.hasLiveEntry(exp.id, start, input.customerEmail)) {
      throw new Refusal('ALREADY_ON_WAITLIST', 'This e-mail address is already on the waitlist for this time');
    }
    const remaining = remainingPlaces(slotCapacity(exp.maxParticipants, slot), slot?.booked ?? 0);
    if (remaining >= party.places) {
      throw new Refusal('SLOT_HAS_PLACES', `This time still has ${remaining} ${remaining === 1 ? 'place' : 'places'} left: book it instead`);
    }
    // Behind everyone already there, even within one millisecond: the queue's order is by creation.
    const last = (await store.waitlist.listLiveEntries(exp.id, start)).reduce((latest, e) => Math.max(latest, e.createdAt), -Infinity);
    const createdAt = Math.max(now, last + 1);
    const row: WaitlistRow = {
      id: newId('waitlistEntry', now),
      orgId,
      experienceId: exp.id,
      slotStart: start,
      slotEnd: end,
      status: 'WAITING',
      places: party.places,
      totalParticipants: party.participants,
      tickets: party.priced ? JSON.stringify(party.priced.tickets) : '[]',
      answers: formJson(form.answers) ?? '[]',
      guestName: input.customerName,
      guestEmail: input.customerEmail,
      guestPhone: input.customerPhone ?? null,
      // Without one, the organization's language.
      locale: input.locale ?? org.defaultLocale,
      tokenHash: null,
      offeredAt: null,
      offerExpiresAt: null,
      bookingId: null,
      createdAt,
      updatedAt: now,
    };
    await store.waitlist.insertEntry(row);
    await store.messages.enqueueMessage({
      orgId, bookingId: null, kind: 'WAITLIST_JOINED', to: row.guestEmail, createdAt: now, waitlistEntryId: row.id, ...queueingNow(),
    });
    await recordActivity(store, orgId, options.actor, {
      action: 'waitlist.join', targetType: 'waitlist_entry', targetId: row.id, summary: `Joined the waitlist: ${describe(row, exp.name)}`,
    }, now);
    return await viewOf(store, row, exp.name);
  });
}

/** Experience names by id, each read once. */
function experienceNames(store: Store, orgId: string): (id: string) => Promise<string> {
  const names = new Map<string, Promise<string>>();
  return (id) => {
    let name = names.get(id);
    if (!name) names.set(id, (name = store.experiences.getExperience(orgId, id).then((exp) => exp?.name ?? '')));
    return name;
  };
}

/** The org's entries, by slot start, then creation; dates bound the slot start in the org's zone. */
export async function listWaitlist(
  store: Store,
  orgId: string,
  query: z.output<typeof WaitlistListQuery>,
  page: Page,
): Promise<PageResult<WaitlistEntryView>> {
  const zone = (await getOrganization(store, orgId)).timezone;
  const { rows, total } = await store.waitlist.listEntries(
    orgId,
    { experienceId: query.experienceId, status: query.status, from: boundOf(query.startDate, 'from', zone), to: boundOf(query.endDate, 'to', zone) },
    page,
  );
  const nameOf = experienceNames(store, orgId);
  const views: WaitlistEntryView[] = [];
  for (const row of rows) views.push(await viewOf(store, row, await nameOf(row.experienceId)));
  return { rows: views, total };
}

async function entryFor(store: Store, orgId: string, id: string): Promise<WaitlistRow> {
  const row = await store.waitlist.getEntry(orgId, id);
  if (!row) throw notFound('Waitlist entry');
  return row;
}

export async function getWaitlistEntry(store: Store, orgId: string, id: string): Promise<WaitlistEntryView> {
  const row = await entryFor(store, orgId, id);
  return await viewOf(store, row, await experienceNames(store, orgId)(row.experienceId));
}

/** An entry's e-mails, oldest first. */
export async function listWaitlistEntryMessages(store: Store, orgId: string, id: string, page: Page): Promise<PageResult<MessageRow>> {
  const row = await entryFor(store, orgId, id);
  return await store.messages.listWaitlistMessages(orgId, row.id, page);
}

/** `DELETE /v1/waitlist/{id}`: the entry CANCELLED; a final one (BOOKED, EXPIRED, CANCELLED) is refused. */
export async function cancelWaitlistEntry(store: Store, orgId: string, id: string, actor: Actor, now: number): Promise<WaitlistEntryView> {
  return await store.transaction(async () => {
    const row = await entryFor(store, orgId, id);
    const name = await experienceNames(store, orgId)(row.experienceId);
    const cancelled = await cancelLiveEntry(store, row, {}, now);
    if (!cancelled) {
      const status = (await entryFor(store, orgId, id)).status;
      throw new Refusal('INVALID_STATUS_TRANSITION', `A ${status} waitlist entry cannot be removed`);
    }
    await recordActivity(store, orgId, actor, {
      action: 'waitlist.cancel', targetType: 'waitlist_entry', targetId: row.id, summary: `Removed from the waitlist: ${describe(row, name)}`,
    }, now);
    return await viewOf(store, cancelled, name);
  });
}
