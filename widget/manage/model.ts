/**
 * The manage page's state: signals the components read and the actions that change them.
 * Components never fetch; every call to Outing starts here. Choosing a new time reuses the
 * widget's own booking model (its calendar and times), fed by the manage API's availability.
 */
import type { Availability, Locale, ManagedBooking, PublicExperience, WaitlistOffer } from '../../shared/index.js';
import type { OutingApi } from '../api.js';
import { createFormats } from '../i18n/format.js';
import type { Formats } from '../i18n/format.js';
import { pickLanguage } from '../i18n/catalogs.js';
import type { Messages } from '../i18n/messages.js';
import { createBookingModel } from '../state/booking.js';
import type { BookingModel } from '../state/booking.js';
import { dateInZone } from '../state/dates.js';
import { batch, computed, signal } from '../state/signals.js';
import { ApiError } from './api.js';
import type { ManageApi } from './api.js';
import { manageCatalogs } from './messages.js';
import type { ManageMessages, ManageProblem } from './messages.js';

export interface Trouble {
  problem: ManageProblem;
  /** Present when trying again can help. */
  retry?: () => void;
}

/** What the guest is doing: looking, confirming a cancellation, choosing another time, changing the party or their details. */
export type Mode = 'view' | 'cancel' | 'change' | 'party' | 'details';

/** A problem with one field of a form: the input's id and what to say. */
export interface FieldError {
  id: string;
  text: string;
}

/** The party form as typed: participants, or a quantity per ticket category the booking has. */
export interface PartyDraft {
  participants: string;
  tickets: Record<string, string>;
}

/** The id of the input of a ticket category: the category's place in the booking's list. */
export const ticketInputId = (index: number) => `party-ticket-${index}`;

const WHOLE = /^\s*\d{1,5}\s*$/;

/** The first number in a server's message ("At most 8 participants per booking", "3 remaining"). */
const numberIn = (text: string | undefined): number | undefined => {
  const match = text === undefined ? null : /(\d+)/.exec(text);
  return match ? Number(match[1]) : undefined;
};

/** The fields a refusal names (PRICE_CHANGED's details are no list). */
const detailsOf = (e: ApiError): { path: string; message: string }[] => (Array.isArray(e.details) ? e.details : []);

/** Name characters the server refuses: a NUL, and the controls that reorder text (shared DisplayName). */
const REFUSED_IN_NAME = /[\u0000\u202a-\u202e\u2066-\u2069]/;

/** The language the page speaks: its Intl tag, its own texts, the widget's texts and formats. */
export interface Language {
  tag: string;
  /** The language's code, one of the seven. */
  code: Locale;
  m: ManageMessages;
  t: Messages;
  fmt: Formats;
}

/**
 * The booking's language when known (the region from the browser when it speaks the same one,
 * else Portugal's for `pt`, as the catalog is written, else the bare code), else the browser's
 * first we speak.
 */
export function languageFor(wanted: Locale | null, browser: readonly string[]): Language {
  const tags = wanted
    ? [...browser.filter((b) => b.toLowerCase().split('-')[0] === wanted), wanted === 'pt' ? 'pt-PT' : wanted]
    : browser;
  const { locale, code, messages } = pickLanguage(tags);
  const lang = code as Locale;
  return { tag: locale, code: lang, m: manageCatalogs[lang], t: messages, fmt: createFormats(locale) };
}

function problemOf(e: unknown): ManageProblem {
  if (!(e instanceof ApiError)) return 'server';
  if (e.status === 0) return 'network';
  if (e.status === 429) return 'rateLimited';
  if (e.code === 'CHANGE_NOT_ALLOWED') return 'notAllowed';
  if (e.code === 'CAPACITY_EXCEEDED' || e.code === 'SLOT_UNAVAILABLE' || e.code === 'VALIDATION_ERROR') return 'slotTaken';
  return 'server';
}

const notFound = (e: unknown): boolean => e instanceof ApiError && e.status === 404;

export interface ManageOptions {
  /** null when the address carries no token: the link is broken without asking. */
  api: ManageApi | null;
  /** The browser's languages, spoken until the booking names its own. */
  browser: readonly string[];
  /** The clock, for tests. */
  now?: () => Date;
  /** Leaves for the payment page of an accepted offer (tests watch it). */
  navigate?: (url: string) => void;
}

/** A waitlist offer's page: looking at it, or confirming that the places may go. */
export type OfferStep = 'view' | 'decline';

export type ManageModel = ReturnType<typeof createManageModel>;

export function createManageModel({ api, browser, now = () => new Date(), navigate = (url) => window.location.assign(url) }: ManageOptions) {
  const managed = signal<ManagedBooking | null>(null);
  /** The link was a waitlist offer's (no booking answers its token): the offer as it stands. */
  const offer = signal<WaitlistOffer | null>(null);
  const offerStep = signal<OfferStep>('view');
  /** What the guest just did with the offer, said once above it. */
  const offerNotice = signal<'booked' | 'declined' | null>(null);
  const broken = signal(!api);
  const busy = signal(false);
  const trouble = signal<Trouble | null>(null);
  const mode = signal<Mode>('view');
  const reason = signal('');
  /** What just happened, said once in the status region and shown above the booking. */
  const notice = signal<'cancelled' | 'changed' | 'updated' | null>(null);
  const party = signal<PartyDraft>({ participants: '', tickets: {} });
  const contact = signal({ name: '', phone: '' });
  /** The problems of the form on screen, in the order of its fields. */
  const fieldErrors = signal<FieldError[]>([]);
  /** The calendar of another time, while the guest chooses one. */
  const picker = signal<BookingModel | null>(null);
  const language = computed(() => languageFor(managed.value?.locale ?? offer.value?.entry.locale ?? null, browser));
  const session = { generation: 0, disposed: false, focusId: null as string | null };

  /** Runs one call with the loading state on; a failure shows, with `retry` where it can help. */
  async function request<T>(
    call: (a: ManageApi) => Promise<T>,
    retry?: () => void,
    /** Says a refusal by the fields of the form on screen; true when it did. */
    byField?: (e: ApiError) => boolean,
  ): Promise<T | undefined> {
    if (!api) return undefined;
    const mine = ++session.generation;
    const current = () => mine === session.generation && !session.disposed;
    batch(() => {
      busy.value = true;
      trouble.value = null;
    });
    try {
      const answer = await call(api);
      return current() ? answer : undefined;
    } catch (e) {
      if (!current()) return undefined;
      if (notFound(e)) {
        batch(() => {
          broken.value = true;
          managed.value = null;
          offer.value = null;
          closePicker();
        });
        return undefined;
      }
      if (byField && e instanceof ApiError && byField(e)) return undefined;
      const problem = problemOf(e);
      trouble.value = { problem, retry: problem === 'network' || problem === 'rateLimited' || problem === 'server' ? retry : undefined };
      // The rules changed under the guest (the cutoff passed, the operator acted): show where it stands now.
      if (problem === 'notAllowed') void refresh();
      return undefined;
    } finally {
      if (mine === session.generation) busy.value = false;
    }
  }

  /** The booking of the token; when no booking has it, the waitlist offer of the token (one 404 more: a broken link). */
  async function load(): Promise<void> {
    const answer = await request(async (a) => {
      try {
        return { managed: await a.get() };
      } catch (e) {
        if (!notFound(e)) throw e;
        return { offer: await a.offer() };
      }
    }, () => void load());
    if (!answer) return;
    if (answer.managed) managed.value = answer.managed;
    else if (answer.offer) offer.value = answer.offer;
  }

  /**
   * The offer answered otherwise than asked (it expired, was taken or removed meanwhile): shown as it
   * now stands, which says why, with the focus on its heading.
   */
  const offerMoved = (e: ApiError): boolean => {
    if (e.code !== 'OFFER_EXPIRED' && e.code !== 'INVALID_STATUS_TRANSITION') return false;
    void (async () => {
      try {
        const fresh = await api?.offer();
        if (!fresh || session.disposed) return;
        session.focusId = 'manage-top';
        batch(() => {
          offer.value = fresh;
          offerStep.value = 'view';
        });
      } catch {
        // Nothing better to show than what is on screen.
      }
    })();
    return true;
  };

  async function acceptOffer(): Promise<void> {
    const answer = await request((a) => a.acceptOffer(), () => void acceptOffer(), offerMoved);
    if (!answer) return;
    // Online payment due: the booking holds the places while the guest pays, and comes back here afterwards.
    if (answer.booking.status === 'PENDING' && answer.booking.checkoutUrl) {
      offer.value = answer;
      navigate(answer.booking.checkoutUrl);
      return;
    }
    session.focusId = 'notice';
    batch(() => {
      offer.value = answer;
      offerNotice.value = 'booked';
    });
  }

  function askDecline(): void {
    session.focusId = 'manage-step';
    batch(() => {
      trouble.value = null;
      offerStep.value = 'decline';
    });
  }

  function keepOffer(): void {
    session.focusId = 'decline-button';
    offerStep.value = 'view';
  }

  async function declineOffer(): Promise<void> {
    const answer = await request((a) => a.declineOffer(), () => void declineOffer(), offerMoved);
    if (!answer) return;
    session.focusId = 'notice';
    batch(() => {
      offer.value = answer;
      offerStep.value = 'view';
      offerNotice.value = 'declined';
    });
  }

  /** A fresh look after a refusal, keeping the refusal's message on screen. */
  async function refresh(): Promise<void> {
    if (!api) return;
    try {
      const answer = await api.get();
      if (session.disposed) return;
      batch(() => {
        managed.value = answer;
        mode.value = 'view';
        closePicker();
      });
    } catch {
      // The refusal already says what happened.
    }
  }

  function closePicker(): void {
    picker.peek()?.dispose();
    picker.value = null;
  }

  function show(next: Mode, focusId: string): void {
    session.focusId = focusId;
    batch(() => {
      trouble.value = null;
      notice.value = null;
      fieldErrors.value = [];
      mode.value = next;
      if (next !== 'change') closePicker();
    });
  }

  const askCancel = () => show('cancel', 'manage-step');
  /** Back to the booking as it is, focus on the button that left it. */
  const keep = () => show('view', `${{ view: 'change', cancel: 'cancel', change: 'change', party: 'party', details: 'details' }[mode.peek()]}-button`);

  function setReason(text: string): void {
    reason.value = text.slice(0, 500);
  }

  async function confirmCancel(): Promise<void> {
    const text = reason.peek().trim();
    const answer = await request((a) => a.cancel(text || undefined), () => void confirmCancel());
    if (!answer) return;
    session.focusId = 'notice';
    batch(() => {
      managed.value = answer;
      mode.value = 'view';
      reason.value = '';
      notice.value = 'cancelled';
    });
  }

  function startChange(): void {
    const current = managed.peek();
    if (!current || !api) return;
    const { booking, timezone } = current;
    const experience: PublicExperience = {
      id: booking.experience.id,
      name: booking.experience.title,
      description: '',
      waitlist: false,
      duration: 0,
      price: 0,
      currency: booking.currency,
      maxParticipants: booking.totalParticipants,
      maxPerBooking: booking.totalParticipants,
      priceCategories: [],
      meetingPoint: null,
      meetingPointUrl: null,
      guestInstructions: null,
      questions: [],
      extras: [],
      defaultLocale: 'en',
    };
    // The widget's model asks for an experience and its availability; the manage API answers
    // for this booking's experience alone, and the booking's own time is no choice.
    const adapter: OutingApi = {
      listExperiences: () => Promise.resolve([experience]),
      getExperience: () => Promise.resolve(experience),
      getAvailability: async (range): Promise<Availability> => {
        const answer = await api.availability(range.startDate ?? dateInZone(now(), timezone), range.endDate);
        return {
          ...answer,
          slots: answer.slots.filter((s) => s.id !== booking.timeSlot.id && s.startTime !== booking.timeSlot.startTime),
        };
      },
      getBooking: () => Promise.reject(new Error('The manage page books nothing')),
      post: () => Promise.reject(new Error('The manage page books nothing')),
    };
    const model = createBookingModel({ api: adapter, experienceId: experience.id, now });
    batch(() => {
      show('change', 'manage-step');
      picker.value = model;
    });
    void model.start();
  }

  /** The time chosen in the picker (its `details` step stands for "confirm"). */
  const chosen = computed(() => {
    const p = picker.value;
    return p && p.step.value === 'details' ? p.slot.value : null;
  });

  async function confirmChange(): Promise<void> {
    const p = picker.peek();
    const slot = chosen.peek();
    if (!p || !slot) return;
    const answer = await request((a) => a.reschedule(slot.startTime), () => void confirmChange());
    if (answer) {
      session.focusId = 'notice';
      batch(() => {
        managed.value = answer;
        mode.value = 'view';
        notice.value = 'changed';
        closePicker();
      });
      return;
    }
    // Taken meanwhile: back to that day's fresh times (or the calendar when the day has none left).
    if (trouble.peek()?.problem === 'slotTaken' && picker.peek() === p) {
      p.back();
      await p.refreshAfterSlotTaken();
    }
  }

  /** Opens the party form with the booking's party as it is. */
  function startParty(): void {
    const current = managed.peek();
    if (!current) return;
    const { booking } = current;
    party.value = {
      participants: String(booking.totalParticipants),
      tickets: Object.fromEntries(booking.tickets.map((c) => [c.categoryId, String(c.quantity)])),
    };
    show('party', 'manage-step');
  }

  function setParticipants(text: string): void {
    party.value = { ...party.peek(), participants: text.slice(0, 6) };
  }

  function setTicket(categoryId: string, text: string): void {
    const draft = party.peek();
    party.value = { ...draft, tickets: { ...draft.tickets, [categoryId]: text.slice(0, 6) } };
  }

  /**
   * What the typed party would cost, in cents, or null while a number is not one: the booking's own
   * prices (a ticket's unit price, or the total shared by the participants), as the server keeps them.
   */
  const newTotalCents = computed((): number | null => {
    const current = managed.value;
    if (!current) return null;
    const { booking } = current;
    const draft = party.value;
    if (booking.tickets.length) {
      let cents = 0;
      for (const c of booking.tickets) {
        const typed = draft.tickets[c.categoryId] ?? '';
        if (!WHOLE.test(typed)) return null;
        cents += Number(typed) * c.unitPrice;
      }
      return cents;
    }
    if (!WHOLE.test(draft.participants) || Number(draft.participants) < 1) return null;
    const unit = Math.round((Number(booking.total) * 100) / Math.max(1, booking.totalParticipants));
    return unit * Number(draft.participants);
  });

  /** Puts the form's problems on screen, the summary first to take focus (the GOV.UK pattern). */
  function showErrors(list: FieldError[]): boolean {
    if (list.length === 0) return false;
    session.focusId = 'error-summary';
    batch(() => {
      trouble.value = null;
      fieldErrors.value = list;
    });
    return true;
  }

  /** Where the party's refusal is said: by the participants, or by the first ticket. */
  function partyRefusal(e: ApiError, fieldId: string): boolean {
    const { errors } = language.peek().m;
    const detail = detailsOf(e)[0];
    if (e.code === 'CAPACITY_EXCEEDED') return showErrors([{ id: fieldId, text: errors.placesLeft(numberIn(detail?.message) ?? 0) }]);
    if (e.code === 'SLOT_UNAVAILABLE') return showErrors([{ id: fieldId, text: errors.slotGone }]);
    if (e.code === 'VALIDATION_ERROR') {
      const most = /at most (\d+)/i.exec(detail?.message ?? '');
      return showErrors([{ id: fieldId, text: most ? errors.perBooking(Number(most[1])) : errors.partyRefused }]);
    }
    return false;
  }

  async function saveParty(): Promise<void> {
    const current = managed.peek();
    if (!current) return;
    const { booking } = current;
    const { errors } = language.peek().m;
    const draft = party.peek();
    const problems: FieldError[] = [];
    let change: { participants: number } | { tickets: { categoryId: string; quantity: number }[] };
    if (booking.tickets.length) {
      booking.tickets.forEach((c, i) => {
        if (!WHOLE.test(draft.tickets[c.categoryId] ?? '')) problems.push({ id: ticketInputId(i), text: errors.ticketsNumber(c.name) });
      });
      const tickets = booking.tickets
        .map((c) => ({ categoryId: c.categoryId, quantity: Number(draft.tickets[c.categoryId]) }))
        .filter((c) => c.quantity > 0);
      if (problems.length === 0 && tickets.length === 0) problems.push({ id: ticketInputId(0), text: errors.noTickets });
      change = { tickets };
    } else {
      if (!WHOLE.test(draft.participants) || Number(draft.participants) < 1) problems.push({ id: 'party-participants', text: errors.participantsNumber });
      change = { participants: Number(draft.participants) };
    }
    if (showErrors(problems)) return;
    const fieldId = booking.tickets.length ? ticketInputId(0) : 'party-participants';
    const answer = await request((a) => a.update(change), () => void saveParty(), (e) => partyRefusal(e, fieldId));
    if (answer) done(answer);
  }

  /** Opens the details form with the name and phone as they are. */
  function startDetails(): void {
    const current = managed.peek();
    if (!current) return;
    contact.value = { name: current.booking.guestName ?? '', phone: current.booking.guestPhone ?? '' };
    show('details', 'manage-step');
  }

  function setContact(field: 'name' | 'phone', text: string): void {
    contact.value = { ...contact.peek(), [field]: text };
  }

  async function saveDetails(): Promise<void> {
    const { errors } = language.peek().m;
    const { name, phone } = contact.peek();
    const problems: FieldError[] = [];
    if (name.trim() === '') problems.push({ id: 'details-name', text: errors.nameMissing });
    else if (REFUSED_IN_NAME.test(name)) problems.push({ id: 'details-name', text: errors.nameInvalid });
    if (phone.trim().length > 40) problems.push({ id: 'details-phone', text: errors.phoneInvalid });
    if (showErrors(problems)) return;
    const byField = (e: ApiError): boolean => {
      if (e.code !== 'VALIDATION_ERROR') return false;
      const list: FieldError[] = [];
      if (detailsOf(e).some((d) => d.path.startsWith('customerName'))) list.push({ id: 'details-name', text: errors.nameInvalid });
      if (detailsOf(e).some((d) => d.path.startsWith('customerPhone'))) list.push({ id: 'details-phone', text: errors.phoneInvalid });
      return showErrors(list);
    };
    const answer = await request((a) => a.update({ customerName: name.trim(), customerPhone: phone.trim() || null }), () => void saveDetails(), byField);
    if (answer) done(answer);
  }

  /** A saved change: the booking as it is now, and the notice saying so. */
  function done(answer: ManagedBooking): void {
    session.focusId = 'notice';
    batch(() => {
      managed.value = answer;
      mode.value = 'view';
      fieldErrors.value = [];
      notice.value = 'updated';
    });
  }

  /** The element id to focus after this render, once. */
  function takeFocusRequest(): string | null {
    const id = session.focusId;
    session.focusId = null;
    return id;
  }

  function dispose(): void {
    session.disposed = true;
    closePicker();
  }

  return {
    managed,
    offer,
    offerStep,
    offerNotice,
    acceptOffer,
    askDecline,
    keepOffer,
    declineOffer,
    /** The .ics download of the booking (GET /public/v1/manage/calendar.ics); null without a token. */
    calendarUrl: api?.calendarUrl ?? null,
    broken,
    busy,
    trouble,
    mode,
    reason,
    notice,
    picker,
    chosen,
    language,
    party,
    contact,
    fieldErrors,
    newTotalCents,
    startParty,
    setParticipants,
    setTicket,
    saveParty,
    startDetails,
    setContact,
    saveDetails,
    load,
    askCancel,
    keep,
    setReason,
    confirmCancel,
    startChange,
    confirmChange,
    takeFocusRequest,
    dispose,
  };
}
