/**
 * A stand-in for Outing's public API at the network boundary (`fetch`), for component tests.
 * It answers like the real one from a small in-memory schedule: every day but Monday at 09:00 and
 * 14:00 local time, in a zone with a fixed UTC offset, `capacity` places each.
 */
import type { BookingExtra, BookingStatus, PublicBooking, PublicExperience, Ticket, TicketInput, TimeSlotAvailability, WaitlistEntry } from '../../shared/index.js';
import { bookingLines } from '../../shared/lines.js';
import pt from '../i18n/pt.json' with { type: 'json' };

export interface FakeOutingOptions {
  experiences?: PublicExperience[];
  timezone?: string;
  /** UTC offset of `timezone` in hours over the dates the tests use (no DST in the fake). */
  offsetHours?: number;
  capacity?: number;
  /** Make bookings PENDING with this Checkout URL (online payment). */
  checkoutUrl?: string;
  /** The language files it serves at `/widget/{code}.json`, as the server does (default: Portuguese). */
  languages?: Record<string, unknown>;
  /** Language files are answered once this settles (default: at once). */
  languagesAfter?: Promise<unknown>;
  /**
   * Promo codes it knows, by code (upper-case): a discount rule, or the reason it is refused
   * (PROMO_CODE_INVALID); and gift vouchers by full code: a balance in cents, or a reason (VOUCHER_INVALID).
   */
  promoCodes?: Record<string, { type: 'PERCENT' | 'AMOUNT'; value: number } | { reason: string }>;
  vouchers?: Record<string, { balance: number } | { reason: string }>;
  /** What `GET /public/v1/gift-vouchers` answers (default: three amounts in EUR, sold online). */
  giftVouchers?: { amounts: string[]; currency: string; available: boolean };
}

export interface RecordedRequest {
  method: string;
  url: URL;
  headers: Record<string, string>;
  body: unknown;
  credentials: RequestCredentials | undefined;
  referrerPolicy: ReferrerPolicy | undefined;
}

type Failure = 'network' | { status: number; code: string; message?: string; details?: { path: string; message: string }[] | { total: string } };

export const walk: PublicExperience = {
  meetingPoint: null,
  meetingPointUrl: null,
  guestInstructions: null,
  defaultLocale: 'en',
  waitlist: false,
  questions: [],
  extras: [],
  id: 'exp_walk',
  name: 'Alfama at Dawn',
  description: 'Two hours through the oldest quarter.',
  duration: 120,
  price: 2500,
  currency: 'EUR',
  maxParticipants: 8,
  maxPerBooking: 6,
  priceCategories: [],
};

export const tram: PublicExperience = {
  meetingPoint: null,
  meetingPointUrl: null,
  guestInstructions: null,
  defaultLocale: 'en',
  waitlist: false,
  questions: [],
  extras: [],
  id: 'exp_tram',
  name: 'Tram 28 and Viewpoints',
  description: 'Ride and walk.',
  duration: 90,
  price: 1800,
  currency: 'EUR',
  maxParticipants: 10,
  maxPerBooking: 10,
  priceCategories: [],
};

/** Asks questions of every type and sells extras (docs/booking-form.md): lunch per person, photos per booking. */
export const kayak: PublicExperience = {
  ...walk,
  id: 'exp_kayak',
  name: 'Kayak the Tagus',
  price: 4000,
  maxPerBooking: 6,
  questions: [
    { id: 'q_diet', label: 'Dietary needs', type: 'TEXT', options: [], required: true, help: 'Allergies, vegetarian…' },
    { id: 'q_notes', label: 'Anything else', type: 'LONG_TEXT', options: [], required: false, help: null },
    { id: 'q_size', label: 'Wetsuit size', type: 'SELECT', options: ['S', 'M', 'L'], required: false, help: null },
    { id: 'q_waiver', label: 'I accept the safety rules', type: 'CHECKBOX', options: [], required: true, help: null },
    { id: 'q_age', label: 'Age of the youngest', type: 'NUMBER', options: [], required: false, help: null },
    { id: 'q_born', label: 'Date of birth', type: 'DATE', options: [], required: false, help: null },
    { id: 'q_phone', label: 'Phone on the day', type: 'PHONE', options: [], required: false, help: null },
  ],
  extras: [
    { id: 'ex_lunch', name: 'Lunch', description: 'Sandwich and fruit', price: 1200, per: 'PERSON', maxQuantity: 10, active: true },
    { id: 'ex_photos', name: 'Photos', description: null, price: 1500, per: 'BOOKING', maxQuantity: 2, active: true },
  ],
};

/** Sold in price categories (docs/price-categories.md): an infant on a lap takes no place. */
export const family: PublicExperience = {
  meetingPoint: null,
  meetingPointUrl: null,
  guestInstructions: null,
  defaultLocale: 'en',
  waitlist: false,
  questions: [],
  extras: [],
  id: 'exp_family',
  name: 'Family Tile Workshop',
  description: 'Paint your own azulejo.',
  duration: 90,
  price: 2500,
  currency: 'EUR',
  maxParticipants: 8,
  maxPerBooking: 4,
  priceCategories: [
    { id: 'pc_adult', name: 'Adult', price: 2500, type: 'ADULT', occupiesPlace: true, minAge: 18, maxAge: null },
    { id: 'pc_child', name: 'Child', price: 1200, type: 'CHILD', occupiesPlace: true, minAge: 4, maxAge: 17 },
    { id: 'pc_infant', name: 'Infant', price: 0, type: 'INFANT', occupiesPlace: false, minAge: null, maxAge: 2 },
  ],
};

const pad = (n: number) => String(n).padStart(2, '0');

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

export function fakeOuting(options: FakeOutingOptions = {}) {
  // Copies: a test may change a price (reprice) without touching the fixtures.
  const experiences = structuredClone(options.experiences ?? [walk, tram]);
  const languages = options.languages ?? { pt };
  const timezone = options.timezone ?? 'Europe/Lisbon';
  const offset = options.offsetHours ?? 0;
  const capacity = options.capacity ?? 8;
  const booked = new Map<string, number>();
  const requests: RecordedRequest[] = [];
  const failures: { match: string; failure: Failure }[] = [];
  let bookingSeq = 0;
  const bookings = new Map<string, PublicBooking>();
  /** Waitlist entries, oldest first (all WAITING: the fake makes no offers). */
  const waitlist: WaitlistEntry[] = [];

  function store(
    experience: PublicExperience,
    startTime: string,
    participants: number,
    guestName: string,
    guestEmail: string,
    status: BookingStatus,
    tickets: Ticket[] = [],
    extras: BookingExtra[] = [],
  ) {
    const cents =
      (tickets.length ? tickets.reduce((sum, t) => sum + t.quantity * t.unitPrice, 0) : experience.price * participants) +
      extras.reduce((sum, e) => sum + e.quantity * e.unitPrice, 0);
    const id = `ts_${experience.id}_${new Date(startTime).getTime()}`;
    const data: PublicBooking = {
      bookingNumber: `BK-TEST${String(++bookingSeq).padStart(4, '0')}`,
      status,
      experience: { id: experience.id, title: experience.name },
      timeSlot: { id, startTime, endTime: new Date(new Date(startTime).getTime() + experience.duration * 60_000).toISOString() },
      totalParticipants: participants,
      tickets,
      answers: [],
      extras,
      subtotal: (cents / 100).toFixed(2),
      discount: null,
      voucher: null,
      total: (cents / 100).toFixed(2),
      amountDue: status === 'CANCELLED' ? '0.00' : (cents / 100).toFixed(2),
      currency: experience.currency,
      guestName,
      guestEmail,
      checkoutUrl: status === 'PENDING' ? (options.checkoutUrl ?? 'https://checkout.stripe.test/c/pay_1') : null,
      holdExpiresAt: status === 'PENDING' ? new Date(Date.now() + 1_800_000).toISOString() : null,
    };
    bookings.set(data.bookingNumber, data);
    return data;
  }

  const localToday = () => {
    const d = new Date(Date.now() + offset * 3_600_000);
    return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
  };

  function slotsOf(experience: PublicExperience, startDate: string, endDate: string, participants: number) {
    const slots: TimeSlotAvailability[] = [];
    for (let day = new Date(`${startDate}T00:00:00Z`); day <= new Date(`${endDate}T00:00:00Z`); day.setUTCDate(day.getUTCDate() + 1)) {
      if (day.getUTCDay() === 1) continue;
      for (const hour of [9, 14]) {
        const start = new Date(day.getTime() + (hour - offset) * 3_600_000);
        if (start.getTime() <= Date.now()) continue;
        const startTime = start.toISOString();
        const id = `ts_${experience.id}_${start.getTime()}`;
        const taken = booked.get(id) ?? 0;
        const remaining = Math.max(0, capacity - taken);
        slots.push({
          id,
          startTime,
          endTime: new Date(start.getTime() + experience.duration * 60_000).toISOString(),
          capacity,
          booked: taken,
          remaining,
          available: remaining >= participants,
          unavailableReason: remaining >= participants ? null : 'FULL',
        });
      }
    }
    return slots;
  }

  async function fetch(input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> {
    const url = new URL(String(input));
    const headers = { ...(init.headers as Record<string, string> | undefined) };
    const body = typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
    const method = init.method ?? 'GET';
    requests.push({ method, url, headers, body, credentials: init.credentials, referrerPolicy: init.referrerPolicy });
    const path = url.pathname.replace(/^\/public\/v1\//, '');

    // The widget's languages: no key, from widget.js's server (server/routes/static.ts).
    const language = /^\/widget\/([a-z]{2})\.json$/.exec(url.pathname)?.[1];
    if (language !== undefined && !failures.some((f) => url.pathname.startsWith(f.match))) {
      await options.languagesAfter;
      const texts = languages[language];
      return texts ? json(200, texts) : json(404, { success: false, error: { code: 'NOT_FOUND', message: 'No such language' } });
    }

    const i = failures.findIndex((f) => path.startsWith(f.match) || url.pathname.startsWith(f.match));
    if (i >= 0) {
      const { failure } = failures.splice(i, 1)[0]!;
      if (failure === 'network') throw new TypeError('Failed to fetch');
      return json(failure.status, {
        success: false,
        error: { code: failure.code, message: failure.message ?? failure.code, details: failure.details },
      });
    }

    const key = method === 'GET' ? url.searchParams.get('key') : headers['X-Outing-Key'];
    if (!key?.startsWith('opk_')) return json(401, { success: false, error: { code: 'UNAUTHORIZED', message: 'No key' } });

    if (method === 'GET' && path === 'experiences') {
      return json(200, { success: true, data: experiences, pagination: { total: experiences.length, limit: 100, offset: 0, hasMore: false } });
    }
    const one = /^experiences\/(.+)$/.exec(path);
    if (method === 'GET' && one) {
      const found = experiences.find((e) => e.id === one[1]);
      return found ? json(200, { success: true, data: found }) : json(404, { success: false, error: { code: 'NOT_FOUND', message: 'No such experience' } });
    }
    if (method === 'GET' && path === 'availability') {
      const experience = experiences.find((e) => e.id === url.searchParams.get('experienceId'));
      if (!experience) return json(404, { success: false, error: { code: 'NOT_FOUND', message: 'No such experience' } });
      const startDate = url.searchParams.get('startDate') ?? localToday();
      const endDate = url.searchParams.get('endDate') ?? startDate;
      const participants = Number(url.searchParams.get('participants') ?? 1);
      return json(200, {
        success: true,
        data: { experienceId: experience.id, timezone, startDate, endDate, slots: slotsOf(experience, startDate, endDate, participants) },
      });
    }
    if (method === 'POST' && (path === 'bookings' || path === 'quote')) {
      const b = body as {
        promoCode?: string;
        voucherCode?: string;
        experienceId: string;
        startTime: string;
        participants?: number;
        tickets?: TicketInput[];
        customerName: string;
        customerEmail: string;
        expectedTotal?: string;
        answers?: { questionId: string; value: string | number | boolean }[];
        extras?: { extraId: string; quantity: number }[];
      };
      const experience = experiences.find((e) => e.id === b.experienceId)!;
      const invalid = (path: string) => json(400, { success: false, error: { code: 'VALIDATION_ERROR', message: 'Invalid', details: [{ path, message: 'Invalid' }] } });
      // As the server prices them (server/domain/tickets.ts): places count the categories that take one.
      const categories = experience.priceCategories;
      if (!categories.length !== (b.tickets === undefined)) return invalid('tickets');
      const tickets: Ticket[] = (b.tickets ?? []).map((t) => {
        const c = categories.find((c) => c.id === t.categoryId)!;
        return { categoryId: c.id, name: c.name, type: c.type, quantity: t.quantity, unitPrice: c.price };
      });
      const placesOf = (t: Ticket) => (categories.find((c) => c.id === t.categoryId)!.occupiesPlace ? t.quantity : 0);
      const places = tickets.length ? tickets.reduce((n, t) => n + placesOf(t), 0) : b.participants!;
      if (!places) return invalid('tickets');
      // The total at today's prices against the one the guest was shown, before the slot and the places.
      // Answers and extras as the server checks them (§ booking form): a required question answered
      // (a required checkbox ticked), a per-person extra at most one each.
      const partySize = tickets.length ? tickets.reduce((n, t) => n + t.quantity, 0) : places;
      const unanswered = experience.questions
        .filter((q) => q.required && !(b.answers ?? []).some((a) => a.questionId === q.id && (q.type !== 'CHECKBOX' || a.value === true)))
        .map((q) => ({ path: `answers.${q.id}`, message: 'This question needs an answer' }));
      // A quote takes no answers (shared/schemas/quote.ts): only a booking is held to them.
      if (unanswered.length && path === 'bookings') return json(400, { success: false, error: { code: 'VALIDATION_ERROR', message: 'Invalid', details: unanswered } });
      const extras: BookingExtra[] = [];
      for (const [i, chosen] of (b.extras ?? []).entries()) {
        const x = experience.extras.find((e) => e.id === chosen.extraId);
        if (!x || chosen.quantity > x.maxQuantity || (x.per === 'PERSON' && chosen.quantity > partySize)) return invalid(`extras[${i}].quantity`);
        extras.push({ extraId: x.id, name: x.name, per: x.per, quantity: chosen.quantity, unitPrice: x.price });
      }
      // The codes, as the server checks them after the extras: the promo code, then the voucher.
      const promoCode = b.promoCode?.trim().toUpperCase();
      const voucherCode = b.voucherCode?.trim().toUpperCase();
      const promo = promoCode === undefined ? undefined : (options.promoCodes?.[promoCode] ?? { reason: 'NOT_FOUND' });
      if (promo && 'reason' in promo) return json(400, { success: false, error: { code: 'PROMO_CODE_INVALID', message: 'Refused', details: { reason: promo.reason } } });
      const voucher = voucherCode === undefined ? undefined : (options.vouchers?.[voucherCode] ?? { reason: 'NOT_FOUND' });
      if (voucher && 'reason' in voucher) return json(400, { success: false, error: { code: 'VOUCHER_INVALID', message: 'Refused', details: { reason: voucher.reason } } });
      const mask = voucherCode && `GV-\u2022\u2022\u2022\u2022-\u2022\u2022\u2022\u2022-${voucherCode.slice(-4)}`;
      const made = bookingLines({
        tickets: tickets.map((t) => ({ categoryId: t.categoryId, name: t.name, quantity: t.quantity, unitPrice: t.unitPrice })),
        participants: places,
        unitPrice: experience.price,
        extras,
        discount: promo && promoCode ? { code: promoCode, ...promo } : null,
        voucher: voucher && mask ? { mask, balance: voucher.balance } : null,
      });
      const money = (c: number) => (c / 100).toFixed(2);
      if (path === 'quote') {
        return json(200, {
          success: true,
          data: {
            currency: experience.currency,
            lines: made.lines.map((l) => ({ kind: l.kind === 'PARTICIPANTS' ? 'TICKETS' : l.kind, label: l.name ?? experience.name, quantity: l.quantity, unitPrice: l.unitPrice, amount: money(l.amount) })),
            subtotal: money(made.subtotal),
            discount: money(made.discount),
            voucherAmount: money(made.voucherAmount),
            total: money(made.total),
            amountDue: money(made.due),
          },
        });
      }
      const cents = made.total;
      const total = money(cents);
      if (b.expectedTotal !== undefined && b.expectedTotal !== total) {
        return json(409, { success: false, error: { code: 'PRICE_CHANGED', message: `The total is now ${total}`, details: { total } } });
      }
      const id = `ts_${experience.id}_${new Date(b.startTime).getTime()}`;
      const taken = booked.get(id) ?? 0;
      if (taken + places > capacity) {
        return json(409, {
          success: false,
          error: { code: 'CAPACITY_EXCEEDED', message: 'Not enough places', details: [{ path: 'participants', message: `${capacity - taken} remaining` }] },
        });
      }
      booked.set(id, taken + places);
      const participants = tickets.length ? tickets.reduce((n, t) => n + t.quantity, 0) : places;
      const status = options.checkoutUrl ? 'PENDING' : 'CONFIRMED';
      const data = store(experience, b.startTime, participants, b.customerName, b.customerEmail, status, tickets, extras);
      if (promoCode) data.discount = { code: promoCode, amount: money(made.discount) };
      if (mask && made.voucherAmount) data.voucher = { code: mask, amount: money(made.voucherAmount) };
      Object.assign(data, { subtotal: money(made.subtotal), total, amountDue: money(made.due) });
      data.answers = (b.answers ?? []).map((a) => {
        const q = experience.questions.find((x) => x.id === a.questionId)!;
        return { questionId: q.id, label: q.label, type: q.type, value: a.value };
      });
      return json(201, { success: true, data });
    }
    // Gift vouchers sold online (server/routes/public.ts): the offer, and a purchase → the payment page.
    const offer = options.giftVouchers ?? { amounts: ['25.00', '50.00', '100.00'], currency: 'EUR', available: true };
    if (method === 'GET' && path === 'gift-vouchers') return json(200, { success: true, data: offer });
    if (method === 'POST' && path === 'gift-vouchers') {
      if (!offer.available) return json(409, { success: false, error: { code: 'PAYMENTS_NOT_CONFIGURED', message: 'Not sold online' } });
      const b = body as Record<string, string | undefined>;
      const email = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
      const details = [
        ...(offer.amounts.includes(b['amount'] ?? '') ? [] : [{ path: 'amount', message: 'One of the amounts' }]),
        ...(b['buyerName'] ? [] : [{ path: 'buyerName', message: 'Required' }]),
        ...(email.test(b['buyerEmail'] ?? '') ? [] : [{ path: 'buyerEmail', message: 'Invalid email' }]),
        ...(b['recipientEmail'] === undefined || email.test(b['recipientEmail']) ? [] : [{ path: 'recipientEmail', message: 'Invalid email' }]),
      ];
      if (details.length) return json(400, { success: false, error: { code: 'VALIDATION_ERROR', message: 'Invalid', details } });
      return json(201, { success: true, data: { checkoutUrl: 'https://checkout.stripe.test/c/pay/cs_gift' } });
    }
    if (method === 'POST' && path === 'waitlist') {
      // As the server joins (docs/waitlist.md): the body, the experience, a waitlist on a bookable
      // slot, one live entry per e-mail, then the places (a slot with room for the party is booked instead).
      const b = body as {
        experienceId: string;
        startTime: string;
        participants?: number;
        tickets?: TicketInput[];
        answers?: { questionId: string; value: unknown }[];
        customerName: string;
        customerEmail: string;
        customerPhone?: string;
        locale?: 'en' | 'pt';
      };
      const refuse = (status: number, code: string, details?: { path: string; message: string }[]) =>
        json(status, { success: false, error: { code, message: code, details } });
      const experience = experiences.find((e) => e.id === b.experienceId);
      const categories = experience?.priceCategories ?? [];
      if (!b.customerName?.trim()) return refuse(400, 'VALIDATION_ERROR', [{ path: 'customerName', message: 'Required' }]);
      if (!categories.length !== (b.tickets === undefined)) return refuse(400, 'VALIDATION_ERROR', [{ path: 'tickets', message: 'Invalid' }]);
      if (!experience) return refuse(404, 'NOT_FOUND');
      const unanswered = experience.questions
        .filter((q) => q.required && !(b.answers ?? []).some((a) => a.questionId === q.id && (q.type !== 'CHECKBOX' || a.value === true)))
        .map((q) => ({ path: `answers.${q.id}`, message: 'This question needs an answer' }));
      if (unanswered.length) return refuse(400, 'VALIDATION_ERROR', unanswered);
      const id = `ts_${experience.id}_${new Date(b.startTime).getTime()}`;
      if (!experience.waitlist) return refuse(409, 'SLOT_UNAVAILABLE');
      const email = b.customerEmail.toLowerCase();
      const onSlot = waitlist.filter((e) => e.timeSlot.id === id);
      if (onSlot.some((e) => e.guestEmail.toLowerCase() === email)) return refuse(409, 'ALREADY_ON_WAITLIST');
      const tickets: Ticket[] = (b.tickets ?? []).map((t) => {
        const c = categories.find((c) => c.id === t.categoryId)!;
        return { categoryId: c.id, name: c.name, type: c.type, quantity: t.quantity, unitPrice: c.price };
      });
      const places = tickets.length ? tickets.reduce((n, t) => n + (categories.find((c) => c.id === t.categoryId)!.occupiesPlace ? t.quantity : 0), 0) : b.participants!;
      if (capacity - (booked.get(id) ?? 0) >= places) return refuse(409, 'SLOT_HAS_PLACES');
      const entry: WaitlistEntry = {
        id: `wl_${waitlist.length + 1}`,
        status: 'WAITING',
        position: onSlot.length + 1,
        experience: { id: experience.id, title: experience.name },
        timeSlot: { id, startTime: b.startTime, endTime: new Date(new Date(b.startTime).getTime() + experience.duration * 60_000).toISOString() },
        places,
        totalParticipants: tickets.length ? tickets.reduce((n, t) => n + t.quantity, 0) : places,
        tickets,
        guestName: b.customerName,
        guestEmail: b.customerEmail,
        guestPhone: b.customerPhone ?? null,
        locale: b.locale ?? 'en',
        offeredAt: null,
        offerExpiresAt: null,
        bookingId: null,
        createdAt: new Date().toISOString(),
      };
      waitlist.push(entry);
      return json(201, { success: true, data: entry });
    }
    const number = /^bookings\/([^/]+)$/.exec(path)?.[1];
    if (method === 'GET' && number) {
      const found = bookings.get(decodeURIComponent(number));
      if (!found) return json(404, { success: false, error: { code: 'NOT_FOUND', message: 'Booking not found' } });
      const { guestName: _name, guestEmail: _email, ...status } = found;
      return json(200, { success: true, data: status });
    }
    return json(404, { success: false, error: { code: 'NOT_FOUND', message: 'No route' } });
  }

  return {
    fetch,
    requests,
    /** The next request whose path starts with `match` fails this way. */
    failNext(match: string, failure: Failure) {
      failures.push({ match, failure });
    },
    /** A booking made earlier, as if the guest had booked it before going to pay. */
    book(status: BookingStatus, participants = 2, experience = experiences[0]!, startTime = '2026-12-02T09:00:00.000Z') {
      return store(experience, startTime, participants, 'Ana Lima', 'ana@example.com', status);
    },
    /** The payment provider's callback (or the hold's end) moves the booking. */
    settle(bookingNumber: string, status: BookingStatus) {
      const found = bookings.get(bookingNumber)!;
      found.status = status;
      if (status !== 'PENDING') found.checkoutUrl = null;
    },
    /** The operator changes a price (of the experience, or of one category by id) while the guest looks. */
    reprice(experienceId: string, cents: number, categoryId?: string) {
      const experience = experiences.find((e) => e.id === experienceId)!;
      if (categoryId) experience.priceCategories.find((c) => c.id === categoryId)!.price = cents;
      else experience.price = cents;
    },
    /** The operator changes an extra's price while the guest looks. */
    repriceExtra(experienceId: string, extraId: string, cents: number) {
      experiences.find((e) => e.id === experienceId)!.extras.find((x) => x.id === extraId)!.price = cents;
    },
    /** The waitlist's entries made so far, oldest first. */
    waitlist,
    /** Someone else books places, as another browser would. */
    take(startTime: string, experienceId: string, places: number) {
      const id = `ts_${experienceId}_${new Date(startTime).getTime()}`;
      booked.set(id, (booked.get(id) ?? 0) + places);
    },
    /** Places come free (a cancellation elsewhere). */
    free(startTime: string, experienceId: string, places: number) {
      const id = `ts_${experienceId}_${new Date(startTime).getTime()}`;
      booked.set(id, Math.max(0, (booked.get(id) ?? 0) - places));
    },
  };
}
