// The waitlist's offers (§20 of the contract, docs/waitlist.md "Offers"): places freed in a slot go
// to its WAITING entries in turn, each offer holding its places in the slot's counter
// (slot_counts.booked) exactly as a PENDING booking does, until it is accepted, declined, removed or
// lapses. Apart from services/waitlist.ts (joining, the org's list) so that every use case that
// frees places (bookings, slots, experiences, calendar sync) can call it without a circle of imports.
import { SYSTEM } from '../domain/actor.js';
import { overlapsAny, remainingPlaces, slotCapacity } from '../domain/bookings.js';
import { slotProblem } from '../domain/slots.js';
import { entriesToOffer, offerEndsAt } from '../domain/waitlist-offers.js';
import type { Logger } from '../logger.js';
import type { ExperienceRow } from '../store/experiences.js';
import type { Store } from '../store/index.js';
import type { SlotState } from '../store/slots.js';
import type { WaitlistRow } from '../store/waitlist.js';
import { recordActivity } from './activity.js';
import { rulesOf, zoneOf } from './availability.js';
import { queueingNow } from './message-queue.js';

const MINUTE_MS = 60_000;

/** Why a slot's WAITING entries can no longer get an offer, in the activity log's words. */
type Unbookable = { final: true; why: string } | { final: false };

/**
 * Whether places of this slot may be offered now (§20, decision 5: open, not blocked by an imported
 * calendar, a start of the schedule before its notice period; the notice is never ignored). A slot
 * beyond the booking window is not offered yet but keeps its waitlist; anything else that stops it
 * being bookable ends its waitlist. Undefined: it is bookable.
 */
async function unbookable(store: Store, exp: ExperienceRow, timezone: string, start: number, slot: SlotState | undefined, now: number): Promise<Unbookable | undefined> {
  if (exp.active !== 1) return { final: true, why: 'its experience is no longer active' };
  if (slot?.closed) return { final: true, why: 'its departure was closed' };
  const problem = slotProblem(rulesOf(exp), zoneOf(exp, timezone), start, now);
  if (problem === 'TOO_FAR') return { final: false };
  if (problem === 'NOT_A_SLOT') return { final: true, why: 'its time is no longer on the schedule' };
  if (problem !== null) return { final: true, why: 'its departure no longer takes bookings' };
  const end = start + exp.duration * MINUTE_MS;
  const blocks = await store.calendarImports.busyIntervalsFor(exp.orgId, exp.id, start, end);
  if (overlapsAny(start, end, blocks)) return { final: true, why: 'its departure is blocked by an imported calendar' };
  return undefined;
}

const placesWord = (n: number) => `${n} ${n === 1 ? 'place' : 'places'}`;
const slotName = (exp: { name: string }, start: number) => `${exp.name} at ${new Date(start).toISOString()}`;

/** A WAITING entry that will never be offered: EXPIRED (false when someone else moved it first). */
async function expireWaiting(store: Store, entry: WaitlistRow, exp: ExperienceRow, why: string, now: number): Promise<boolean> {
  if (!(await store.waitlist.moveEntry(entry.id, ['WAITING'], 'EXPIRED', { updatedAt: now }))) return false;
  await recordActivity(store, entry.orgId, SYSTEM, {
    action: 'waitlist.expire',
    targetType: 'waitlist_entry',
    targetId: entry.id,
    summary: `Waiting entry for ${placesWord(entry.places)} on ${slotName(exp, entry.slotStart)} expired: ${why}`,
  }, now);
  return true;
}

/** Offers one entry its places: they are taken in the slot's counter, then the entry moves; either fails, nothing is kept. */
async function offer(store: Store, entry: WaitlistRow, exp: ExperienceRow, until: number, now: number): Promise<boolean> {
  // A party whose tickets take no places (§14) holds nothing.
  if (entry.places > 0 && !(await store.bookings.takePlaces(exp.id, entry.slotStart, entry.places, exp.maxParticipants))) return false;
  if (!(await store.waitlist.moveEntry(entry.id, ['WAITING'], 'OFFERED', { offeredAt: now, offerExpiresAt: until, updatedAt: now }))) {
    await store.bookings.addBookedPlaces(exp.id, entry.slotStart, -entry.places);
    return false;
  }
  // The offer's token is minted when the e-mail is composed (services/message-compose.ts).
  await store.messages.enqueueMessage({
    orgId: entry.orgId,
    bookingId: null,
    // Not yet in MessageKind on this branch: the waitlist's e-mails (their kinds, composing them) come with the guest's side.
    kind: 'WAITLIST_OFFER',
    to: entry.guestEmail,
    createdAt: now,
    waitlistEntryId: entry.id,
    ...queueingNow(),
  });
  await recordActivity(store, entry.orgId, SYSTEM, {
    action: 'waitlist.offer',
    targetType: 'waitlist_entry',
    targetId: entry.id,
    summary: `Offered ${placesWord(entry.places)} on ${slotName(exp, entry.slotStart)} until ${new Date(until).toISOString()}`,
  }, now);
  return true;
}

/**
 * Offers the places free in one slot to its WAITING entries, oldest first: the first whose places fit
 * gets an offer that holds them, again until none fits; a slot that stopped being bookable has its
 * WAITING entries EXPIRED instead. Call it in the same transaction as the change that freed places,
 * after that change's write to the slot's counter: on PostgreSQL that write holds the counter's row
 * lock until commit, so no booking of the slot can take the freed places in between. Answers how many
 * offers it made. A slot without WAITING entries costs one indexed read.
 */
export async function offerFreedPlaces(store: Store, orgId: string, experienceId: string, slotStart: number, now: number): Promise<number> {
  const plan = await planFor(store, orgId, experienceId, slotStart, now);
  if (plan.kind === 'expire') for (const entry of plan.waiting) await expireWaiting(store, entry, plan.exp, plan.why, now);
  if (plan.kind !== 'offer') return 0;
  let offers = 0;
  for (const entry of plan.entries) if (await offer(store, entry, plan.exp, plan.until, now)) offers++;
  return offers;
}

/** What a slot's waitlist calls for now: nothing, its WAITING entries EXPIRED, or offers to these entries until then. */
type Plan =
  | { kind: 'none' }
  | { kind: 'expire'; exp: ExperienceRow; waiting: WaitlistRow[]; why: string }
  | { kind: 'offer'; exp: ExperienceRow; entries: WaitlistRow[]; until: number };

async function planFor(store: Store, orgId: string, experienceId: string, slotStart: number, now: number): Promise<Plan> {
  const waiting = await store.waitlist.listWaiting(experienceId, slotStart);
  if (waiting.length === 0) return { kind: 'none' };
  const [org, exp, slot] = await Promise.all([
    store.organizations.getOrganization(orgId),
    store.experiences.getExperience(orgId, experienceId),
    store.slots.getSlot(experienceId, slotStart),
  ]);
  if (!org || !exp) return { kind: 'none' };
  const closedFor = await unbookable(store, exp, org.timezone, slotStart, slot, now);
  if (closedFor) return closedFor.final ? { kind: 'expire', exp, waiting, why: closedFor.why } : { kind: 'none' };
  const until = offerEndsAt(now, org.waitlistOfferMinutes, slotStart, exp.minNoticeMinutes);
  // At the very instant its notice period begins, an offer would end as it is made.
  if (until <= now) return { kind: 'expire', exp, waiting, why: 'its departure no longer takes bookings' };
  const entries = entriesToOffer(waiting, remainingPlaces(slotCapacity(exp.maxParticipants, slot), slot?.booked ?? 0));
  if (entries.length === 0) return { kind: 'none' };
  return { kind: 'offer', exp, entries, until };
}

/**
 * Ends an OFFERED entry's offer as EXPIRED (its time ran out, or its token was used too late): the
 * entry moves, its places leave the slot's counter and are offered on, all in one transaction.
 * Answers false, changing nothing, when the entry was no longer OFFERED (another process expired,
 * accepted or removed it first).
 */
export async function expireOffer(store: Store, entry: WaitlistRow, now: number): Promise<boolean> {
  return await store.transaction(async () => {
    if (!(await store.waitlist.moveEntry(entry.id, ['OFFERED'], 'EXPIRED', { updatedAt: now }))) return false;
    await store.bookings.addBookedPlaces(entry.experienceId, entry.slotStart, -entry.places);
    const exp = await store.experiences.getExperience(entry.orgId, entry.experienceId);
    await recordActivity(store, entry.orgId, SYSTEM, {
      action: 'waitlist.expire',
      targetType: 'waitlist_entry',
      targetId: entry.id,
      summary: `Offer of ${placesWord(entry.places)} on ${slotName(exp ?? { name: entry.experienceId }, entry.slotStart)} lapsed`,
    }, now);
    await offerFreedPlaces(store, entry.orgId, entry.experienceId, entry.slotStart, now);
    return true;
  });
}

/**
 * A departure closed: its WAITING and OFFERED entries become EXPIRED (decision 5), the offers'
 * places leaving its counter. Call it in the closing's transaction. Answers how many expired.
 */
export async function expireClosedSlotWaitlist(store: Store, exp: ExperienceRow, slotStart: number, now: number): Promise<number> {
  let expired = 0;
  for (const entry of await store.waitlist.listLiveEntries(exp.id, slotStart)) {
    if (entry.status === 'WAITING') {
      if (await expireWaiting(store, entry, exp, 'its departure was closed', now)) expired++;
      continue;
    }
    if (!(await store.waitlist.moveEntry(entry.id, ['OFFERED'], 'EXPIRED', { updatedAt: now }))) continue;
    await store.bookings.addBookedPlaces(exp.id, slotStart, -entry.places);
    await recordActivity(store, entry.orgId, SYSTEM, {
      action: 'waitlist.expire',
      targetType: 'waitlist_entry',
      targetId: entry.id,
      summary: `Offer of ${placesWord(entry.places)} on ${slotName(exp, slotStart)} ended: its departure was closed`,
    }, now);
    expired++;
  }
  return expired;
}

/** Slots looked at per call of `settleWaitingSlots`: the soonest, which are the ones a change of time affects first. */
const SETTLE_LIMIT = 500;

/**
 * Every slot (of one experience, one organization, or all) that has WAITING entries, offered what
 * it has free now or, when it stopped being bookable, its entries EXPIRED: after a change that may
 * free places or end bookability in many slots at once (a higher `maxParticipants`, a new schedule,
 * an imported calendar's new blocks), and by the sweeper now and then, so that what no change
 * announces (a notice period that begins) is seen too. Call it inside a transaction.
 */
export async function settleWaitingSlots(store: Store, scope: { orgId?: string; experienceId?: string }, now: number): Promise<number> {
  let offers = 0;
  for (const slot of await store.waitlist.listWaitingSlots(scope, SETTLE_LIMIT)) {
    offers += await offerFreedPlaces(store, slot.orgId, slot.experienceId, slot.slotStart, now);
  }
  return offers;
}

export interface WaitlistSweeperDeps {
  store: Store;
  logger: Logger;
  now?: () => number;
}

const BATCH = 50;

const errorText = (err: unknown) => (err instanceof Error ? `${err.name}: ${err.message}` : String(err));

/**
 * One pass over the offers that have lapsed by now: each becomes EXPIRED and its places are offered
 * on, one transaction each. Safe beside other processes doing the same (the move is conditional)
 * and after a restart (the database says what lapsed; nothing is kept in memory). Answers how many
 * offers it expired.
 */
export async function sweepLapsedOffers(deps: WaitlistSweeperDeps): Promise<number> {
  const now = deps.now?.() ?? Date.now();
  let expired = 0;
  for (const entry of await deps.store.waitlist.listLapsedOffers(now, BATCH)) {
    try {
      if (await expireOffer(deps.store, entry, now)) expired++;
    } catch (err) {
      deps.logger.error('could not expire a lapsed waitlist offer', { entryId: entry.id, error: errorText(err) });
    }
  }
  return expired;
}

/** The sweeper's slower round: every slot with a waitlist settled (see `settleWaitingSlots`), each in its own transaction. */
export async function settleAllWaitlists(deps: WaitlistSweeperDeps): Promise<number> {
  const now = deps.now?.() ?? Date.now();
  let offers = 0;
  for (const slot of await deps.store.waitlist.listWaitingSlots({}, SETTLE_LIMIT)) {
    try {
      // Read first, outside any transaction: most slots with a waitlist are full and still bookable,
      // and those take no writer's turn. The transaction plans again from what it reads itself.
      if ((await planFor(deps.store, slot.orgId, slot.experienceId, slot.slotStart, now)).kind === 'none') continue;
      offers += await deps.store.transaction(() => offerFreedPlaces(deps.store, slot.orgId, slot.experienceId, slot.slotStart, now));
    } catch (err) {
      deps.logger.error('could not settle a waitlist', { experienceId: slot.experienceId, slotStart: slot.slotStart, error: errorText(err) });
    }
  }
  return offers;
}
