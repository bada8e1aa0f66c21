/**
 * The dashboard's state and every action that changes it. Components read these signals and call
 * these actions; only actions talk to the api, so a screen can be tested with a fake one.
 */
import type { Manifest, ManifestBooking, Session } from '../../shared/index.js';
import { ApiError, type DashboardApi } from '../api.js';
import { BASE, type Router, type Screen } from '../router.js';
import { batch, computed, signal } from './signals.js';
import { addDays } from './dates.js';
import { dateIn } from '../format.js';
import { placeRuleOf, placesOf, type PlaceRule } from './places.js';
import { fieldsOf, idleForm, saveFile, sentenceFor, type Area, type AreaContext, type FormState } from './context.js';
import { createBookingsModel } from './bookings.js';
import { createCalendarModel } from './calendar.js';
import { createCustomersModel } from './customers.js';
import { createExperiencesModel } from './experiences.js';
import { createInsightsModel } from './insights.js';
import { createSettingsModel } from './settings.js';
import { createWaitlistModel } from './waitlist.js';

export type { FormState } from './context.js';

/** The screens only owners see; staff get a page saying so (the API would refuse them anyway). */
export const OWNERS_ONLY: ReadonlySet<Screen> = new Set(['experiences', 'experience', 'insights', 'settings']);

/** "This booking is for <date>. Check in anyway?" */
export interface CheckInQuestion {
  bookingId: string;
  guestName: string;
  /** The slot's date where it takes place, `YYYY-MM-DD`. */
  date: string;
}

export interface DayState {
  /** What the address asked for; null: today in the organization's zone. */
  asked: string | null;
  manifest: Manifest | null;
  loading: boolean;
  error: string | null;
}

export function createModel(api: DashboardApi, router: Router) {
  const session = signal<Session | null>(null);
  /** True until the first GET of the session has answered. */
  const checking = signal(true);
  /** Said on the sign-in screen: why the person is there again. */
  const notice = signal<string | null>(null);
  const signInForm = signal<FormState>(idleForm);
  const setupForm = signal<FormState>(idleForm);
  const day = signal<DayState>({ asked: null, manifest: null, loading: false, error: null });
  /** Experience id → IANA zone, for the slots' times; the organization's zone for the rest. */
  const zones = signal<Map<string, string> | null>(null);
  /** Which price categories take a place, to tell a booking's places from its guests. */
  const placeRule = signal<PlaceRule>(new Map());
  /** A check-in on a day other than the slot's, waiting for the person to confirm it. */
  const checkInQuestion = signal<CheckInQuestion | null>(null);
  /** Bookings whose check-in is on its way to the server. */
  const saving = signal<ReadonlySet<string>>(new Set());
  const dayAlert = signal<string | null>(null);
  const downloading = signal(false);

  // Not signals: nothing renders from these.
  let generation = 0;
  /** The element id that keyboard focus moves to after the next render. */
  let focusId: string | null = null;

  const ctx: AreaContext = {
    http: api.http,
    router,
    session,
    ended: (e) => ended(e),
    focus: (id) => void (focusId = id),
    async refreshSession() {
      try {
        session.value = await api.getSession();
      } catch (e) {
        if (ended(e)) return;
      }
      // A role changed under this screen (an owner made staff) shows what the new role allows.
      route();
    },
  };
  const bookings = createBookingsModel(ctx);
  const customers = createCustomersModel(ctx);
  const experiences = createExperiencesModel(ctx);
  const calendar = createCalendarModel(ctx);
  const insights = createInsightsModel(ctx);
  const settings = createSettingsModel(ctx);
  // A removed entry may have held an offer's places: the day and the open departure show them again.
  const waitlist = createWaitlistModel(ctx, (slotId) => {
    const d = day.peek();
    if (d.manifest?.slots.some((s) => s.timeSlot.id === slotId)) void loadDay(d.asked);
    calendar.departures.refresh(slotId);
  });
  const AREAS: Partial<Record<Screen, Area>> = {
    bookings,
    booking: bookings,
    customers,
    customer: customers,
    experiences,
    experience: experiences,
    calendar,
    insights,
    settings,
  };

  const signedIn = (s: Session) => {
    batch(() => {
      session.value = s;
      notice.value = null;
      signInForm.value = idleForm;
      setupForm.value = idleForm;
    });
  };

  const forgetSession = (why: string | null) => {
    generation++;
    batch(() => {
      session.value = null;
      notice.value = why;
      day.value = { asked: null, manifest: null, loading: false, error: null };
      zones.value = null;
      placeRule.value = new Map();
      checkInQuestion.value = null;
      saving.value = new Set();
      dayAlert.value = null;
      for (const area of new Set(Object.values(AREAS))) area.reset();
      waitlist.reset();
    });
  };

  /** A 401 anywhere but the sign-in form means the session ended under us. */
  const ended = (e: unknown): boolean => {
    if (!(e instanceof ApiError) || e.code !== 'UNAUTHORIZED') return false;
    forgetSession('Your session has ended. Sign in again.');
    route();
    return true;
  };

  /** Sends the person where the address and the session allow. Runs on every navigation. */
  function route(): void {
    const location = router.location.peek();
    const { screen, search } = location;
    if (screen === 'setup' || checking.peek()) return;
    if (!session.peek()) {
      if (screen !== 'sign-in') {
        const next = router.here();
        router.go(`${BASE}/sign-in${next === BASE || next === `${BASE}/` ? '' : `?next=${encodeURIComponent(next)}`}`, true);
      }
      return;
    }
    if (screen === 'sign-in') {
      const next = search.get('next');
      // Only a path of ours: ?next= must not send anyone to another site.
      router.go(next && /^\/dashboard(?:[/?]|$)/.test(next) ? next : BASE, true);
      return;
    }
    if (screen === 'today') {
      const asked = search.get('date');
      const d = day.peek();
      if (asked !== d.asked || (!d.manifest && !d.loading && !d.error)) void loadDay(asked);
      return;
    }
    if (OWNERS_ONLY.has(screen) && session.peek()?.user.role !== 'owner') return;
    AREAS[screen]?.enter(location);
  }

  async function loadDay(asked: string | null): Promise<void> {
    const mine = ++generation;
    const shown = day.peek();
    // Another day's guests must not stand under this day's date while it loads.
    day.value = { asked, manifest: shown.asked === asked ? shown.manifest : null, loading: true, error: null };
    dayAlert.value = null;
    try {
      const [manifest, known] = await Promise.all([
        api.getManifest(asked ?? undefined),
        zones.peek() ??
          api.listExperiences().then((list) => {
            placeRule.value = placeRuleOf(list);
            return new Map(list.flatMap((x) => (x.schedule?.timezone ? [[x.id, x.schedule.timezone] as const] : [])));
          }),
      ]);
      if (mine !== generation) return;
      batch(() => {
        zones.value = known;
        day.value = { asked, manifest, loading: false, error: null };
      });
    } catch (e) {
      if (mine !== generation || ended(e)) return;
      const invalid = e instanceof ApiError && e.code === 'VALIDATION_ERROR';
      day.value = {
        asked,
        manifest: null,
        loading: false,
        error: invalid ? 'That is not a date Outing can show. Pick another one.' : sentenceFor(e),
      };
    }
  }

  const replaceBooking = (id: string, change: (b: ManifestBooking) => ManifestBooking) => {
    const d = day.peek();
    if (!d.manifest) return;
    const slots = d.manifest.slots.map((s) =>
      s.bookings.some((b) => b.id === id) ? { ...s, bookings: s.bookings.map((b) => (b.id === id ? change(b) : b)) } : s,
    );
    day.value = { ...d, manifest: { ...d.manifest, slots } };
  };

  const actions = {
    /** First thing after mounting: who is signed in, then the screen the address names. */
    async start(): Promise<void> {
      router.location.subscribe(() => route());
      if (router.location.peek().screen === 'setup') {
        checking.value = false;
        return;
      }
      try {
        signedIn(await api.getSession());
      } catch (e) {
        if (!(e instanceof ApiError && e.code === 'UNAUTHORIZED')) notice.value = sentenceFor(e);
      }
      checking.value = false;
      route();
    },

    async signIn(email: string, password: string): Promise<void> {
      if (signInForm.peek().busy) return;
      const fields: Record<string, string> = {};
      if (!email.trim()) fields['email'] = 'Enter your e-mail address.';
      if (!password) fields['password'] = 'Enter your password.';
      if (Object.keys(fields).length) {
        // Before the write: the write renders at once, and the render takes the request.
        focusId = fields['email'] ? 'email' : 'password';
        signInForm.value = { busy: false, error: null, fields };
        return;
      }
      signInForm.value = { busy: true, error: null, fields: {} };
      try {
        const s = await api.signIn({ email: email.trim(), password });
        signedIn(s);
        route();
      } catch (e) {
        const wrong = e instanceof ApiError && e.code === 'INVALID_CREDENTIALS';
        const byField = e instanceof ApiError && e.code === 'VALIDATION_ERROR' ? fieldsOf(e) : {};
        if (wrong) focusId = 'password';
        signInForm.value = {
          busy: false,
          error: wrong ? 'The e-mail or password is not right. Check both and try again.' : Object.keys(byField).length ? null : sentenceFor(e),
          fields: byField,
        };
      }
    },

    async setUpPassword(token: string, password: string, repeated: string): Promise<void> {
      if (setupForm.peek().busy) return;
      const fields: Record<string, string> = {};
      if (password.length < 10) fields['password'] = 'Use at least 10 characters.';
      else if (password.length > 200) fields['password'] = 'Use at most 200 characters.';
      if (repeated !== password) fields['repeat'] = 'The two passwords are not the same.';
      if (!token) {
        setupForm.value = { busy: false, error: 'This link is incomplete. Open the whole setup link from your message again.', fields: {} };
        return;
      }
      if (Object.keys(fields).length) {
        focusId = fields['password'] ? 'password' : 'repeat';
        setupForm.value = { busy: false, error: null, fields };
        return;
      }
      setupForm.value = { busy: true, error: null, fields: {} };
      try {
        signedIn(await api.setUpPassword({ token, password }));
        // The used link leaves the history: Back must not return to a spent token.
        router.go(BASE, true);
      } catch (e) {
        const byField = e instanceof ApiError && e.code === 'VALIDATION_ERROR' ? fieldsOf(e) : {};
        const error =
          e instanceof ApiError && e.code === 'INVALID_TOKEN'
            ? 'This setup link has been used or has expired. Ask an owner of the organization for a new one.'
            : Object.keys(byField).length
              ? null
              : sentenceFor(e);
        if (byField['password']) focusId = 'password';
        setupForm.value = { busy: false, error, fields: byField };
      }
    },

    async signOut(): Promise<void> {
      try {
        await api.signOut();
      } catch (e) {
        if (!ended(e)) dayAlert.value = sentenceFor(e);
        return;
      }
      forgetSession('You have signed out.');
      route();
    },

    /** The Today screen for another date: a new address, so Back returns to the previous day. */
    showDate(date: string): void {
      if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) return;
      router.go(`${BASE}?date=${date}`);
    },

    showNextDate(step: 1 | -1): void {
      const shown = day.peek().manifest?.date ?? day.peek().asked;
      if (shown) actions.showDate(addDays(shown, step));
    },

    retryDay(): void {
      void loadDay(day.peek().asked);
    },

    /**
     * Checks a guest in or out. Checking in on another day than the slot's own (in its zone) asks
     * first: on the Today screen of the wrong date, that is a guest who has not come yet.
     */
    async toggleCheckIn(bookingId: string, checkedIn: boolean, confirmed = false): Promise<void> {
      if (saving.peek().has(bookingId)) return;
      const slot = day.peek().manifest?.slots.find((s) => s.bookings.some((b) => b.id === bookingId));
      const before = slot?.bookings.find((b) => b.id === bookingId);
      if (!slot || !before) return;
      if (checkedIn && !confirmed) {
        const zone = zoneOfExperience(slot.experience.id);
        const date = dateIn(zone, new Date(slot.timeSlot.startTime));
        if (date !== dateIn(zone)) {
          // A reseller's booking may have no name: its number says which.
          checkInQuestion.value = { bookingId, guestName: before.guestName ?? `booking ${before.bookingNumber}`, date };
          return;
        }
      }
      checkInQuestion.value = null;
      const mine = generation;
      batch(() => {
        saving.value = new Set([...saving.peek(), bookingId]);
        dayAlert.value = null;
        // At once, so the button answers the press; the server's time replaces this one.
        replaceBooking(bookingId, (b) => ({ ...b, checkedInAt: checkedIn ? new Date().toISOString() : null }));
      });
      let alert: string | null = null;
      try {
        const saved = await api.setCheckedIn(bookingId, checkedIn);
        if (mine === generation) replaceBooking(bookingId, (b) => ({ ...b, checkedInAt: saved.checkedInAt }));
      } catch (e) {
        if (ended(e)) return;
        if (mine === generation) replaceBooking(bookingId, (b) => ({ ...b, checkedInAt: before.checkedInAt }));
        alert = `${before.guestName ?? 'The guest'} (${before.bookingNumber}) could not be ${checkedIn ? 'checked in' : 'un-checked'}: ${sentenceFor(e)}`;
      }
      batch(() => {
        const next = new Set(saving.peek());
        next.delete(bookingId);
        saving.value = next;
        if (alert && mine === generation) dayAlert.value = alert;
      });
    },

    /** "Check in anyway": the question's check-in goes ahead. */
    confirmCheckIn(): void {
      const q = checkInQuestion.peek();
      if (!q) return;
      focusId = `checkin-${q.bookingId}`;
      void actions.toggleCheckIn(q.bookingId, true, true);
    },

    /** The question is closed without checking in; focus goes back to the guest's button. */
    keepNotCheckedIn(): void {
      const q = checkInQuestion.peek();
      if (!q) return;
      focusId = `checkin-${q.bookingId}`;
      checkInQuestion.value = null;
    },

    /** The day's CSV, as a download. */
    async downloadCsv(): Promise<void> {
      const date = day.peek().manifest?.date;
      if (!date || downloading.peek()) return;
      downloading.value = true;
      dayAlert.value = null;
      try {
        saveFile(await api.downloadManifestCsv(date));
      } catch (e) {
        if (!ended(e)) dayAlert.value = `The CSV file could not be made: ${sentenceFor(e)}`;
      } finally {
        downloading.value = false;
      }
    },

    /** The element id focus should move to after this render, once. */
    takeFocusRequest(): string | null {
      const id = focusId;
      focusId = null;
      return id;
    },
  };

  /** The zone each slot's time is shown in. */
  const zoneOfExperience = (experienceId: string): string => zones.value?.get(experienceId) ?? day.value.manifest?.timezone ?? 'UTC';

  return {
    router,
    session,
    checking,
    notice,
    signInForm,
    setupForm,
    day,
    saving,
    dayAlert,
    downloading,
    checkInQuestion,
    zoneOf: zoneOfExperience,
    /** The places a booking of the day takes (fewer than its guests when some take none). */
    placesOf: (b: ManifestBooking): number => placesOf(b, placeRule.value),
    /** Every guest of the day's bookings, the rows' guests added up. */
    guests: computed(() => day.value.manifest?.slots.reduce((n, s) => n + s.bookings.reduce((g, b) => g + b.totalParticipants, 0), 0) ?? 0),
    /** The places the day's bookings take, the slots' "booked" added up. */
    places: computed(() => day.value.manifest?.slots.reduce((n, s) => n + s.booked, 0) ?? 0),
    /** Whether the signed-in person may see a screen (staff: Today, Bookings, Calendar, Customers). */
    mayOpen: (screen: Screen): boolean => !OWNERS_ONLY.has(screen) || session.value?.user.role === 'owner',
    bookings,
    customers,
    experiences,
    calendar,
    insights,
    settings,
    waitlist,
    ...actions,
  };
}

export type Model = ReturnType<typeof createModel>;
