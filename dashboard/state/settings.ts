/**
 * The Settings screen's state: one section at a time (organization, keys, webhooks, calendars,
 * team, activity), each loaded when its address opens. The section's own writes live in
 * settings-actions.ts; this file holds what they share: the loaded records, the forms, the one
 * confirmation dialog and the one secret on show.
 */
import {
  Activity,
  ApiKey,
  CalendarFeed,
  CalendarImport,
  Delivery,
  Experience,
  Organization,
  User,
  WebhookEndpoint,
} from '../../shared/index.js';
import type { ListPage, Query } from '../api.js';
import type { GiftVoucher, PromoCode } from '../../shared/index.js';
import type { Location } from '../router.js';
import { batch, signal } from './signals.js';
import { formFailure, idleForm, sentenceFor, type Area, type AreaContext, type FormState } from './context.js';
import { settingsActions, type OrganizationDraft } from './settings-actions.js';

/** The sections in the order the section navigation lists them: [address segment, label]. */
export { SECTIONS } from './settings-types.js';
export type { Section, Revealed, Asking } from './settings-types.js';
import { SECTIONS, promotionReads, type Section, type Revealed, type Asking, type VoucherPanel } from './settings-types.js';

/** Entries of the activity log and of a delivery log per page. */
export const PAGE = 20;
/** The short lists (keys, endpoints, feeds, imports, users) come in one page: an organization has a handful. */
const ALL = { limit: 100 } satisfies Query;


export interface SectionView {
  section: Section | null;
  /** The section and the parts of the query it reads: a new key means new data. */
  key: string;
  loading: boolean;
  error: string | null;
}

const sectionOf = (id: string): Section | null => (id === '' ? 'organization' : (SECTIONS.find(([s]) => s === id)?.[0] ?? null));
const offsetOf = (search: URLSearchParams): number => Math.max(0, Math.floor(Number(search.get('offset')) || 0));

export function createSettingsModel(ctx: AreaContext) {
  const { http } = ctx;
  const view = signal<SectionView>({ section: null, key: '', loading: false, error: null });
  const org = signal<Organization | null>(null);
  /** What the organization form last sent, shown while it is refused (the form's fields are uncontrolled). */
  const orgDraft = signal<OrganizationDraft | null>(null);
  const keys = signal<ApiKey[] | null>(null);
  const endpoints = signal<WebhookEndpoint[] | null>(null);
  /** The delivery log on show, when the address names an endpoint. */
  const deliveries = signal<{ endpointId: string; page: ListPage<Delivery> } | null>(null);
  const feeds = signal<CalendarFeed[] | null>(null);
  const imports = signal<CalendarImport[] | null>(null);
  const experiences = signal<Experience[] | null>(null);
  const users = signal<User[] | null>(null);
  const activity = signal<ListPage<Activity> | null>(null);
  // Promo codes and gift vouchers: their reads and writes load with their screens (promotions.ts).
  const promoCodes = signal<PromoCode[] | null>(null);
  const vouchers = signal<ListPage<GiftVoucher> | null>(null);
  const voucher = signal<VoucherPanel | null>(null);
  /** The voucher just made, its code on show with a Copy button. */
  const made = signal<GiftVoucher | null>(null);

  const forms = signal<Record<string, FormState>>({});
  const revealed = signal<Revealed | null>(null);
  const asking = signal<Asking | null>(null);
  /** Records with an action on its way (a sync, a role change): their buttons say so. */
  const working = signal<ReadonlySet<string>>(new Set());
  /** A row action's refusal, said at the top of the section. */
  const alert = signal<string | null>(null);
  /** A row action's success, said politely. */
  const notice = signal<string | null>(null);

  let generation = 0;

  type Apply = () => void;
  /** Each fetch answers with the write it would make, so a late answer after a move or a sign-out writes nothing. */
  const fetches = {
    org: () => http.get(Organization, '/v1/organization').then((o): Apply => () => (org.value = o)),
    keys: () => http.list(ApiKey, '/v1/api-keys', ALL).then((p): Apply => () => (keys.value = p.data)),
    endpoints: () => http.list(WebhookEndpoint, '/v1/webhook-endpoints', ALL).then((p): Apply => () => (endpoints.value = p.data)),
    deliveries: (endpointId: string, offset: number) =>
      http
        .list(Delivery, `/v1/webhook-endpoints/${encodeURIComponent(endpointId)}/deliveries`, { limit: PAGE, offset })
        .then((page): Apply => () => (deliveries.value = { endpointId, page })),
    feeds: () => http.list(CalendarFeed, '/v1/calendar-feeds', ALL).then((p): Apply => () => (feeds.value = p.data)),
    imports: () => http.list(CalendarImport, '/v1/calendar-imports', ALL).then((p): Apply => () => (imports.value = p.data)),
    experiences: () => http.list(Experience, '/v1/experiences', ALL).then((p): Apply => () => (experiences.value = p.data)),
    users: () => http.list(User, '/v1/users', ALL).then((p): Apply => () => (users.value = p.data)),
    activity: (offset: number) => http.list(Activity, '/v1/activity', { limit: PAGE, offset }).then((p): Apply => () => (activity.value = p)),
  };

  /** What a section needs from the address's query. */
  function needs(section: Section, search: URLSearchParams): { key: string; work: () => Promise<Apply>[] } {
    const offset = offsetOf(search);
    switch (section) {
      case 'organization':
        return { key: section, work: () => [] };
      case 'api-keys':
        return { key: section, work: () => [fetches.keys()] };
      case 'webhooks': {
        const endpoint = search.get('endpoint');
        if (!endpoint) return { key: section, work: () => [fetches.endpoints(), Promise.resolve(() => (deliveries.value = null))] };
        return { key: `${section}:${endpoint}:${offset}`, work: () => [fetches.endpoints(), fetches.deliveries(endpoint, offset)] };
      }
      case 'calendars':
        return { key: section, work: () => [fetches.feeds(), fetches.imports(), fetches.experiences()] };
      case 'team':
        return { key: section, work: () => [fetches.users()] };
      case 'activity':
        return { key: `${section}:${offset}`, work: () => [fetches.activity(offset)] };
      case 'promo-codes':
        return { key: `${section}:${search}`, work: () => [fetches.experiences(), promotionReads.then((p) => p.promoCodesOf(http, search)).then((list): Apply => () => (promoCodes.value = list))] };
      case 'gift-vouchers':
        return {
          key: `${section}:${search}`,
          work: () => [promotionReads.then((p) => p.vouchersOf(http, search)).then((r): Apply => () => ([vouchers.value, voucher.value] = r))],
        };
    }
  }

  /** Fetches together and writes together; false when the answers came too late to be shown. */
  async function refresh(work: Promise<Apply>[]): Promise<boolean> {
    const mine = generation;
    const applies = await Promise.all(work);
    if (mine !== generation) return false;
    batch(() => applies.forEach((apply) => apply()));
    return true;
  }

  async function open(section: Section, search: URLSearchParams): Promise<void> {
    const { key, work } = needs(section, search);
    const shown = view.peek();
    if (shown.key === key && shown.loading) return;
    const mine = ++generation;
    batch(() => {
      // A value shown once goes as soon as the person moves on, even within the section.
      revealed.value = asking.value = alert.value = notice.value = orgDraft.value = made.value = null;
      forms.value = {};
      view.value = { section, key, loading: true, error: null };
    });
    try {
      // The organization names the zone every time on these pages is shown in.
      const all = section === 'organization' || !org.peek() ? [fetches.org(), ...work()] : work();
      await refresh(all);
      if (mine === generation) view.value = { section, key, loading: false, error: null };
    } catch (e) {
      if (ctx.ended(e) || mine !== generation) return;
      view.value = { section, key, loading: false, error: sentenceFor(e) };
    }
  }

  const setForm = (name: string, state: FormState) => (forms.value = { ...forms.peek(), [name]: state });

  /**
   * Runs a form's request: busy while it is on its way, the refusal's words beside the fields it
   * names (focus on the first), or in the form's alert. True when it went through.
   */
  async function submit(name: string, work: () => Promise<void>, fieldPrefix = ''): Promise<boolean> {
    if (forms.peek()[name]?.busy) return false;
    batch(() => {
      setForm(name, { busy: true, error: null, fields: {} });
      notice.value = null;
    });
    try {
      await work();
      setForm(name, idleForm);
      return true;
    } catch (e) {
      if (ctx.ended(e)) return false;
      const failed = formFailure(e);
      const first = Object.keys(failed.fields)[0];
      if (first) ctx.focus(fieldPrefix + first);
      setForm(name, failed);
      return false;
    }
  }

  /** A button on a record's row: `id` busy meanwhile, a refusal said in the section's alert. */
  async function act(id: string, what: string, work: () => Promise<void>): Promise<void> {
    if (working.peek().has(id)) return;
    batch(() => {
      working.value = new Set([...working.peek(), id]);
      alert.value = null;
      notice.value = null;
    });
    let failure: string | null = null;
    try {
      await work();
    } catch (e) {
      if (ctx.ended(e)) return;
      failure = `${what}: ${sentenceFor(e)}`;
    }
    batch(() => {
      const next = new Set(working.peek());
      next.delete(id);
      working.value = next;
      alert.value = failure;
    });
    if (failure) ctx.focus('settings-alert');
  }

  /** Shows a value once and moves focus to it, so the next Tab reaches its Copy button. */
  function reveal(shown: Omit<Revealed, 'section'>): void {
    const section = view.peek().section;
    if (!section) return;
    ctx.focus('revealed-title');
    revealed.value = { ...shown, section };
  }

  const ask = (question: Omit<Asking, 'busy' | 'error'>): void => void (asking.value = { ...question, busy: false, error: null });

  const area = {
    enter(location: Location): void {
      const section = sectionOf(location.id);
      if (!section) {
        generation++;
        view.value = { section: null, key: '', loading: false, error: null };
        return;
      }
      void open(section, location.search);
    },
    reset(): void {
      generation++;
      batch(() => {
        view.value = { section: null, key: '', loading: false, error: null };
        for (const s of [org, orgDraft, keys, endpoints, deliveries, feeds, imports, experiences, users, activity, promoCodes, vouchers, voucher, made, revealed, asking, alert, notice]) {
          s.value = null;
        }
        forms.value = {};
        working.value = new Set();
      });
    },
  } satisfies Area;

  const core = { ctx, org, orgDraft, keys, endpoints, deliveries, feeds, imports, users, fetches, refresh, submit, act, reveal, ask, notice, alert, promoCodes, vouchers, voucher, made, setForm };

  return {
    ...area,
    view,
    org,
    orgDraft,
    keys,
    endpoints,
    deliveries,
    feeds,
    imports,
    experiences,
    users,
    activity,
    promoCodes,
    vouchers,
    voucher,
    made,
    /** What promotions.ts writes with. */
    core,
    revealed,
    asking,
    working,
    alert,
    notice,
    /** A form's state by name; idle until it is first sent. */
    form: (name: string): FormState => forms.value[name] ?? idleForm,
    /** The section again, after a failed load. */
    retry(): void {
      const { section } = view.peek();
      if (section) void open(section, ctx.router.location.peek().search);
    },
    hideRevealed(): void {
      ctx.focus('section-heading');
      revealed.value = null;
    },
    /** The dialog's "yes": runs what it asked about; a refusal stays in the dialog. */
    async confirm(): Promise<void> {
      const a = asking.peek();
      if (!a || a.busy) return;
      asking.value = { ...a, busy: true, error: null };
      try {
        await a.run();
        // Unless the action showed something to focus (a new secret), back to the section's top.
        if (!revealed.peek()) ctx.focus('section-heading');
        asking.value = null;
      } catch (e) {
        if (ctx.ended(e)) return;
        asking.value = { ...a, busy: false, error: sentenceFor(e) };
      }
    },
    closeConfirm(): void {
      const a = asking.peek();
      if (!a || a.busy) return;
      ctx.focus(a.from);
      asking.value = null;
    },
    ...settingsActions(core),
  };
}

export type SettingsModel = ReturnType<typeof createSettingsModel>;
