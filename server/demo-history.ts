/**
 * The demo's last month of business: guests booking, paying, cancelling and arriving, so that Today
 * has guests and Insights has something to draw on a brand-new demo.
 *
 * Nothing is written behind the services' backs. Every step calls the service the API calls, with
 * the moment it happened as its `now`, and the steps run in time order: the booking rules (notice,
 * booking window, capacity) are checked as they were then, and the events and the activity log read
 * like a month of real use. The choices come from a seeded sequence, never Math.random, so the
 * same `now` always gives the same history (ids and booking numbers aside).
 */
import { guestActor, type Actor } from './domain/actor.js';
import { bookingTotalCents, maxPartySize } from './domain/bookings.js';
import { formatMoney } from './domain/money.js';
import { categoriesOf } from './domain/tickets.js';
import { MINUTE_MS, DAY_MS, addDays, localTodayOf, startOfLocalDay } from './domain/time.js';
import type { ExperienceRow } from './store/experiences.js';
import type { Store } from './store/index.js';
import { zoneOf } from './services/availability.js';
import { cancelBooking, createBooking, updateBooking } from './services/bookings.js';
import { scheduledSlotsBetween } from './services/manifest.js';
import { getOrganization } from './services/organizations.js';
import { recordManualPayment } from './services/payments.js';

export const HOUR_MS = 60 * MINUTE_MS;
/** Days of bookings, ending today: the daily report's default period. */
export const HISTORY_DAYS = 30;
/** The coming days whose tours already have some bookings. */
export const AHEAD_DAYS = 7;
/** How far ahead of a tour guests book, at most. */
const MAX_LEAD_DAYS = 21;
const LAST_MINUTE_DAYS = 2;
const RECENT_DAYS = 3;
/**
 * Places taken in a slot that can still be booked: the rest stay free for whoever tries the widget
 * on the demo (booking a whole walk for a family, say).
 */
export const OPEN_SLOT_MAX_PLACES = 4;
/** The same history for everyone: any fixed number would do. */
const SEED = 0x5eed_2026;

export interface DemoExperience {
  row: ExperienceRow;
  /** Its departures that can still be booked stay empty: one booking may take a whole boat. */
  keepOpenSlotsEmpty?: boolean;
}

/** mulberry32: a small, fast pseudo-random sequence in [0, 1) from a 32-bit seed. */
export function randomSequence(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The first instant of the history: local midnight at the start of its first day. */
export function historyStart(now: number, zone: string): number {
  return startOfLocalDay(addDays(localTodayOf(now, zone), -(HISTORY_DAYS - 1)), zone);
}

// Visitors to Lisbon from near and far. Names the tests give their own guests are left out, so a
// search for one of them finds only that one.
const FIRST = [
  'Maria', 'Tomás', 'Inês', 'Lukas', 'Emma', 'Sofia', 'Hiroshi', 'Yuki', 'Olivia', 'Noah', 'Amara', 'Mateo', 'Camille', 'Léa',
  'Giulia', 'Marco', 'Sven', 'Ingrid', 'Priya', 'Arjun', 'Fatima', 'Omar', 'Mei', 'Jack', 'Grace', 'Daniel', 'Beatriz', 'Rafael',
  'Helena', 'Kwame',
];
const LAST = [
  'Silva', 'Santos', 'Ferreira', 'Pereira', 'Oliveira', 'Müller', 'Schmidt', 'Dubois', 'Rossi', 'Bianchi', 'Johansson', 'Nakamura',
  'Tanaka', 'Smith', 'Brown', 'Walker', "O'Brien", 'García', 'López', 'Kowalski', 'Novak', 'Patel', 'Sharma', 'Haddad', 'Wang',
  'Kim', 'Jensen', 'van Dijk', 'Mensah', 'Murphy',
];
/** Party sizes as tours see them: mostly couples, then people alone, small families and groups. */
const PARTY = [1, 1, 1, 2, 2, 2, 2, 2, 2, 3, 3, 4, 4, 4, 5, 6];

const pick = <T>(random: () => number, list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
const ascii = (s: string) => s.normalize('NFD').replace(/[^A-Za-z]/g, '').toLowerCase();
const toMinute = (t: number) => Math.floor(t / MINUTE_MS) * MINUTE_MS;

interface Guest {
  name: string;
  email: string;
  phone?: string;
}

function guestOf(random: () => number): Guest {
  const first = pick(random, FIRST);
  const last = pick(random, LAST);
  const guest: Guest = { name: `${first} ${last}`, email: `${ascii(first)}.${ascii(last)}@example.net` };
  if (random() < 0.4) guest.phone = `+351 91${Math.floor(random() * 10)} ${String(Math.floor(random() * 1e6)).padStart(6, '0').replace(/(\d{3})(\d{3})/, '$1 $2')}`;
  return guest;
}

interface Step {
  at: number;
  run: (at: number) => Promise<void>;
}

interface PlannedSlot {
  exp: DemoExperience;
  start: number;
  /** The last moment a guest could book it. */
  closes: number;
  /** It could still be booked now. */
  open: boolean;
  /** Places the history may take in it. */
  room: number;
  booked: number;
}

/**
 * Past tours fill to between a third and most of their places. Open ones take a few places or none
 * (a third of them, today's aside, stay empty), so whoever tries the widget finds room everywhere.
 */
function roomOf(random: () => number, exp: DemoExperience, open: boolean, today: boolean): number {
  const capacity = exp.row.maxParticipants;
  const share = 0.3 + random() * 0.55;
  if (!open) return Math.round(capacity * share);
  if (exp.keepOpenSlotsEmpty || (!today && random() < 0.35)) return 0;
  return Math.min(OPEN_SLOT_MAX_PLACES, Math.ceil(capacity * share * 0.4));
}

/**
 * The places a guest booking at `at` may take. Two thirds of a past tour's places go to guests who
 * book in its last days, as many do; a tour still open was booked only lately (the demo's recent
 * days need guests too, and they can only book what is still to come).
 */
function roomAt(slot: PlannedSlot, at: number, now: number): number {
  if (slot.open) return now - at <= RECENT_DAYS * DAY_MS ? slot.room : 0;
  return slot.start - at > LAST_MINUTE_DAYS * DAY_MS ? Math.ceil(slot.room / 3) : slot.room;
}

interface PlannedBooking {
  slot: PlannedSlot;
  at: number;
  participants: number;
}

/**
 * A party as tickets, for an experience sold in price categories: `places` adults and children
 * (a child in a party of two or more, now and then), and sometimes a baby on a lap, who takes no
 * place. Undefined for an experience that books by participants.
 */
function ticketsFor(random: () => number, exp: ExperienceRow, places: number): { categoryId: string; quantity: number }[] | undefined {
  const categories = categoriesOf(exp.priceCategories);
  if (!categories.length) return undefined;
  const adult = categories.find((c) => c.type === 'ADULT')!;
  const child = categories.find((c) => c.type === 'CHILD');
  const infant = categories.find((c) => !c.occupiesPlace);
  const children = child && places > 1 && random() < 0.4 ? Math.min(places - 1, 1 + Math.floor(random() * 2)) : 0;
  const babies = infant && places > 1 && random() < 0.2 ? 1 : 0;
  return [
    { categoryId: adult.id, quantity: places - children },
    ...(children ? [{ categoryId: child!.id, quantity: children }] : []),
    ...(babies ? [{ categoryId: infant!.id, quantity: babies }] : []),
  ];
}

/**
 * When guests booked what: each day of the history some guests book, mostly tours a few days
 * ahead, in slots that still have room. Then every slot of today gets at least one party, so Today
 * shows guests whatever the hour.
 */
function planBookings(random: () => number, slots: PlannedSlot[], days: { from: number; to: number }[], now: number): PlannedBooking[] {
  const today = days[days.length - 1]!;
  const planned: PlannedBooking[] = [];
  const book = (slot: PlannedSlot, at: number, wanted: number) => {
    const participants = Math.min(wanted, maxPartySize(slot.exp.row), slot.room - slot.booked);
    slot.booked += participants;
    planned.push({ slot, at, participants });
  };
  for (const day of days) {
    const guests = 4 + Math.floor(random() * 6);
    for (let g = 0; g < guests; g++) {
      // Between 08:00 and 23:00 or so, and never after now.
      const at = toMinute(day.from + 8 * HOUR_MS + random() * 15 * HOUR_MS);
      const party = pick(random, PARTY);
      if (at > now - 5 * MINUTE_MS) continue;
      const choices = slots.filter((s) => s.closes >= at && s.start <= at + MAX_LEAD_DAYS * DAY_MS && s.booked < roomAt(s, at, now));
      // Cubed: the nearer tours are much the likelier.
      const slot = choices[Math.floor(random() ** 3 * choices.length)];
      if (slot) book(slot, at, party);
    }
  }
  for (const slot of slots) {
    if (slot.booked > 0 || slot.room === 0 || !days.length) continue;
    const first = days[0]!.from + 30 * MINUTE_MS;
    const latest = Math.min(slot.closes, now - 5 * MINUTE_MS);
    const at = toMinute(Math.max(first, latest - random() * 3 * DAY_MS));
    if (at < latest && slot.start >= today.from && slot.start < today.to) book(slot, at, pick(random, PARTY));
  }
  return planned.sort((a, b) => a.at - b.at);
}

/**
 * Books the demo's slots of the last HISTORY_DAYS days, today and the coming AHEAD_DAYS, as guests and the owner
 * did it at the time; some guests cancel, most pay (by transfer soon after booking, or on the day)
 * and most turn up. Runs inside the demo's transaction, after the experiences exist (their creation
 * must be older than the history's start). Returns how many bookings it made.
 */
export async function seedDemoHistory(store: Store, orgId: string, experiences: readonly DemoExperience[], owner: Actor, now: number): Promise<number> {
  const zone = (await getOrganization(store, orgId)).timezone;
  const today = localTodayOf(now, zone);
  const from = historyStart(now, zone);
  const tomorrow = startOfLocalDay(addDays(today, 1), zone);
  const to = startOfLocalDay(addDays(today, 1 + AHEAD_DAYS), zone);
  const random = randomSequence(SEED);

  const days = Array.from({ length: HISTORY_DAYS }, (_, i) => addDays(today, i - (HISTORY_DAYS - 1))).map((d) => ({
    from: startOfLocalDay(d, zone),
    to: startOfLocalDay(addDays(d, 1), zone),
  }));
  const slots: PlannedSlot[] = experiences
    .flatMap((exp) =>
      scheduledSlotsBetween(exp.row, zoneOf(exp.row, zone), from, to).map((s) => ({ exp, start: s.start })),
    )
    .sort((a, b) => a.start - b.start || experiences.indexOf(a.exp) - experiences.indexOf(b.exp))
    .map(({ exp, start }) => {
      const closes = start - exp.row.minNoticeMinutes * MINUTE_MS - 15 * MINUTE_MS;
      const open = closes + 15 * MINUTE_MS > now;
      return { exp, start, closes, open, room: roomOf(random, exp, open, start < tomorrow), booked: 0 };
    });

  const steps: Step[] = [];
  const plan = planBookings(random, slots, days, now);
  for (const { slot, at, participants } of plan) {
    const { row } = slot.exp;
    const { start } = slot;
    const started = start <= now;
    const guest = guestOf(random);
    const byPhone = random() < 0.2;
    const booking = { id: '', total: '' };
    const tickets = ticketsFor(random, row, participants);
    steps.push({
      at,
      run: async (t) => {
        const input = {
          experienceId: row.id,
          startTime: new Date(start).toISOString(),
          ...(tickets ? { tickets } : { participants }),
          customerName: guest.name,
          customerEmail: guest.email,
          ...(guest.phone ? { customerPhone: guest.phone } : {}),
        };
        const options = byPhone ? { source: 'API' as const, actor: owner } : { source: 'WIDGET' as const, actor: guestActor(guest.name, null) };
        const made = await createBooking(store, orgId, input, options, t);
        booking.id = made.id;
        booking.total = formatMoney(bookingTotalCents(made));
      },
    });
    if (random() < 0.1) {
      const until = Math.min(start, now);
      const when = toMinute(at + Math.max(MINUTE_MS, (until - at) * (0.2 + random() * 0.7)));
      const reason = pick(random, ['Plans changed', 'Flight moved', 'Feeling unwell', 'Booked twice by mistake']);
      // A guest cancels from their booking page; sometimes they call and the owner does it.
      const actor = random() < 0.5 ? guestActor(guest.name, null) : owner;
      steps.push({ at: when, run: async (t) => void (await cancelBooking(store, orgId, booking.id, reason, t, actor)) });
      continue;
    }
    const paying = random();
    // What the booking costs, known once it is made (its tickets' prices, or its participants').
    const pay = (reference: string, method: 'BANK_TRANSFER' | 'CASH') => async (t: number) =>
      void (await recordManualPayment(store, orgId, booking.id, { amount: booking.total, status: 'SUCCEEDED', method, reference }, t, owner));
    if (paying < 0.45) steps.push({ at: at + 3 * MINUTE_MS, run: pay('Bank transfer', 'BANK_TRANSFER') });
    else if (started && paying < 0.85) steps.push({ at: start - 5 * MINUTE_MS, run: pay('Paid on the day', 'CASH') });
    if (started && random() < 0.9) {
      const arrived = Math.min(toMinute(start - 10 * MINUTE_MS + random() * 15 * MINUTE_MS), now);
      steps.push({ at: arrived, run: async (t) => void (await updateBooking(store, orgId, booking.id, { checkedIn: true }, t, owner)) });
    }
  }
  // A stable sort: steps of the same minute keep the order they were planned in (a booking before its payment).
  steps.sort((a, b) => a.at - b.at);
  for (const step of steps) await step.run(step.at);
  return plan.length;
}
