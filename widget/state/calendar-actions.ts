/** Choosing an experience, a month, a day: the availability the calendar shows, loaded as needed. */
import type { PublicExperience } from '../../shared/index.js';
import type { OutingApi } from '../api.js';
import { hasBookableDay, isBookable, mergeAvailability } from './availability.js';
import type { Calendar } from './availability.js';
import { addMonths, firstDayOf, lastDayOf, monthOf } from './dates.js';
import { request } from './requests.js';
import { batch } from './signals.js';
import type { BookingState, Step } from './state.js';

// The calendar marks days with at least one free place; the party size is checked per slot.
const ONE = 1;

export function go(s: BookingState, to: Step): void {
  batch(() => {
    s.moved.value = true;
    s.step.value = to;
    // A changed price is said on the form it was found on, not on the next one.
    s.priceChanged.value = null;
  });
}

export function createCalendarActions(s: BookingState, api: OutingApi) {
  /** Today's month and the next, in one call: two JSON calls before the times (e2e/embed.e2e.test.ts). */
  const firstRange = (experienceId: string) => ({
    experienceId,
    endDate: lastDayOf(addMonths(monthOf(s.now().toISOString()), 1)),
    participants: ONE,
  });

  /** One month; today's starts at the server's today (past days have nothing to book). */
  const monthRange = (experienceId: string, target: string, known: Calendar) => ({
    experienceId,
    startDate: target === monthOf(known.today) ? undefined : firstDayOf(target),
    endDate: lastDayOf(target),
    participants: ONE,
  });

  function showFirstMonth(loaded: Calendar): void {
    const current = monthOf(loaded.today);
    const next = addMonths(current, 1);
    batch(() => {
      s.calendar.value = loaded;
      s.month.value = !hasBookableDay(loaded, current) && hasBookableDay(loaded, next) ? next : current;
    });
  }

  async function start(): Promise<void> {
    const id = s.experienceId;
    if (id) return loadExperience(id);
    const list = await request(s, () => api.listExperiences(), start);
    if (list) s.experiences.value = list;
  }

  /** An experience and its first months, in one round trip. */
  async function loadExperience(id: string): Promise<void> {
    const answers = await request(
      s,
      () => Promise.all([api.getExperience(id), api.getAvailability(firstRange(id))]),
      () => void loadExperience(id),
    );
    if (answers) {
      batch(() => {
        s.experience.value = answers[0];
        showFirstMonth(mergeAvailability(null, answers[1]));
      });
    }
  }

  async function loadFirstMonths(): Promise<void> {
    const id = s.experience.value?.id;
    if (!id) return;
    const answer = await request(s, () => api.getAvailability(firstRange(id)), loadFirstMonths);
    if (answer) showFirstMonth(mergeAvailability(null, answer));
  }

  function chooseExperience(chosen: PublicExperience): void {
    batch(() => {
      s.experience.value = chosen;
      s.calendar.value = null;
      s.date.value = null;
      s.slot.value = null;
      go(s, 'calendar');
    });
    void loadFirstMonths();
  }

  async function showMonth(target: string): Promise<void> {
    const known = s.calendar.value;
    const id = s.experience.value?.id;
    if (!known || !id) return;
    s.month.value = target;
    if (known.months.includes(target)) return;
    const answer = await request(s, () => api.getAvailability(monthRange(id, target, known)), () => void showMonth(target));
    if (answer && s.calendar.value) s.calendar.value = mergeAvailability(s.calendar.value, answer);
  }

  /** Moves the calendar's roving focus, loading another month when the day lies there. */
  function moveCursor(day: string): void {
    const target = monthOf(day);
    if (target < s.month.value && !s.canShowPreviousMonth.value) return;
    if (target > s.month.value && !s.canShowNextMonth.value) return;
    // Focus requests go before the writes: the writes render, and the render takes the request.
    s.session.focusId = `day-${day}`;
    batch(() => {
      s.cursor.value = day;
      if (target !== s.month.value) void showMonth(target);
    });
  }

  function chooseDate(chosen: string): void {
    if (!isBookable(s.calendar.value, chosen, s.experience.value?.waitlist)) return;
    batch(() => {
      s.date.value = chosen;
      s.trouble.value = null;
      go(s, 'times');
    });
  }

  /** After a 409 the slot went while the guest typed: fresh times for that day, or its month. */
  async function refreshAfterSlotTaken(): Promise<void> {
    const known = s.calendar.value;
    const id = s.experience.value?.id;
    const day = s.date.value;
    if (!known || !id || !day) return;
    const target = monthOf(day);
    const answer = await request(s, () => api.getAvailability(monthRange(id, target, known)), refreshAfterSlotTaken);
    if (!answer) return;
    const fresh = mergeAvailability({ ...known, byDate: {}, months: [] }, answer);
    batch(() => {
      s.calendar.value = fresh;
      s.month.value = target;
      if (!isBookable(fresh, day, s.experience.value?.waitlist)) go(s, 'calendar');
    });
  }

  return { start, loadExperience, loadFirstMonths, chooseExperience, showMonth, moveCursor, chooseDate, refreshAfterSlotTaken };
}
