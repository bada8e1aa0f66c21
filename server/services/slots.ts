import { Refusal, notFound } from '../domain/refusal.js';
import { remainingPlaces, slotCapacity } from '../domain/bookings.js';
import { isScheduledStart, parseSlotId, slotId, slotIdPrefixOf } from '../domain/slots.js';
import type { Actor } from '../domain/actor.js';
import type { SlotView } from '../domain/availability.js';
import type { ExperienceRow } from '../store/experiences.js';
import type { SlotChange, SlotState } from '../store/slots.js';
import type { Store } from '../store/index.js';
import { recordActivity } from './activity.js';
import { rulesOf, zoneOf } from './availability.js';
import { getOrganization } from './organizations.js';
import { expireClosedSlotWaitlist, offerFreedPlaces } from './waitlist-offers.js';
import type { SlotPatch } from '../../shared/index.js';

const MINUTE_MS = 60_000;

function viewOf(id: string, exp: ExperienceRow, start: number, state: SlotState | undefined): SlotView {
  const capacity = slotCapacity(exp.maxParticipants, state);
  const booked = state?.booked ?? 0;
  return {
    id,
    experienceId: exp.id,
    start,
    end: start + exp.duration * MINUTE_MS,
    capacity,
    capacityOverride: state?.capacityOverride ?? null,
    closed: state?.closed ?? false,
    note: state?.note ?? null,
    booked,
    remaining: remainingPlaces(capacity, booked),
  };
}

/**
 * The departure a slot id names: a start of its experience's schedule (past ones too, however far
 * ahead), or a start that holds or held a booking; anything else is not found.
 */
async function findSlot(store: Store, orgId: string, id: string): Promise<{ exp: ExperienceRow; start: number; state: SlotState | undefined }> {
  const parsed = parseSlotId(id);
  if (!parsed) throw notFound('Time slot');
  const org = await getOrganization(store, orgId);
  for (const exp of await store.experiences.listAllExperiences(orgId)) {
    // An id has one spelling: a start written any other way is not this slot's id.
    if (slotIdPrefixOf(exp.id) !== parsed.prefix || slotId(exp.id, parsed.start) !== id) continue;
    const state = await store.slots.getSlot(exp.id, parsed.start);
    if (
      isScheduledStart(rulesOf(exp), zoneOf(exp, org.timezone), parsed.start) ||
      (state !== undefined && state.booked > 0) ||
      (await store.slots.slotHasBookings(exp.id, parsed.start))
    ) {
      return { exp, start: parsed.start, state };
    }
  }
  throw notFound('Time slot');
}

export async function getSlot(store: Store, orgId: string, id: string): Promise<SlotView> {
  const { exp, start, state } = await findSlot(store, orgId, id);
  return viewOf(id, exp, start, state);
}

/** "capacity 8, closed, note" of a change, for the activity log. */
function describeChange(patch: SlotPatch): string {
  const parts: string[] = [];
  if (patch.capacity !== undefined) parts.push(patch.capacity === null ? "capacity back to the experience's" : `capacity ${patch.capacity}`);
  if (patch.closed !== undefined) parts.push(patch.closed ? 'closed' : 'reopened');
  if (patch.note !== undefined) parts.push(patch.note === null ? 'note cleared' : 'note');
  return parts.join(', ');
}

/**
 * Sets a departure's own capacity, closes or reopens it, or changes its note. A capacity below the
 * places already booked is refused and nothing changes: the check and the write are one statement
 * on the slot's counter row, which bookings of the slot take their places through.
 */
export async function updateSlot(store: Store, orgId: string, id: string, patch: SlotPatch, now: number, actor: Actor): Promise<SlotView> {
  return await store.transaction(async () => {
    const { exp, start } = await findSlot(store, orgId, id);
    const change: SlotChange = {};
    if (patch.capacity !== undefined) change.capacityOverride = patch.capacity;
    if (patch.closed !== undefined) change.closed = patch.closed;
    if (patch.note !== undefined) change.note = patch.note;
    const state = await store.slots.updateSlot(exp.id, start, change, exp.maxParticipants);
    if (!state) {
      const booked = (await store.slots.getSlot(exp.id, start))?.booked ?? 0;
      const asked = patch.capacity ?? exp.maxParticipants;
      throw new Refusal('CAPACITY_BELOW_BOOKED', `${booked} places are already booked in this departure: its capacity cannot be ${asked}; nothing was changed`);
    }
    const when = new Date(start).toISOString();
    await recordActivity(store, orgId, actor, { action: 'slot.update', targetType: 'slot', targetId: id, summary: `Changed the ${exp.name} departure of ${when}: ${describeChange(patch)}` }, now);
    // A closed departure ends its waitlist (offers included); a reopened one or a raised capacity may have places to offer.
    if (state.closed) {
      if (await expireClosedSlotWaitlist(store, exp, start, now)) return viewOf(id, exp, start, await store.slots.getSlot(exp.id, start));
    } else if (await offerFreedPlaces(store, orgId, exp.id, start, now)) {
      return viewOf(id, exp, start, await store.slots.getSlot(exp.id, start));
    }
    return viewOf(id, exp, start, state);
  });
}
