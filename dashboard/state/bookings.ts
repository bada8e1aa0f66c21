/**
 * The Bookings screens' state and actions: the filtered list, and one booking's page with its
 * payments, its guest e-mails, its activity and the four changes an operator makes to it (cancel,
 * move, resize, pay), and the resending of an e-mail.
 */
import { z } from 'zod';
import { ApiKey, Activity, Availability, Booking, DailyReport, Experience, Message, Payment, Refund } from '../../shared/index.js';
import type { AnswerInput, BookingExtraInput, MessageKind, TimeSlotAvailability } from '../../shared/index.js';
import { ApiError, type ListPage, type Query } from '../api.js';
import { pathTo, type Location } from '../router.js';
import { batch, signal } from './signals.js';
import { fieldsOf, formFailure, idleForm, sentenceFor, type Area, type AreaContext, type FormState } from './context.js';
import { placeRuleOf, placesOf, type PlaceRule } from './places.js';
import { formPartFields } from './booking-form.js';
import { dateIn, money } from '../format.js';

/** A kind of ticket the Change participants dialog offers: the booking's own, then the experience's others. */
export interface TicketChoice {
  categoryId: string;
  name: string;
  /** Cents per ticket: the booking's own price for its categories, today's for the others. */
  unitPrice: number;
  quantity: number;
}

/** Only what counting places needs of an experience record. */
const ExperienceCategories = z.object({ priceCategories: z.array(z.object({ id: z.string(), occupiesPlace: z.boolean() })) });

/** Only what the zones need of an experience record. */
const ExperienceZone = z.object({ id: z.string(), schedule: z.object({ timezone: z.string().nullable() }).nullable() });

const STATUSES = ['CONFIRMED', 'PENDING', 'CANCELLED'] as const;
/** The sources the list filters on, in the filter's order. */
export const SOURCES = ['WIDGET', 'DASHBOARD', 'API', 'OCTO'] as const satisfies readonly Booking['source'][];
const DATE = /^\d{4}-\d{2}-\d{2}$/;
export const PAGE_SIZE = 20;

/**
 * Experience id → the IANA zone its times are shown in. An experience whose schedule names no
 * zone follows the organization's, which staff cannot read from /v1/organization; the daily
 * report (bookings:read, which anyone on these screens has) names it too.
 */
export function createZones(ctx: AreaContext) {
  const known = signal<ReadonlyMap<string, string>>(new Map());
  let org: string | null = null;
  let all: Promise<void> | null = null;

  const learn = (entries: [string, string][]) => {
    known.value = new Map([...known.peek(), ...entries]);
  };

  async function fetchExperiences(): Promise<z.infer<typeof ExperienceZone>[]> {
    const experiences: z.infer<typeof ExperienceZone>[] = [];
    // Pages of 100 until the catalogue ends (ten pages is more than any tour company has).
    for (let offset = 0, more = true; more && offset < 1000; offset += 100) {
      const page = await ctx.http.list(ExperienceZone, '/v1/experiences', { limit: 100, offset });
      experiences.push(...page.data);
      more = page.pagination.hasMore;
    }
    return experiences;
  }

  async function fetchAll(): Promise<void> {
    const day = new Date().toISOString().slice(0, 10);
    // Side by side, and both awaited together: a failure of either is handled once, never left unheard.
    const [report, experiences] = await Promise.all([
      ctx.http.get(DailyReport, '/v1/reports/daily', { startDate: day, endDate: day }),
      fetchExperiences(),
    ]);
    org = report.timezone;
    learn(experiences.map((x) => [x.id, x.schedule?.timezone ?? org!]));
  }

  return {
    known,
    /** The zone of an experience; UTC, named as such, until it is known. */
    zoneOf: (experienceId: string): string => known.value.get(experienceId) ?? org ?? 'UTC',
    has: (experienceId: string): boolean => known.peek().has(experienceId),
    orgZone(): string | null {
      void known.value;
      return org;
    },
    learn: (experienceId: string, zone: string) => learn([[experienceId, zone]]),
    /** Every experience's zone, once per session; a failure leaves times in UTC and is tried again next time. */
    loadAll(): Promise<void> {
      all ??= fetchAll().catch((e: unknown) => {
        all = null;
        ctx.ended(e);
      });
      return all;
    },
    reset(): void {
      known.value = new Map();
      org = null;
      all = null;
    },
  };
}

export type Zones = ReturnType<typeof createZones>;

export interface BookingFilters {
  q: string;
  status: string;
  /** Who made the booking: one of the API's sources, or '' for any. */
  source: string;
  startDate: string;
  endDate: string;
  /** One of BOOKING_SORTS but the default; '' is the API's default, by time, soonest first. */
  sort: string;
  /**
   * The address names no filter: the list opens on the bookings still to come (from today, in the
   * organization's zone), and `startDate` is filled in once that day is known.
   */
  upcoming: boolean;
  offset: number;
}

/** The orders the list offers, by the column that sorts it: `-` reverses (API `sort`). */
export const BOOKING_SORTS = ['startTime', '-startTime', 'createdAt', '-createdAt'] as const;

/** In an address, `startDate=any`: no lower bound, as opposed to no filter at all (upcoming). */
export const ANY_DATE = 'any';

/** The filters an address asks for; anything malformed is left out rather than sent. */
export function filtersOf(search: URLSearchParams): BookingFilters {
  const date = (name: string) => (DATE.test(search.get(name) ?? '') ? search.get(name)! : '');
  const status = search.get('status') ?? '';
  const source = search.get('source') ?? '';
  const sort = search.get('sort') ?? '';
  const offset = Number(search.get('offset') ?? 0);
  return {
    q: (search.get('q') ?? '').trim().slice(0, 200),
    status: (STATUSES as readonly string[]).includes(status) ? status : '',
    source: (SOURCES as readonly string[]).includes(source) ? source : '',
    startDate: date('startDate'),
    endDate: date('endDate'),
    sort: (BOOKING_SORTS as readonly string[]).includes(sort) && sort !== 'startTime' ? sort : '',
    upcoming: !['q', 'status', 'source', 'startDate', 'endDate'].some((k) => search.has(k)),
    offset: Number.isInteger(offset) && offset > 0 ? offset : 0,
  };
}

/** The address of the list with `f`: a start date always stated (`any` when none), so that only a bare address means "upcoming". */
export function listHref(f: Omit<BookingFilters, 'upcoming' | 'offset'>, offset = 0): string {
  const q = new URLSearchParams();
  const values = { q: f.q.trim(), status: f.status, source: f.source, startDate: f.startDate || ANY_DATE, endDate: f.endDate, sort: f.sort, offset: offset || '' };
  for (const [k, v] of Object.entries(values)) if (v) q.set(k, String(v));
  return `${pathTo('bookings')}?${q.toString()}`;
}

export interface BookingListState {
  filters: BookingFilters;
  page: ListPage<Booking> | null;
  loading: boolean;
  error: string | null;
}

export interface BookingPageState {
  id: string;
  booking: Booking | null;
  payments: Payment[] | null;
  /** Its refunds, oldest first; null while they load. */
  refunds: Refund[] | null;
  /** The guest's e-mails, oldest first; null while they load or when they could not be read. */
  messages: Message[] | null;
  /** Why the e-mails could not be read: the rest of the page stands without them. */
  messagesError: string | null;
  /** Null for staff, whose role cannot read the activity log, and while it loads. */
  activity: Activity[] | null;
  /** Which of the experience's price categories take a place (known for a booking with tickets). */
  rule: PlaceRule;
  /** A reseller's booking: the name of the key it was made with, when the person may read keys. */
  resellerKey: string | null;
  loading: boolean;
  error: string | null;
}

export type ActionKind = 'cancel' | 'time' | 'participants' | 'extras' | 'payment' | 'refund';

/** The open action dialog, with what only it needs. */
export interface ActionDialog {
  kind: ActionKind;
  form: FormState;
  /** Change time: the slots offered so far, in the experience's zone. */
  slots?: TimeSlotAvailability[];
  /** Change time: the last date asked for, to ask for the days after it. */
  until?: string;
  loadingSlots?: boolean;
  /** What was last submitted. */
  values?: Record<string, string>;
  /** Change participants of a booking with tickets: a quantity per category. */
  choices?: TicketChoice[];
  /** Change extras and answers: the experience's questions and extras as they are today; null: they could not be read. */
  experience?: Experience | null;
}

/** What a guest e-mail is, in words. */
export const KIND_WORDS: Record<MessageKind, string> = {
  BOOKING_CONFIRMED: 'Confirmation',
  BOOKING_CHANGED: 'Change',
  BOOKING_CANCELLED: 'Cancellation',
  BOOKING_REMINDER: 'Reminder',
  OPERATOR_NOTICE: 'Notice to you',
  USER_INVITE: 'Invitation',
  GIFT_VOUCHER: 'Gift voucher',
  WAITLIST_JOINED: 'Waitlist: joined',
  WAITLIST_OFFER: 'Waitlist: places offered',
};

export interface MailState {
  /** The id of the e-mail being resent. */
  busy: string | null;
  /** What the last resend did, said politely. */
  notice: string | null;
  /** Why the last resend was refused, said in an alert. */
  error: string | null;
}

const noMail: MailState = { busy: null, notice: null, error: null };

const noPage = (id = ''): BookingPageState => ({
  id,
  booking: null,
  payments: null,
  refunds: null,
  messages: null,
  messagesError: null,
  activity: null,
  rule: new Map(),
  resellerKey: null,
  loading: false,
  error: null,
});
const noList = (): BookingListState => ({ filters: filtersOf(new URLSearchParams()), page: null, loading: false, error: null });

/** "90", "90.5", "90,50" → "90.50"; null for anything that is not an amount. */
export function amountOf(text: string): string | null {
  const m = /^(\d{1,12})(?:[.,](\d{1,2}))?$/.exec(text.trim());
  return m ? `${m[1]}.${(m[2] ?? '').padEnd(2, '0')}` : null;
}

const cents = (amount: string): number => Math.round(Number(amount) * 100);
/** The message of a refusal about the booking's extras (`extras`, `extras[0].quantity`), if it is one. */
function extrasRefused(e: unknown): string | null {
  const d = e instanceof ApiError && e.code === 'VALIDATION_ERROR' ? e.details.find((x) => /^extras\b/.test(x.path)) : undefined;
  return d ? (d.message.endsWith('.') ? d.message : `${d.message}.`) : null;
}

/** A party change refused over the booking's per-person extras: what to do about it. */
const extrasRefusal = (message: string): string =>
  `The booking's extras do not fit the new party: ${message} Lower its per-person extras first (“Change extras and answers”), then the participants.`;

export const fromCents = (n: number): string => (n / 100).toFixed(2);

/**
 * What can still be refunded, in cents: the succeeded payments less the refunds not FAILED (the
 * server's rule). A gift voucher's part is no money to give back: a cancellation returns it to the voucher.
 */
export const refundableCents = (payments: readonly Payment[], refunds: readonly Refund[]): number =>
  cents(paidOf(payments, true)) - refunds.reduce((n, r) => n + (r.status === 'FAILED' ? 0 : cents(r.amount)), 0);

/** How money came in or went back (a payment's or a refund's method), in words. */
export const METHOD_WORDS: Record<Payment['method'], string> = {
  STRIPE: 'Stripe',
  VOUCHER: 'Gift voucher',
  CASH: 'Cash',
  CARD: 'Card',
  BANK_TRANSFER: 'Bank transfer',
  OTHER: 'Other',
};

/** The sum of the succeeded payments, in major units; `money`: only those in money, not by gift voucher. */
export const paidOf = (payments: readonly Payment[], money = false): string =>
  fromCents(payments.reduce((n, p) => n + (p.status === 'SUCCEEDED' && !(money && p.method === 'VOUCHER') ? cents(p.amount) : 0), 0));

export function createBookingsModel(ctx: AreaContext) {
  const zones = createZones(ctx);
  const list = signal<BookingListState>(noList());
  /**
   * The filter fields as typed. Fields take their value as a default only, so when the address
   * brings other filters (Back, a link) the form is made anew under another key; not when it
   * brings what the fields already hold, which would lose the focus of whoever just submitted.
   */
  let draft: Omit<BookingFilters, 'offset' | 'upcoming'> = noList().filters;
  const formKey = signal(0);
  const page = signal<BookingPageState>(noPage());
  const dialog = signal<ActionDialog | null>(null);
  /** What the last action did, said politely. */
  const notice = signal<string | null>(null);
  /** The Messages section: the e-mail being resent, and what came of the last resend. */
  const mail = signal<MailState>(noMail);
  /** Counts the visits to New booking: each starts a fresh form. */
  const newVisit = signal(0);
  /** The booking page's internal note form. */
  const noteForm = signal<FormState>(idleForm);
  let generation = 0;

  const path = (id: string, rest = '') => `/v1/bookings/${encodeURIComponent(id)}${rest}`;
  const isOwner = () => ctx.session.peek()?.user.role === 'owner';

  async function loadList(asked: BookingFilters): Promise<void> {
    const mine = ++generation;
    let filters = asked;
    const { offset: _, upcoming: __, ...typed } = filters;
    batch(() => {
      list.value = { ...list.peek(), filters, loading: true, error: null };
      if (JSON.stringify(typed) !== JSON.stringify({ ...draft, q: draft.q.trim() })) formKey.value++;
    });
    draft = typed;
    try {
      if (filters.upcoming) {
        // From today in the organization's zone (the browser's, should it stay unknown). The From
        // field shows it once known, without making the form anew: what is typed meanwhile stays.
        if (!zones.orgZone()) await zones.loadAll();
        if (mine !== generation) return;
        const today = dateIn(zones.orgZone() ?? Intl.DateTimeFormat().resolvedOptions().timeZone);
        filters = { ...filters, startDate: today };
        if (draft.startDate === '') draft = { ...draft, startDate: today };
        list.value = { ...list.peek(), filters };
      }
      const query: Query = {
        q: filters.q, status: filters.status, source: filters.source, startDate: filters.startDate, endDate: filters.endDate, sort: filters.sort, limit: PAGE_SIZE, offset: filters.offset,
      };
      const [found] = await Promise.all([ctx.http.list(Booking, '/v1/bookings', query), zones.loadAll()]);
      if (mine === generation) list.value = { filters, page: found, loading: false, error: null };
    } catch (e) {
      if (ctx.ended(e) || mine !== generation) return;
      list.value = { filters, page: null, loading: false, error: sentenceFor(e) };
    }
  }

  const loadActivity = (id: string): Promise<Activity[] | null> =>
    isOwner() ? ctx.http.list(Activity, '/v1/activity', { targetId: id, limit: 50 }).then((p) => p.data) : Promise.resolve(null);
  const loadPayments = (id: string) => ctx.http.list(Payment, path(id, '/payments'), { limit: 100 }).then((p) => p.data);
  const loadRefunds = (id: string) => ctx.http.list(Refund, path(id, '/refunds'), { limit: 100 }).then((p) => p.data);
  /** The e-mails, or why they could not be read; only an ended session fails the whole page. */
  const loadMessages = (id: string): Promise<Pick<BookingPageState, 'messages' | 'messagesError'>> =>
    ctx.http.list(Message, path(id, '/messages'), { limit: 100 }).then(
      (p) => ({ messages: p.data, messagesError: null }),
      (e: unknown) => {
        if (e instanceof ApiError && e.code === 'UNAUTHORIZED') throw e;
        return { messages: null, messagesError: `The e-mails could not be read: ${sentenceFor(e)}` };
      },
    );

  /**
   * The name of the key a reseller's booking came with. Only owners may read keys; for others, or
   * when the list cannot be read, the page shows the key's id instead.
   */
  const loadResellerKey = (booking: Booking): Promise<string | null> => {
    const { octo } = booking;
    if (!octo || !isOwner()) return Promise.resolve(null);
    return ctx.http.list(ApiKey, '/v1/api-keys', { limit: 100 }).then(
      (p) => p.data.find((k) => k.id === octo.apiKeyId)?.name ?? null,
      (e: unknown) => {
        if (e instanceof ApiError && e.code === 'UNAUTHORIZED') throw e;
        return null;
      },
    );
  };

  /** Which of the experience's categories take a place; without them (a failure) the tickets' types tell. */
  const loadRule = (booking: Booking): Promise<PlaceRule> =>
    booking.tickets.length
      ? ctx.http.get(ExperienceCategories, `/v1/experiences/${encodeURIComponent(booking.experience.id)}`).then(
          (x) => placeRuleOf([x]),
          (e: unknown) => {
            if (e instanceof ApiError && e.code === 'UNAUTHORIZED') throw e;
            return new Map<string, boolean>();
          },
        )
      : Promise.resolve(new Map<string, boolean>());

  /** The zone of the booking's experience, from its availability when no list has taught it yet. */
  async function learnZone(experienceId: string): Promise<void> {
    if (zones.has(experienceId)) return;
    const open = await ctx.http.get(Availability, '/v1/availability', { experienceId });
    zones.learn(experienceId, open.timezone);
  }

  async function loadBooking(id: string): Promise<void> {
    const mine = ++generation;
    const shown = page.peek();
    page.value = { ...(shown.id === id ? shown : noPage(id)), loading: true, error: null };
    try {
      const [booking, payments, refunds, messages] = await Promise.all([ctx.http.get(Booking, path(id)), loadPayments(id), loadRefunds(id), loadMessages(id)]);
      const [activity, rule, resellerKey] = await Promise.all([loadActivity(booking.id), loadRule(booking), loadResellerKey(booking), learnZone(booking.experience.id)]);
      if (mine === generation) page.value = { id, booking, payments, refunds, ...messages, activity, rule, resellerKey, loading: false, error: null };
    } catch (e) {
      if (ctx.ended(e) || mine !== generation) return;
      const missing = e instanceof ApiError && e.code === 'NOT_FOUND';
      page.value = { ...noPage(id), error: missing ? 'There is no booking with this number. It may have been made in another organization.' : sentenceFor(e) };
    }
  }

  /** After a change: the new record, the payments and the activity entry it wrote. */
  async function settle(mine: number, booking: Booking, said: string, paymentsToo = false): Promise<void> {
    if (mine !== generation) return;
    ctx.focus('booking-notice');
    batch(() => {
      page.value = { ...page.peek(), booking };
      dialog.value = null;
      notice.value = said;
    });
    try {
      // A change may queue an e-mail to the guest: the messages are read again too.
      const [activity, payments, refunds, messages] = await Promise.all([
        loadActivity(booking.id),
        paymentsToo ? loadPayments(booking.id) : null,
        paymentsToo ? loadRefunds(booking.id) : null,
        loadMessages(booking.id),
      ]);
      if (mine !== generation) return;
      page.value = { ...page.peek(), activity, ...messages, payments: payments ?? page.peek().payments, refunds: refunds ?? page.peek().refunds };
    } catch (e) {
      if (!ctx.ended(e) && mine === generation) notice.value = `${said} The page could not show everything that follows: ${sentenceFor(e)}`;
    }
  }

  const busy = (values: Record<string, string> = {}): ActionDialog | null => {
    const d = dialog.peek();
    if (!d || d.form.busy) return null;
    dialog.value = { ...d, values, form: { ...idleForm, busy: true } };
    return d;
  };
  /** A refusal before any request: the field named, focus moved to it. */
  const invalid = (field: string, message: string, values: Record<string, string> = {}) => {
    ctx.focus(field);
    dialog.value = { ...dialog.peek()!, values, form: { ...idleForm, fields: { [field]: message } } };
  };
  const refuse = (d: ActionDialog, form: FormState) => {
    if (dialog.peek()?.kind === d.kind) dialog.value = { ...dialog.peek()!, form };
  };

  /** The ticket kinds a ticketed booking may change to: its own (at its prices), then the experience's others (at today's). */
  async function loadChoices(): Promise<void> {
    const b = page.peek().booking;
    if (!b || !b.tickets.length) return;
    const own: TicketChoice[] = b.tickets.map((t) => ({ categoryId: t.categoryId, name: t.name, unitPrice: t.unitPrice, quantity: t.quantity }));
    const set = (choices: TicketChoice[]) => {
      const d = dialog.peek();
      if (d?.kind === 'participants' && !d.choices) dialog.value = { ...d, choices };
    };
    try {
      const exp = await ctx.http.get(Experience, `/v1/experiences/${encodeURIComponent(b.experience.id)}`);
      const more = exp.priceCategories
        .filter((c) => !own.some((o) => o.categoryId === c.id))
        .map((c) => ({ categoryId: c.id, name: c.name, unitPrice: c.price, quantity: 0 }));
      set([...own, ...more]);
    } catch (e) {
      if (ctx.ended(e)) return;
      set(own);
    }
  }

  /** Change extras and answers: the experience as it is now (its current questions and extras are what a change is checked against). */
  async function loadFormExperience(): Promise<void> {
    const b = page.peek().booking;
    if (!b) return;
    let experience: Experience | null = null;
    try {
      experience = await ctx.http.get(Experience, `/v1/experiences/${encodeURIComponent(b.experience.id)}`);
    } catch (e) {
      if (ctx.ended(e)) return;
    }
    const d = dialog.peek();
    if (d?.kind === 'extras' && d.experience === undefined) {
      dialog.value = { ...d, experience, form: experience ? d.form : { ...idleForm, error: 'The experience’s questions and extras could not be read. Close this and try again.' } };
    }
  }

  async function loadSlots(from?: string): Promise<void> {
    const booking = page.peek().booking;
    const d = dialog.peek();
    if (!booking || d?.kind !== 'time') return;
    dialog.value = { ...d, loadingSlots: true };
    try {
      // Without `participants`: a party above today's per-booking limit would be refused outright,
      // and whether a slot has room is read from `remaining` below anyway.
      const open = await ctx.http.get(Availability, '/v1/availability', { experienceId: booking.experience.id, startDate: from });
      zones.learn(booking.experience.id, open.timezone);
      const now = dialog.peek();
      if (now?.kind !== 'time') return;
      dialog.value = { ...now, loadingSlots: false, slots: [...(from ? (now.slots ?? []) : []), ...open.slots], until: open.endDate };
    } catch (e) {
      if (ctx.ended(e)) return;
      const now = dialog.peek();
      if (now?.kind === 'time') dialog.value = { ...now, loadingSlots: false, form: { ...idleForm, error: `The times could not be loaded: ${sentenceFor(e)}` } };
    }
  }

  const area = {
    enter(location: Location): void {
      if (location.screen === 'bookings') void loadList(filtersOf(location.search));
      // `/bookings/new` is the New booking form (screens/NewBooking.tsx): it loads what it needs itself.
      else if (location.screen === 'booking' && location.id === 'new') {
        batch(() => ((page.value = noPage('new')), (newVisit.value = newVisit.peek() + 1)));
      }
      else if (location.screen === 'booking') {
        // What was said about the last visit's change is not news on this one.
        batch(() => ((dialog.value = null), (notice.value = null), (mail.value = noMail), (noteForm.value = idleForm)));
        void loadBooking(location.id);
      }
    },
    reset(): void {
      generation++;
      batch(() => {
        list.value = noList();
        draft = noList().filters;
        page.value = noPage();
        dialog.value = null;
        notice.value = null;
        mail.value = noMail;
        zones.reset();
      });
    },
  } satisfies Area;

  const actions = {
    /** New filters: a new address (Back returns to the previous ones), from the first page. */
    filter(f: Omit<BookingFilters, 'offset' | 'upcoming' | 'sort'>): void {
      ctx.router.go(listHref({ ...f, sort: list.peek().filters.sort }));
    },
    edit(name: keyof Omit<BookingFilters, 'offset' | 'upcoming' | 'sort'>, value: string): void {
      draft = { ...draft, [name]: value };
    },
    /** The address of another page of the list, with the same filters. */
    pageHref(offset: number): string {
      return listHref(list.value.filters, offset);
    },
    /** The list in another order, from its first page, the filters kept (a new address: Back returns). */
    sortBy(sort: string): void {
      ctx.router.go(listHref({ ...list.peek().filters, sort: sort === 'startTime' ? '' : sort }));
    },
    retry(): void {
      const { screen, id } = ctx.router.location.peek();
      if (screen === 'booking') void loadBooking(id);
      else void loadList(list.peek().filters);
    },

    open(kind: ActionKind): void {
      if (!page.peek().booking) return;
      batch(() => {
        notice.value = null;
        dialog.value = { kind, form: idleForm };
      });
      if (kind === 'time') void loadSlots();
      if (kind === 'participants') void loadChoices();
      if (kind === 'extras') void loadFormExperience();
    },
    close(): void {
      const d = dialog.peek();
      if (!d || d.form.busy) return;
      // Back to the button that opened it.
      ctx.focus(`open-${d.kind}`);
      dialog.value = null;
    },
    moreTimes(): void {
      const until = dialog.peek()?.until;
      if (!until) return;
      const next = new Date(Date.parse(`${until}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
      void loadSlots(next);
    },

    async cancel(reason: string): Promise<void> {
      const b = page.peek().booking;
      const d = b && busy({ reason });
      if (!b || !d) return;
      const text = reason.trim();
      const mine = generation;
      try {
        const saved = await ctx.http.send(Booking, 'PATCH', path(b.id, '/cancel'), text ? { reason: text } : undefined);
        await settle(mine, saved, `Booking ${saved.bookingNumber} is cancelled; its places are free again.`);
      } catch (e) {
        if (!ctx.ended(e)) refuse(d, formFailure(e));
      }
    },

    async changeTime(startTime: string): Promise<void> {
      const b = page.peek().booking;
      if (!b || dialog.peek()?.kind !== 'time') return;
      if (!startTime) return invalid('slot-choice', 'Choose one of the times offered.');
      const d = busy();
      if (!d) return;
      const mine = generation;
      try {
        const saved = await ctx.http.send(Booking, 'PATCH', path(b.id), { startTime });
        await settle(mine, saved, `Booking ${saved.bookingNumber} now starts at the new time.`);
      } catch (e) {
        if (ctx.ended(e)) return;
        // A slot that filled or closed meanwhile: say so, and offer the times as they are now.
        refuse(d, { ...idleForm, error: sentenceFor(e) });
        void loadSlots();
      }
    },

    /** A booking with tickets changes its tickets: `quantities` by category id, 0 dropping one. */
    async changeTickets(quantities: Record<string, string>): Promise<void> {
      const b = page.peek().booking;
      const choices = dialog.peek()?.choices;
      if (!b || !choices || dialog.peek()?.kind !== 'participants') return;
      const tickets = choices.map((c) => ({ categoryId: c.categoryId, quantity: Number(quantities[c.categoryId] ?? 0) }));
      const wrong = choices.find((c) => !/^\d{1,4}$/.test((quantities[c.categoryId] ?? '').trim()));
      if (wrong) return invalid(`qty-${wrong.categoryId}`, 'Enter a whole number, 0 or more.', quantities);
      const d = busy(quantities);
      if (!d) return;
      const mine = generation;
      try {
        const saved = await ctx.http.send(Booking, 'PATCH', path(b.id), { tickets: tickets.filter((t) => t.quantity > 0) });
        await settle(mine, saved, `Booking ${saved.bookingNumber} now has ${saved.tickets.map((t) => `${t.quantity} × ${t.name}`).join(', ')}.`);
      } catch (e) {
        if (ctx.ended(e)) return;
        // A refusal about the tickets (no place, the slot full) is about the whole list: said in the dialog.
        const extras = extrasRefused(e);
        refuse(d, { ...idleForm, error: extras ? extrasRefusal(extras) : sentenceFor(e) });
      }
    },

    /**
     * New answers and extras, read from the dialog (with the browser's own refusals in `fields`):
     * only a list that changed is sent, as each is the whole new list.
     */
    async changeForm(answers: AnswerInput[], extras: BookingExtraInput[], fields: Record<string, string>): Promise<void> {
      const b = page.peek().booking;
      if (!b || dialog.peek()?.kind !== 'extras') return;
      const first = Object.keys(fields)[0];
      if (first) {
        ctx.focus(first);
        dialog.value = { ...dialog.peek()!, form: { ...idleForm, fields } };
        return;
      }
      const body: Record<string, unknown> = {};
      const same = (x: unknown, y: unknown) => JSON.stringify(x) === JSON.stringify(y);
      if (!same(answers, b.answers.map((a) => ({ questionId: a.questionId, value: a.value })))) body['answers'] = answers;
      if (!same(extras, b.extras.map((x) => ({ extraId: x.extraId, quantity: x.quantity })))) body['extras'] = extras;
      if (!Object.keys(body).length) {
        dialog.value = { ...dialog.peek()!, form: { ...idleForm, error: 'Nothing has changed.' } };
        return;
      }
      const d = busy();
      if (!d) return;
      const mine = generation;
      try {
        const saved = await ctx.http.send(Booking, 'PATCH', path(b.id), body);
        await settle(mine, saved, `Booking ${saved.bookingNumber} is saved with its new ${Object.keys(body).join(' and ')}; the total is ${money(saved.total, saved.currency)}.`);
      } catch (e) {
        if (ctx.ended(e)) return;
        const named = formPartFields(e, { answers, extras });
        const field = Object.keys(named)[0];
        if (field) ctx.focus(field);
        refuse(d, { ...idleForm, fields: named, error: field ? null : sentenceFor(e) });
      }
    },

    async changeParticipants(value: string): Promise<void> {
      const b = page.peek().booking;
      if (!b || dialog.peek()?.kind !== 'participants') return;
      const participants = Number(value);
      if (!value.trim() || !Number.isInteger(participants) || participants < 1) {
        return invalid('participants', 'Enter a whole number of 1 or more.', { participants: value });
      }
      const d = busy({ participants: value });
      if (!d) return;
      const mine = generation;
      try {
        const saved = await ctx.http.send(Booking, 'PATCH', path(b.id), { participants });
        await settle(mine, saved, `Booking ${saved.bookingNumber} is now for ${participants} ${participants === 1 ? 'participant' : 'participants'}.`);
      } catch (e) {
        if (ctx.ended(e)) return;
        // The slot's refusal names the field too (`details[].path` is `participants`).
        const full = e instanceof ApiError && e.code === 'CAPACITY_EXCEEDED';
        if (full) {
          ctx.focus('participants');
          refuse(d, { ...idleForm, fields: { participants: sentenceFor(e) } });
        } else {
          const form = formFailure(e);
          if (form.fields['participants']) ctx.focus('participants');
          // A per-person extra above the smaller party: the dialog has no field for extras, so it says so.
          else if (extrasRefused(e)) form.error = extrasRefusal(extrasRefused(e)!);
          refuse(d, form);
        }
      }
    },

    /** A new copy of one of the guest's e-mails, sent at once: the list read again, the outcome said politely. */
    async resend(message: Message): Promise<void> {
      const b = page.peek().booking;
      if (!b || mail.peek().busy) return;
      const mine = generation;
      mail.value = { ...noMail, busy: message.id };
      let said: Partial<MailState>;
      try {
        const queued = await ctx.http.send(Message, 'POST', path(b.id, `/messages/${encodeURIComponent(message.id)}/resend`));
        said = { notice: `A new ${KIND_WORDS[queued.kind].toLowerCase()} e-mail to ${queued.to} is queued; it goes out in a moment.` };
        const messages = await loadMessages(b.id);
        if (mine === generation) page.value = { ...page.peek(), ...messages };
      } catch (e) {
        if (ctx.ended(e)) return;
        said = { error: `The e-mail could not be resent: ${sentenceFor(e)}` };
        ctx.focus('messages-alert');
      }
      if (mine === generation) mail.value = { ...noMail, ...said };
    },

    /** Saves the booking's internal note (empty clears it): for the team only, never shown to the guest. */
    async saveNote(text: string): Promise<void> {
      const b = page.peek().booking;
      if (!b || noteForm.peek().busy) return;
      const internalNote = text.trim() ? text.trim() : null;
      if (internalNote === b.internalNote) {
        notice.value = 'The internal note has not changed.';
        return;
      }
      const mine = generation;
      noteForm.value = { ...idleForm, busy: true };
      try {
        const saved = await ctx.http.send(Booking, 'PATCH', path(b.id), { internalNote });
        noteForm.value = idleForm;
        await settle(mine, saved, internalNote ? 'The internal note is saved.' : 'The internal note is removed.');
      } catch (e) {
        if (ctx.ended(e)) return;
        const form = formFailure(e);
        if (form.fields['internalNote']) ctx.focus('internalNote');
        noteForm.value = form;
      }
    },

    /** The payment dialog's status as chosen: a failure reason is asked for a failed payment only. */
    setPaymentStatus(status: string): void {
      const d = dialog.peek();
      if (d?.kind === 'payment') dialog.value = { ...d, values: { ...d.values, status } };
    },

    async recordPayment(input: { amount: string; status: string; method: string; reference: string; failureReason: string }): Promise<void> {
      const b = page.peek().booking;
      if (!b || dialog.peek()?.kind !== 'payment') return;
      const amount = amountOf(input.amount);
      if (!amount) return invalid('amount', 'Enter an amount such as 25.00.', input);
      const d = busy(input);
      if (!d) return;
      const failed = input.status === 'FAILED';
      const mine = generation;
      const body = {
        amount,
        status: failed ? 'FAILED' : 'SUCCEEDED',
        ...(input.method ? { method: input.method } : {}),
        ...(input.reference.trim() ? { reference: input.reference.trim() } : {}),
        ...(failed && input.failureReason.trim() ? { failureReason: input.failureReason.trim() } : {}),
      };
      try {
        await ctx.http.send(Payment, 'POST', path(b.id, '/payments'), body);
        // A payment may confirm a pending booking: read the record again.
        const saved = await ctx.http.get(Booking, path(b.id));
        const sum = money(amount, saved.currency);
        await settle(mine, saved, failed ? `A failed payment of ${sum} is recorded.` : `A payment of ${sum} is recorded.`, true);
      } catch (e) {
        if (ctx.ended(e)) return;
        const fields = e instanceof ApiError && e.code === 'VALIDATION_ERROR' ? fieldsOf(e) : {};
        const first = ['amount', 'status', 'method', 'reference', 'failureReason'].find((f) => fields[f]);
        if (first) ctx.focus(first);
        refuse(d, formFailure(e));
      }
    },

    /** A refund: by hand it is done at once; through Stripe it is on its way until Stripe reports it. */
    async recordRefund(input: { amount: string; method: string; reason: string }): Promise<void> {
      const b = page.peek().booking;
      if (!b || dialog.peek()?.kind !== 'refund') return;
      const amount = amountOf(input.amount);
      if (!amount || cents(amount) <= 0) return invalid('amount', 'Enter an amount more than 0.00, such as 25.00.', input);
      const d = busy(input);
      if (!d) return;
      const mine = generation;
      const body = { amount, method: input.method, ...(input.reason.trim() ? { reason: input.reason.trim() } : {}) };
      try {
        const made = await ctx.http.send(Refund, 'POST', path(b.id, '/refunds'), body);
        const saved = await ctx.http.get(Booking, path(b.id));
        const sum = money(amount, saved.currency);
        const said =
          made.status === 'PENDING' ? `A refund of ${sum} is sent to Stripe; it shows as refunded once Stripe confirms it.`
          : made.status === 'FAILED' ? `Stripe refused the refund of ${sum}: nothing was refunded.`
          : `A refund of ${sum} is recorded.`;
        await settle(mine, saved, said, true);
      } catch (e) {
        if (ctx.ended(e)) return;
        const fields = e instanceof ApiError && e.code === 'VALIDATION_ERROR' ? fieldsOf(e) : {};
        const over = e instanceof ApiError && e.code === 'REFUND_EXCEEDS_PAID';
        const first = over ? 'amount' : ['amount', 'method', 'reason'].find((f) => fields[f]);
        if (first) ctx.focus(first);
        refuse(d, over ? { ...idleForm, fields: { amount: sentenceFor(e) } } : formFailure(e));
      }
    },
  };

  return {
    ...area,
    list,
    formKey,
    page,
    dialog,
    notice,
    mail,
    noteForm,
    newVisit,
    zones,
    /** For the New booking screen, whose code and state load with the other screens (screens/NewBooking.tsx). */
    ctx,
    isOwner: () => ctx.session.value?.user.role === 'owner',
    /** The places the booking on show takes: fewer than its guests when some take none. */
    placesOf: (b: Booking): number => placesOf(b, page.value.rule),
    ...actions,
  };
}

export type BookingsModel = ReturnType<typeof createBookingsModel>;
