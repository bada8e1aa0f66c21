import { notFound } from '../domain/refusal.js';
import { slotsBetween, type Slot } from '../domain/slots.js';
import { DAY_MS, addDays, daysBetween, localDateOf, localTodayOf, startOfLocalDay } from '../domain/time.js';
import type { Manifest as DayManifest, ManifestExperience, ManifestSlot as DaySlot } from '../domain/manifest.js';
import type { ExperienceRow } from '../store/experiences.js';
import type { ManifestBookingRow } from '../store/manifest.js';
import type { Store } from '../store/index.js';
import type { SlotState } from '../store/slots.js';
import { slotCapacity } from '../domain/bookings.js';
import { rulesOf, zoneOf } from './availability.js';
import { getOrganization } from './organizations.js';

export type Manifest = DayManifest<ManifestBookingRow>;
export type ManifestSlot = DaySlot<ManifestBookingRow>;
export type { ManifestExperience };

/**
 * Every slot of an experience's schedule starting in [from, to), whether or not it can still be
 * booked: an operator's day includes the tours already under way and those past the booking
 * window. The schedule's dates are local to its own zone, which need not be the zone `from` and
 * `to` were read in, so the dates around the span are generated and the span cuts them.
 */
export function scheduledSlotsBetween(exp: ExperienceRow, zone: string, from: number, to: number): Slot[] {
  // A wall time can be moved past a gap of up to a day, so a slot may sit on the date before.
  const firstDate = addDays(localDateOf(from, zone), -1);
  const lastDate = localDateOf(to - 1, zone);
  // slotsBetween leaves out what starts before `now` plus the notice, or after today plus the
  // booking window: a `now` before the span, no notice and a window past its end keep everything.
  const rules = { ...rulesOf(exp), minNoticeMinutes: 0, maxAdvanceDays: daysBetween(firstDate, lastDate) + 4 };
  const before = from - 3 * DAY_MS;
  return slotsBetween(rules, zone, firstDate, lastDate, before).filter((s) => s.start >= from && s.start < to);
}

/** The UTC span of one local date: [its midnight, the next day's midnight). */
export function spanOfDate(date: string, zone: string): { from: number; to: number } {
  return { from: startOfLocalDay(date, zone), to: startOfLocalDay(addDays(date, 1), zone) };
}

/**
 * The day's manifest: every slot of every active experience that starts on `date` (in the
 * organization's zone), booked or not, and every slot holding a CONFIRMED or PENDING booking that
 * day, of any experience; by start, then experience name.
 */
export async function manifestFor(store: Store, orgId: string, query: { date?: string; experienceId?: string }, now: number): Promise<Manifest> {
  const org = await getOrganization(store, orgId);
  const date = query.date ?? localTodayOf(now, org.timezone);
  const { from, to } = spanOfDate(date, org.timezone);

  let experiences: ExperienceRow[];
  if (query.experienceId !== undefined) {
    const exp = await store.experiences.getExperience(orgId, query.experienceId);
    if (!exp) throw notFound('Experience');
    experiences = [exp];
  } else {
    experiences = await store.experiences.listAllExperiences(orgId);
  }
  const byId = new Map(experiences.map((exp) => [exp.id, exp]));
  const refs = new Map<string, ManifestExperience>();
  const refOf = (exp: ExperienceRow): ManifestExperience => {
    let ref = refs.get(exp.id);
    if (!ref) refs.set(exp.id, (ref = { id: exp.id, name: exp.name, zone: zoneOf(exp, org.timezone) }));
    return ref;
  };

  const slots = new Map<string, ManifestSlot>();
  const slotOf = (exp: ExperienceRow, start: number, end: number): ManifestSlot => {
    const key = `${exp.id} ${start}`;
    let slot = slots.get(key);
    if (!slot) slots.set(key, (slot = { experience: refOf(exp), start, end, capacity: exp.maxParticipants, booked: 0, closed: false, note: null, waitlist: { waiting: 0, offered: 0 }, bookings: [] }));
    return slot;
  };
  for (const exp of experiences) {
    if (exp.active !== 1) continue;
    for (const s of scheduledSlotsBetween(exp, zoneOf(exp, org.timezone), from, to)) slotOf(exp, s.start, s.end);
  }
  for (const booking of await store.manifest.listManifestBookings(orgId, from, to, query.experienceId)) {
    const exp = byId.get(booking.experienceId);
    if (exp) slotOf(exp, booking.slotStart, booking.slotEnd).bookings.push(booking);
  }

  // Places and the operator's settings from the per-slot counters, and the waitlists' counts: one
  // range read of each per experience that has a slot that day.
  const statesOf = new Map<string, Map<number, SlotState>>();
  const waitlistsOf = new Map<string, Map<number, { waiting: number; offered: number }>>();
  const list = [...slots.values()];
  for (const slot of list) {
    const id = slot.experience.id;
    let states = statesOf.get(id);
    if (!states) statesOf.set(id, (states = await store.slots.slotsBetween(id, from, to)));
    let waitlists = waitlistsOf.get(id);
    if (!waitlists) waitlistsOf.set(id, (waitlists = await store.waitlist.countLiveBetween(id, from, to)));
    slot.waitlist = waitlists.get(slot.start) ?? { waiting: 0, offered: 0 };
    const state = states.get(slot.start);
    slot.booked = state?.booked ?? 0;
    slot.capacity = slotCapacity(slot.capacity, state);
    slot.closed = state?.closed ?? false;
    slot.note = state?.note ?? null;
  }
  list.sort(
    (a, b) =>
      a.start - b.start ||
      (a.experience.name < b.experience.name ? -1 : a.experience.name > b.experience.name ? 1 : 0) ||
      (a.experience.id < b.experience.id ? -1 : a.experience.id > b.experience.id ? 1 : 0),
  );
  return { date, timezone: org.timezone, slots: list };
}
