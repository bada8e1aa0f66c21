/** Choosing a time, the party and the guest's details, and booking it (shared/schemas/booking.ts). */
import type { Locale, PriceChangedDetails, PublicBooking, PublicBookingCreate, PublicBookingStatus } from '../../shared/index.js';
import { ApiError, newIdempotencyKey } from '../api.js';
import type { OutingApi } from '../api.js';
import { isOpen } from './availability.js';
import type { Slot } from './availability.js';
import { go } from './calendar-actions.js';
import { problemOf, request } from './requests.js';
import { batch } from './signals.js';
import type { BookingState } from './state.js';
import { checkContact } from './validate.js';
import type { Contact, ContactField, FieldProblem, FieldProblems } from './validate.js';

/** `detail` of the `outing:booked` event (README.md, "Embed the widget"). */
export interface BookedDetail {
  bookingNumber: string;
  experienceId: string;
  startTime: string;
  participants: number;
  total: string;
  currency: string;
}

/** Where `submit` sends the guest's details instead of `POST /public/v1/bookings` (booking-actions.ts submit). */
export interface OtherSubmit {
  /** The route under /public/v1/. */
  path: string;
  /** Its body, from the booking's. */
  body(booking: PublicBookingCreate): unknown;
  /** What follows its answer. */
  done(made: unknown): void;
  /** True when it showed the refusal itself. */
  refused(e: unknown): boolean;
}

/** A price category with the quantity chosen (state.ts). */
export type Ticketed = BookingState['tickets']['value'][number];

/** The server's name of each field the guest fills, and what a refusal of it says. */
const FIELDS: Record<string, [ContactField, FieldProblem]> = {
  customerName: ['name', 'required'],
  customerEmail: ['email', 'invalidEmail'],
  customerPhone: ['phone', 'invalidPhone'],
};

/** A 400 naming the guest's fields becomes messages beside them; anything else is not ours. */
function fieldsOf(e: unknown): FieldProblems {
  const problems: FieldProblems = {};
  if (e instanceof ApiError && Array.isArray(e.details)) {
    for (const d of e.details) {
      const field = FIELDS[d.path];
      if (field) problems[field[0]] = field[1];
    }
  }
  return problems;
}

/**
 * Whether the server may have stored the booking without the guest hearing back: then the next
 * try must send the same Idempotency-Key, so that it replays instead of booking twice.
 */
function outcomeUnknown(e: unknown): boolean {
  return !(e instanceof ApiError) || e.code === 'NETWORK' || e.code === 'BAD_RESPONSE' || e.code === 'IDEMPOTENCY_KEY_IN_USE';
}

export function createBookingActions(
  s: BookingState,
  api: OutingApi,
  refreshAfterSlotTaken: () => Promise<void>,
  onBooked?: (detail: BookedDetail) => void,
  lang?: () => Locale,
) {
  // The key of the submission whose outcome is unknown, reused while its body stays the same.
  let attempt: { body: string; key: string } | null = null;

  /** A time with places, to book; or a full one of an experience with a waitlist, to join it (widget/waitlist/chunk.ts). */
  function chooseSlot(chosen: Slot): void {
    if (!isOpen(chosen, s.experience.value?.waitlist)) return;
    batch(() => {
      s.slot.value = chosen;
      s.trouble.value = null;
      go(s, s.hasForm.value ? 'form' : 'details');
      s.participants.value = Math.min(s.participants.value, s.maxParticipants.value);
      // Fewer places at this time than the tickets chosen take: the last categories give way.
      for (const c of [...s.tickets.value].reverse()) setTicket(c, c.quantity);
    });
  }

  const count = (n: number, least: number, most: number) => Math.max(least, Math.min(Math.floor(n) || 0, most));

  function setParticipants(n: number): void {
    s.participants.value = count(n, 1, s.maxParticipants.value);
  }

  /** A category's quantity, within the places left for it; one that takes no place is not limited by them. */
  function setTicket(c: Ticketed, n: number): void {
    const most = s.mostOf(c);
    s.quantities.value = { ...s.quantities.value, [c.id]: count(n, 0, most) };
  }

  function setContact(field: keyof Contact, value: string): void {
    batch(() => {
      s.contact.value = { ...s.contact.value, [field]: value };
      if (field !== 'website' && s.fieldProblems.value[field]) s.fieldProblems.value = { ...s.fieldProblems.value, [field]: undefined };
    });
  }

  /** Shows the problems beside their fields and sends focus to the first; false when there are none. */
  function showFieldProblems(problems: FieldProblems): boolean {
    const tickets = s.tickets.value;
    // Tickets that take no place cannot be booked alone: the note under them says so, and focus
    // goes to the first category that takes one.
    const first = tickets.length && !s.places.value
      ? `ticket-${tickets.findIndex((c) => c.occupiesPlace)}`
      : (['name', 'email', 'phone'] as const).find((f) => problems[f]);
    if (first) s.session.focusId = first;
    s.fieldProblems.value = problems;
    return !!first;
  }

  function bookingBody(slot: Slot, experienceId: string): PublicBookingCreate {
    const { name, email, phone, website } = s.contact.value;
    const tickets = s.tickets.value;
    return {
      experienceId,
      startTime: slot.startTime,
      ...(tickets.length
        ? { tickets: tickets.filter((c) => c.quantity).map((c) => ({ categoryId: c.id, quantity: c.quantity })) }
        : { participants: s.participants.value }),
      ...s.session.form?.body(),
      customerName: name.trim(),
      customerEmail: email.trim(),
      // Left out when empty or unknown: JSON drops an undefined field.
      customerPhone: phone.trim() || undefined,
      locale: lang?.(),
      // The total the guest sees: a price changed meanwhile is refused, not charged (409 PRICE_CHANGED).
      expectedTotal: (s.totalCents.value / 100).toFixed(2),
      website,
    };
  }

  /** The booking made, or found paid on the way back: shown, and told to the host page once CONFIRMED. */
  function show(b: PublicBooking | PublicBookingStatus): void {
    batch(() => {
      s.booking.value = b;
      s.payment.value = null;
      go(s, 'done');
    });
    if (b.status === 'CONFIRMED') {
      onBooked?.({
        bookingNumber: b.bookingNumber,
        experienceId: b.experience.id,
        startTime: b.timeSlot.startTime,
        participants: b.totalParticipants,
        total: b.total,
        currency: b.currency,
      });
    }
  }

  /**
   * "Book": the guest's details checked, the booking sent (with an Idempotency-Key kept while its
   * outcome is unknown), its refusals shown where they belong. `other` sends the same to another
   * route instead (a waitlist's join, widget/waitlist/chunk.ts): its body from the booking's, what
   * follows success, and the refusals it shows itself.
   */
  async function submit(other?: OtherSubmit): Promise<void> {
    const slot = s.slot.value;
    const experience = s.experience.value;
    if (!slot || !experience || s.busy.value || showFieldProblems(checkContact(s.contact.value))) return;
    const b = bookingBody(slot, experience.id);
    const body = other ? other.body(b) : b;
    const json = JSON.stringify(body);
    if (attempt?.body !== json) attempt = { body: json, key: newIdempotencyKey() };
    const key = attempt.key;

    const mine = ++s.session.generation;
    batch(() => {
      s.busy.value = true;
      s.trouble.value = null;
      s.priceChanged.value = null;
    });
    try {
      const made = await api.post<PublicBooking>(other ? other.path : 'bookings', body, { 'Idempotency-Key': key });
      attempt = null;
      if (s.session.disposed) return;
      other ? other.done(made) : show(made);
    } catch (e) {
      if (!outcomeUnknown(e)) attempt = null;
      if (s.session.disposed) return;
      const code = e instanceof ApiError ? e.code : '';
      if (other?.refused(e)) {
        // Said by the other route's step.
      } else if (code === 'SLOT_UNAVAILABLE' || code === 'CAPACITY_EXCEEDED') {
        batch(() => {
          s.slot.value = null;
          s.busy.value = false;
          go(s, 'times');
        });
        await refreshAfterSlotTaken();
        // Said once fresh times show (the refresh clears messages), unless the refresh failed.
        if (!s.trouble.value) s.trouble.value = { problem: 'slotTaken' };
      } else if (code === 'PRICE_CHANGED') {
        // Today's prices, so that every line and the total show what booking now costs; then the
        // guest hears the new total (focus on it) and presses Book again to accept it.
        const fresh = await request(s, () => api.getExperience(experience.id), () => void submit(other));
        if (fresh) {
          s.session.focusId = 'changed';
          batch(() => {
            s.experience.value = fresh;
            s.priceChanged.value = ((e as ApiError).details as PriceChangedDetails).total;
          });
        }
        // A 400 on answers or extras goes back to the booking form's step, which says it beside its fields.
      } else if (!s.session.form?.refused(e) && !showFieldProblems(fieldsOf(e))) {
        s.trouble.value = { problem: problemOf(e), retry: () => void submit(other) };
      }
    } finally {
      if (mine === s.session.generation) s.busy.value = false;
    }
  }

  return { chooseSlot, setParticipants, setTicket, setContact, submit, show };
}
