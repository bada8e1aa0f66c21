import { newId } from '../domain/ids.js';
import type { Actor } from '../domain/actor.js';
import { recordActivity } from './activity.js';
import { Refusal, notFound, invalid } from '../domain/refusal.js';
import type { ExperienceRow } from '../store/experiences.js';
import { categoriesOf, resolveCategories } from '../domain/tickets.js';
import { extrasOf, questionsOf, resolveExtras, resolveQuestions } from '../domain/booking-form.js';
import type { Store } from '../store/index.js';
import { settleWaitingSlots } from './waitlist-offers.js';
import type { Page, PageResult } from '../store/sql.js';
import { WEEKDAYS, type ExperienceCreate, type ExperiencePatch, type Schedule, type ScheduleInput } from '../../shared/index.js';

const uniqueSorted = (times: readonly string[]) => [...new Set(times)].sort();

/** The schedule as stored: every field present, times sorted and unique, exceptions by date. */
export function normalizeSchedule(input: ScheduleInput): Schedule {
  const weekly: Schedule['weekly'] = {};
  for (const day of WEEKDAYS) {
    const times = input.weekly[day];
    if (times !== undefined) weekly[day] = uniqueSorted(times);
  }
  return {
    timezone: input.timezone ?? null,
    weekly,
    startDate: input.startDate ?? null,
    endDate: input.endDate ?? null,
    exceptions: [...(input.exceptions ?? [])]
      .map((e) => ({ date: e.date, times: uniqueSorted(e.times) }))
      .sort((a, b) => (a.date < b.date ? -1 : 1)),
  };
}

/** A guest-information text as stored: blank (or absent) is null, so guests never see an empty heading. */
function guestText(value: string | null | undefined): string | null {
  return value == null || value.trim() === '' ? null : value.trim();
}

export async function createExperience(store: Store, orgId: string, input: ExperienceCreate, now: number, actor: Actor): Promise<ExperienceRow> {
  const row: ExperienceRow = {
    id: newId('experience'),
    orgId,
    name: input.name,
    description: input.description,
    duration: input.duration,
    price: input.price,
    maxParticipants: input.maxParticipants,
    maxPerBooking: input.maxPerBooking ?? null,
    schedule: input.schedule ? JSON.stringify(normalizeSchedule(input.schedule)) : null,
    minNoticeMinutes: input.minNoticeMinutes ?? 0,
    maxAdvanceDays: input.maxAdvanceDays ?? 365,
    active: input.active === false ? 0 : 1,
    priceCategories: JSON.stringify(resolveCategories(input.priceCategories ?? [], [], () => newId('priceCategory', now))),
    meetingPoint: guestText(input.meetingPoint),
    meetingPointUrl: guestText(input.meetingPointUrl),
    guestInstructions: guestText(input.guestInstructions),
    questions: JSON.stringify(resolveQuestions(input.questions ?? [], [], () => newId('question', now))),
    extras: JSON.stringify(resolveExtras(input.extras ?? [], [], () => newId('extra', now))),
    waitlist: input.waitlist === true ? 1 : 0,
    createdAt: now,
    updatedAt: now,
  };
  await store.transaction(async () => {
    await store.experiences.insertExperience(row);
    await recordActivity(store, orgId, actor, { action: 'experience.create', targetType: 'experience', targetId: row.id, summary: `Created ${row.name}` }, now);
  });
  return row;
}

/** The fields whose change may free places in a slot or make it bookable no more: its waitlist is looked at again. */
const SLOT_RULES = ['maxParticipants', 'schedule', 'minNoticeMinutes', 'maxAdvanceDays', 'active', 'duration'] as const;

/**
 * Applies a change. Existing bookings keep their own start, end, unit price and currency, so
 * nothing here touches them.
 */
export async function updateExperience(store: Store, orgId: string, id: string, patch: ExperiencePatch, now: number, actor: Actor): Promise<ExperienceRow> {
  return await store.transaction(async () => {
    const current = await getExperience(store, orgId, id);
    const next: ExperienceRow = {
      ...current,
      name: patch.name ?? current.name,
      description: patch.description ?? current.description,
      duration: patch.duration ?? current.duration,
      price: patch.price ?? current.price,
      maxParticipants: patch.maxParticipants ?? current.maxParticipants,
      maxPerBooking: patch.maxPerBooking === undefined ? current.maxPerBooking : patch.maxPerBooking,
      schedule:
        patch.schedule === undefined
          ? current.schedule
          : patch.schedule === null
            ? null
            : JSON.stringify(normalizeSchedule(patch.schedule)),
      minNoticeMinutes: patch.minNoticeMinutes ?? current.minNoticeMinutes,
      maxAdvanceDays: patch.maxAdvanceDays ?? current.maxAdvanceDays,
      active: patch.active === undefined ? current.active : patch.active ? 1 : 0,
      // The list sent replaces the list; bookings keep the categories they were booked in.
      priceCategories:
        patch.priceCategories === undefined
          ? current.priceCategories
          : JSON.stringify(resolveCategories(patch.priceCategories, categoriesOf(current.priceCategories), () => newId('priceCategory', now))),
      meetingPoint: patch.meetingPoint === undefined ? (current.meetingPoint ?? null) : guestText(patch.meetingPoint),
      meetingPointUrl: patch.meetingPointUrl === undefined ? (current.meetingPointUrl ?? null) : guestText(patch.meetingPointUrl),
      guestInstructions: patch.guestInstructions === undefined ? (current.guestInstructions ?? null) : guestText(patch.guestInstructions),
      // As the categories: the list sent replaces the list; bookings keep the answers and extras they have.
      questions:
        patch.questions === undefined
          ? current.questions
          : JSON.stringify(resolveQuestions(patch.questions, questionsOf(current.questions), () => newId('question', now))),
      extras:
        patch.extras === undefined ? current.extras : JSON.stringify(resolveExtras(patch.extras, extrasOf(current.extras), () => newId('extra', now))),
      // Turning the waitlist off refuses new joins only: entries already waiting keep their turn.
      waitlist: patch.waitlist === undefined ? (current.waitlist ?? 0) : patch.waitlist ? 1 : 0,
      updatedAt: now,
    };
    if (next.maxPerBooking !== null && next.maxPerBooking > next.maxParticipants) {
      throw invalid(
        patch.maxPerBooking === undefined ? 'maxParticipants' : 'maxPerBooking',
        `maxPerBooking (${next.maxPerBooking}) must not exceed maxParticipants (${next.maxParticipants}); lower both together`,
      );
    }
    await store.experiences.updateExperience(next);
    const fields = Object.keys(patch).join(', ');
    await recordActivity(store, orgId, actor, { action: 'experience.update', targetType: 'experience', targetId: id, summary: `Changed ${fields} of ${next.name}` }, now);
    // More places per slot go to the waitlists first; slots no longer bookable end theirs.
    if (SLOT_RULES.some((field) => patch[field] !== undefined)) await settleWaitingSlots(store, { experienceId: id }, now);
    return next;
  });
}

export async function deleteExperience(store: Store, orgId: string, id: string, now: number, actor: Actor): Promise<void> {
  await store.transaction(async () => {
    const exp = await getExperience(store, orgId, id);
    if (await store.experiences.experienceHasBookings(id)) {
      throw new Refusal('CONFLICT', 'The experience has bookings and cannot be deleted; set active to false instead');
    }
    await store.experiences.deleteExperience(orgId, id);
    await recordActivity(store, orgId, actor, { action: 'experience.delete', targetType: 'experience', targetId: id, summary: `Deleted ${exp.name}` }, now);
  });
}

export async function listExperiences(store: Store, orgId: string, filter: { active?: boolean }, page: Page): Promise<PageResult<ExperienceRow>> {
  return await store.experiences.listExperiences(orgId, filter, page);
}

export async function getExperience(store: Store, orgId: string, id: string): Promise<ExperienceRow> {
  const row = await store.experiences.getExperience(orgId, id);
  if (!row) throw notFound('Experience');
  return row;
}

/** An experience guests may see: an inactive one is as good as absent on the public API. */
export async function getActiveExperience(store: Store, orgId: string, id: string): Promise<ExperienceRow> {
  const row = await store.experiences.getExperience(orgId, id);
  if (!row || row.active !== 1) throw notFound('Experience');
  return row;
}
