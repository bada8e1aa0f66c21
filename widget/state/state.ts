/**
 * The booking model's state: signals components read, values derived from them, and the few
 * plain variables actions share (which request is current, where focus goes next).
 */
import type { AnswerInput, PublicBooking, PublicBookingCreate, PublicBookingStatus, PublicExperience } from '../../shared/index.js';
import type { BookingLines, LinesInput } from '../../shared/lines.js';
import type { Messages } from '../i18n/messages.js';
import type { CodeState } from '../codes/types.js';
import type { WaitlistState } from '../waitlist/types.js';
import type { Calendar, Slot } from './availability.js';
import { addMonths, monthOf } from './dates.js';
import { computed, signal } from './signals.js';
import type { Contact, FieldProblems } from './validate.js';

/** `form`: the experience's extras and questions, with the party (widget/form/chunk.ts); only when it has any. */
export type Step = 'experiences' | 'calendar' | 'times' | 'form' | 'details' | 'done';
/**
 * The guest back from the payment page (docs/payments.md), on the done step: the payment being
 * confirmed, still not confirmed after a while, not made, or no such booking.
 */
export type Payment = keyof Messages['returned'];
export type Problem = keyof Messages['errors'];

/**
 * The booking form's extras (those of the experience, each at least one), answers by question id
 * (none when unanswered), and the problems it shows by field id.
 */
export interface FormState {
  extras?: LinesInput['extras'];
  answers?: Record<string, AnswerInput['value']>;
  problems?: Record<string, string | undefined>;
  /** The "Have a code?" box once opened, and what it holds (widget/codes/chunk.ts). */
  code?: CodeState;
  /** Joining a full time's waitlist, and the entry made (widget/waitlist/chunk.ts). */
  waitlist?: WaitlistState;
}

export interface Trouble {
  problem: Problem;
  /** Present when trying again can help (network, rate limit, server fault). */
  retry?: () => void;
}

// A booking window reaches up to 730 days ahead (maxAdvanceDays in shared/schemas/experience.ts).
const MONTHS_AHEAD = 24;


export const emptyContact: Contact = { name: '', email: '', phone: '', website: '' };

/** Not signals: nothing renders from these. */
interface Session {
  /** Answers to superseded requests (and any after unmount) are dropped by comparing this. */
  generation: number;
  disposed: boolean;
  /** Where keyboard focus goes after the next render (an element id). */
  focusId: string | null;
  /**
   * What the booking form's chunk adds once it shows (widget/form/chunk.ts): the answers and
   * extras a booking sends, a refusal of them shown on its step (true when it was), and the
   * booking's money lines, its extras included (shared/lines.ts), listing only what is bought.
   */
  form?: { body(): Pick<PublicBookingCreate, 'answers' | 'extras' | 'promoCode' | 'voucherCode'>; refused(e: unknown): boolean; lines(): BookingLines };
}

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
    return categories.map((c) => {
      const quantity = quantities.value[c.id] ?? +(c === first);
      // amount: read as a money line is (shared/lines.ts) where no booking form makes the lines.
      return { ...c, quantity, amount: quantity * c.price };
    });
  });
  const participants = signal(1);
  /** Whether the experience asks questions or sells extras: then the booking form's step shows. */
  const hasForm = computed(() => experience.value?.questions.length || experience.value?.extras.length);
  const form = signal<FormState>({});
  const session: Session = {
    /** Answers to superseded requests (and any after unmount) are dropped by comparing this. */
    generation: 0,
    disposed: false,
    /** Where keyboard focus goes after the next render (an element id). */
    focusId: null as string | null,
  };

  /** The places the tickets take: infants on a lap take none (server/domain/tickets.ts). */
  const places = computed(() => tickets.value.reduce((n, c) => n + (c.occupiesPlace ? c.quantity : 0), 0));
  // A full time (chosen to join its waitlist, widget/waitlist/chunk.ts) limits the party by the booking's limit alone.
  const maxParticipants = computed(() => Math.max(1, Math.min(experience.value?.maxPerBooking ?? 1, (slot.value?.remaining ?? 1) || 1e4)));
  return {
    experienceId,
    now,
    firstStep,
    steps: computed((): Step[] => [...(experienceId ? [] : ['experiences' as const]), 'calendar', 'times', ...(hasForm.value ? ['form' as const] : []), 'details', 'done']),
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
    hasForm,
    /** What the booking form's step holds (widget/form/chunk.ts): the extras chosen, the answers, the problems shown. */
    form,
    /**
     * What the party costs, in cents, sent as `expectedTotal`: with a booking form, the total of its
     * lines, extras included (shared/lines.ts, made by its chunk); else the tickets' total, or the
     * price per participant.
     */
    totalCents: computed(
      () =>
        // The form signal too: a chunk's hook (session.form) may read what it keeps there.
        (form.value, session.form?.lines().total) ??
        (tickets.value.length
          ? tickets.value.reduce((sum, c) => sum + c.amount, 0)
          : (experience.value?.price ?? 0) * participants.value),
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
    session,

  };
}

export type BookingState = ReturnType<typeof createBookingState>;
