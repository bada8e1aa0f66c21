/**
 * The booking model's state: signals components read, values derived from them, and the few
 * plain variables actions share (which request is current, where focus goes next).
 */
import type { PublicBooking, PublicBookingStatus, PublicExperience } from '../../shared/index.js';
import type { Messages } from '../i18n/messages.js';
import type { Calendar, Slot } from './availability.js';
import { addMonths, monthOf } from './dates.js';
import { computed, signal } from './signals.js';
import type { Contact, FieldProblems } from './validate.js';

export type Step = 'experiences' | 'calendar' | 'times' | 'details' | 'done';
/**
 * The guest back from the payment page (docs/payments.md), on the done step: the payment being
 * confirmed, still not confirmed after a while, not made, or no such booking.
 */
export type Payment = keyof Messages['returned'];
export type Problem = keyof Messages['errors'];

export interface Trouble {
  problem: Problem;
  /** Present when trying again can help (network, rate limit, server fault). */
  retry?: () => void;
}

// A booking window reaches up to 730 days ahead (maxAdvanceDays in shared/schemas/experience.ts).
const MONTHS_AHEAD = 24;


export const emptyContact: Contact = { name: '', email: '', phone: '', website: '' };

export function createBookingState(experienceId: string | undefined, now: () => Date) {
  const firstStep: Step = experienceId ? 'calendar' : 'experiences';
  const step = signal<Step>(firstStep);
  const experience = signal<PublicExperience | null>(null);
  const calendar = signal<Calendar | null>(null);
  const month = signal<string>(monthOf(now().toISOString()));
  const date = signal<string | null>(null);
  const slot = signal<Slot | null>(null);
  const quantities = signal<Record<string, number>>({});
  // One ticket of the first category that takes a place until the guest says otherwise: as a
  // party of one is where the participants field starts.
  const tickets = computed(() => {
    const categories = experience.value?.priceCategories ?? [];
    const first = categories.find((c) => c.occupiesPlace);
    return categories.map((c) => ({ ...c, quantity: quantities.value[c.id] ?? +(c === first) }));
  });
  const participants = signal(1);

  /** The places the tickets take: infants on a lap take none (server/domain/tickets.ts). */
  const places = computed(() => tickets.value.reduce((n, c) => n + (c.occupiesPlace ? c.quantity : 0), 0));
  const maxParticipants = computed(() => Math.max(1, Math.min(experience.value?.maxPerBooking ?? 1, slot.value?.remaining ?? 1)));
  return {
    experienceId,
    now,
    firstStep,
    steps: (experienceId ? ['calendar', 'times', 'details', 'done'] : ['experiences', 'calendar', 'times', 'details', 'done']) as Step[],
    step,
    experiences: signal<PublicExperience[] | null>(null),
    experience,
    calendar,
    /** The month shown, `YYYY-MM`. */
    month,
    date,
    /** The calendar day in the tab order (the grid's roving focus); null: the default day. */
    cursor: signal<string | null>(null),
    slot,
    participants,
    /** The quantities the guest chose, by price category id (shared/schemas/experience.ts). */
    quantities,
    /** The experience's price categories, each with its quantity; [] when it books by participants. */
    tickets,
    /** The places the tickets take: infants on a lap take none (server/domain/tickets.ts). */
    places,
    /**
     * The most of a category the party may hold: the places left for one that takes a place, and
     * for every category no more tickets in all than the experience's maxParticipants (the server's cap).
     */
    mostOf(c: { occupiesPlace: boolean; quantity: number }): number {
      const all = tickets.value.reduce((n, t) => n + t.quantity, 0);
      const cap = (experience.value?.maxParticipants ?? 1) - all + c.quantity;
      return c.occupiesPlace ? Math.min(cap, maxParticipants.value - places.value + c.quantity) : cap;
    },
    /** What the party costs, in cents: the tickets' total, or the price per participant. It is sent as `expectedTotal`. */
    totalCents: computed(() =>
      tickets.value.length
        ? tickets.value.reduce((sum, c) => sum + c.quantity * c.price, 0)
        : (experience.value?.price ?? 0) * participants.value,
    ),
    /** The total the server quoted when the price changed before the guest booked (409 PRICE_CHANGED). */
    priceChanged: signal<string | null>(null),
    contact: signal<Contact>(emptyContact),
    fieldProblems: signal<FieldProblems>({}),
    busy: signal(false),
    trouble: signal<Trouble | null>(null),
    /** As booked, or as asked for on the way back from paying (then without the guest's details). */
    booking: signal<PublicBooking | PublicBookingStatus | null>(null),
    payment: signal<Payment | null>(null),
    /** Whether the guest has left the first step: from then on step changes are announced. */
    moved: signal(false),

    slotsOfDate: computed(() => (date.value && calendar.value?.byDate[date.value]) || []),
    maxParticipants,
    canGoBack: computed(() => step.value !== firstStep && step.value !== 'done'),
    canShowPreviousMonth: computed(() => !!calendar.value && month.value > monthOf(calendar.value.today)),
    canShowNextMonth: computed(() => !!calendar.value && month.value < addMonths(monthOf(calendar.value.today), MONTHS_AHEAD)),

    // Not signals: nothing renders from these.
    session: {
      /** Answers to superseded requests (and any after unmount) are dropped by comparing this. */
      generation: 0,
      disposed: false,
      /** Where keyboard focus goes after the next render (an element id). */
      focusId: null as string | null,
    },
  };
}

export type BookingState = ReturnType<typeof createBookingState>;
