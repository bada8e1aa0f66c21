import type { ExperienceRow } from '../store/experiences.js';
import { iso } from './instant.js';
import { categoriesOf } from '../domain/tickets.js';
import { extrasOf, questionsOf } from '../domain/booking-form.js';
import { PublicExperience, type Experience, type Schedule } from '../../shared/index.js';

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
    priceCategories: categoriesOf(row.priceCategories),
    meetingPoint: row.meetingPoint ?? null,
    meetingPointUrl: row.meetingPointUrl ?? null,
    guestInstructions: row.guestInstructions ?? null,
    questions: questionsOf(row.questions),
    extras: extrasOf(row.extras),
    waitlist: row.waitlist === 1,
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
  };
}

/** What a guest's browser sees of an experience: the record without its operating rules, with the org's language. */
export function serializePublicExperience(row: ExperienceRow, currency: string, defaultLocale: string): PublicExperience {
  const experience = serializeExperience(row, currency);
  return PublicExperience.parse({ ...experience, extras: experience.extras.filter((e) => e.active), defaultLocale });
}
