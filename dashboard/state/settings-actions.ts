/**
 * What the Settings sections change: the organization, keys, webhook endpoints, calendars and the
 * team. Each write answers with the record, which replaces the shown one, or the list is read
 * again; values Outing shows only once go to `reveal`.
 */
import {
  ApiKeyRevoked,
  ApiKeyWithSecret,
  CalendarFeedWithToken,
  CalendarImport,
  Deleted,
  Delivery,
  Organization,
  RotatedSecret,
  User,
  UserWithSetupUrl,
  WebhookEndpoint,
  WebhookEndpointWithSecret,
  type ApiKey,
  type CalendarFeed,
  type NoticeEvent,
  type Role,
} from '../../shared/index.js';
import { ApiError, type ListPage } from '../api.js';
import type { Signal } from './signals.js';
import type { AreaContext } from './context.js';
import type { Asking, Revealed } from './settings-types.js';
import { OCTO_SCOPE, RESELLER, isResellerKey, octoEndpoint } from './octo.js';
import type { z } from 'zod';

type Apply = () => void;

/** The shared state and helpers of settings.ts that the actions write with. */
export interface SettingsCore {
  ctx: AreaContext;
  org: Signal<Organization | null>;
  orgDraft: Signal<OrganizationDraft | null>;
  keys: Signal<ApiKey[] | null>;
  endpoints: Signal<WebhookEndpoint[] | null>;
  deliveries: Signal<{ endpointId: string; page: ListPage<Delivery> } | null>;
  feeds: Signal<CalendarFeed[] | null>;
  imports: Signal<CalendarImport[] | null>;
  users: Signal<User[] | null>;
  notice: Signal<string | null>;
  fetches: {
    keys(): Promise<Apply>;
    endpoints(): Promise<Apply>;
    deliveries(endpointId: string, offset: number): Promise<Apply>;
    feeds(): Promise<Apply>;
    imports(): Promise<Apply>;
    users(): Promise<Apply>;
  };
  refresh(work: Promise<Apply>[]): Promise<boolean>;
  submit(name: string, work: () => Promise<void>, fieldPrefix?: string): Promise<boolean>;
  act(id: string, what: string, work: () => Promise<void>): Promise<void>;
  reveal(shown: Omit<Revealed, 'section'>): void;
  ask(question: Omit<Asking, 'busy' | 'error'>): void;
}

/** The organization form's values as the person typed them. */
export interface OrganizationDraft {
  name: string;
  email: string;
  phone: string;
  timezone: string;
  currency: string;
  onlinePayments: boolean;
  /** As typed: a whole number of hours is sent as a number, anything else as typed for the server to refuse. */
  cancellationCutoffHours: string;
  guestSelfService: boolean;
  /** As typed, as the cutoff: minutes an offer to a waitlisted guest holds its places. */
  waitlistOfferMinutes: string;
  /** The notice addresses as typed, one per line (commas too). */
  notificationEmails: string;
  notifyOn: NoticeEvent[];
  brandColor: string;
  logoUrl: string;
  /** One of the seven codes: the language of guests' e-mails when a booking names none. */
  defaultLocale: string;
}

/** Addresses typed one per line or separated by commas, blanks dropped. */
const addressesIn = (typed: string): string[] => typed.split(/[\n,;]+/).map((a) => a.trim()).filter(Boolean);
const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

/**
 * A refusal naming one entry of a list (`notificationEmails[2]`) said beside the list's field, with
 * the entry it is about.
 */
function listFieldsNamed(e: unknown, lists: Record<string, (index: number) => string>): unknown {
  if (!(e instanceof ApiError) || e.code !== 'VALIDATION_ERROR') return e;
  const details = e.details.map((d) => {
    const match = /^(\w+)\[(\d+)\]/.exec(d.path);
    const entry = match && lists[match[1]!];
    return entry ? { path: match[1]!, message: `${entry(Number(match[2]))}: ${d.message}` } : d;
  });
  return new ApiError(e.status, e.code, e.message, details);
}

const path = (...parts: string[]) => `/v1/${parts.map(encodeURIComponent).join('/')}`;
const replaced = <T extends { id: string }>(list: T[] | null, record: T): T[] | null => list && list.map((x) => (x.id === record.id ? record : x));
const ONCE = 'Copy it now: Outing keeps only a fingerprint of it and cannot show it again.';

export function settingsActions(core: SettingsCore) {
  const { ctx, fetches, submit, act, reveal, ask, notice } = core;
  const { http } = ctx;

  /** Reads lists again after a write that went through; a failure here is no failure of the write. */
  const reload = (...work: (() => Promise<Apply>)[]): Promise<boolean> =>
    core.refresh(work.map((w) => w())).catch((e: unknown) => (ctx.ended(e), false));

  /** Asks, then deletes (or revokes) a record and reads its list again. */
  const remove = (verb: string, noun: string, title: string, text: string, id: string, url: string, list: () => Promise<Apply>, schema: z.ZodType = Deleted): void =>
    ask({
      title: `${verb} the ${noun} ${title}?`,
      confirmLabel: `${verb} ${noun}`,
      text,
      from: `${verb.toLowerCase()}-${id}`,
      run: async () => {
        await http.send(schema, 'DELETE', url);
        await reload(list);
        notice.value = `The ${noun} ${title} is ${verb.toLowerCase()}d.`;
      },
    });

  /**
   * A create form: the record, the list read again, and what Outing shows only once. `besides` names
   * the field a refusal of a given code is about, so it is said next to that field.
   */
  const create = <S extends z.ZodType>(
    form: string,
    schema: S,
    url: string,
    body: object,
    list: () => Promise<Apply>,
    shown: (made: z.infer<S>) => Omit<Revealed, 'section'> | null,
    besides: Record<string, string> = {},
  ) =>
    submit(
      form,
      async () => {
        const made = await http.send(schema, 'POST', url, body).catch((e: unknown) => {
          const field = e instanceof ApiError ? besides[e.code] : undefined;
          throw field && e instanceof ApiError ? new ApiError(e.status, 'VALIDATION_ERROR', e.message, [{ path: field, message: e.message }]) : e;
        });
        await reload(list);
        const r = shown(made);
        if (r) reveal(r);
      },
      `${form}-`,
    );

  const quote = (name: string) => `“${name}”`;

  return {
    async saveOrganization(draft: OrganizationDraft): Promise<void> {
      const o = core.org.peek();
      if (!o) return;
      const phone = draft.phone.trim() || null;
      const typed = draft.cancellationCutoffHours.trim();
      const cutoff = /^\d{1,4}$/.test(typed) ? Number(typed) : typed;
      const offerTyped = draft.waitlistOfferMinutes.trim();
      const offerMinutes = /^\d{1,6}$/.test(offerTyped) ? Number(offerTyped) : offerTyped;
      const emails = addressesIn(draft.notificationEmails);
      const brandColor = draft.brandColor.trim() === '' ? null : draft.brandColor.trim().toLowerCase();
      const logoUrl = draft.logoUrl.trim() || null;
      const patch = {
        ...(draft.name !== o.name && { name: draft.name }),
        ...(draft.email !== o.email && { email: draft.email.trim() }),
        ...(phone !== o.phone && { phone }),
        ...(draft.timezone !== o.timezone && { timezone: draft.timezone }),
        ...(draft.currency !== o.currency && { currency: draft.currency }),
        ...(draft.onlinePayments !== o.onlinePayments && { onlinePayments: draft.onlinePayments }),
        ...(cutoff !== o.cancellationCutoffHours && { cancellationCutoffHours: cutoff }),
        ...(draft.guestSelfService !== o.guestSelfService && { guestSelfService: draft.guestSelfService }),
        ...(offerMinutes !== o.waitlistOfferMinutes && { waitlistOfferMinutes: offerMinutes }),
        ...(!sameList(emails, o.notificationEmails) && { notificationEmails: emails }),
        ...(!sameList(draft.notifyOn, o.notifyOn) && { notifyOn: draft.notifyOn }),
        ...(brandColor !== o.brandColor && { brandColor }),
        ...(logoUrl !== o.logoUrl && { logoUrl }),
        ...(draft.defaultLocale !== o.defaultLocale && { defaultLocale: draft.defaultLocale }),
      };
      if (!Object.keys(patch).length) {
        notice.value = 'Nothing to save: no field has changed.';
        return;
      }
      core.orgDraft.value = draft;
      const saved = await submit(
        'organization',
        async () => {
          try {
            core.org.value = await http.send(Organization, 'PATCH', '/v1/organization', patch);
          } catch (e) {
            // The one refusal about a field that names none: the currency, once there are bookings.
            if (e instanceof ApiError && e.code === 'CONFLICT' && 'currency' in patch) {
              throw new ApiError(e.status, 'VALIDATION_ERROR', e.message, [{ path: 'currency', message: e.message }]);
            }
            throw listFieldsNamed(e, { notificationEmails: (i) => emails[i] ?? `Address ${i + 1}`, notifyOn: () => 'Notices' });
          }
        },
        'org-',
      );
      if (saved) {
        core.orgDraft.value = null;
        notice.value = 'The organization is saved.';
        // The header names the organization from the session.
        if ('name' in patch) void core.ctx.refreshSession();
      }
    },

    /**
     * A new key. A secret one is shown once, here; a publishable one stays listed whole on its card,
     * where focus goes so that the next key press can copy it.
     */
    async createKey(name: string, type: string, scopes: string[]): Promise<boolean> {
      const made: { key: ApiKey | null } = { key: null };
      // Publishable keys take no scopes; a secret key without any holds them all; a reseller's
      // key is a secret key that may use the OCTO API and nothing else.
      const body =
        type === 'publishable' ? { name, type } : type === RESELLER ? { name, type: 'secret', scopes: [OCTO_SCOPE] } : { name, type, ...(scopes.length ? { scopes } : {}) };
      const ok = await create('key', ApiKeyWithSecret, '/v1/api-keys', body, fetches.keys, (k) => {
        made.key = k;
        if (k.type !== 'secret') return null;
        if (isResellerKey(k)) {
          return {
            title: `Your new reseller key ${quote(k.name)}`,
            label: 'Secret key',
            value: k.key,
            text: ONCE,
            beside: {
              label: 'OCTO endpoint',
              value: octoEndpoint(),
              hint: 'Send the reseller both: the endpoint, and the key by a private channel. Their system sends the key as “Authorization: Bearer …” on every request.',
            },
          };
        }
        return { title: `Your new key ${quote(k.name)}`, label: 'Secret key', value: k.key, text: ONCE };
      });
      const { key } = made;
      if (ok && key?.type === 'publishable') {
        // Before the write: the write renders at once, and the render takes the request.
        ctx.focus(`key-value-${key.id}`);
        notice.value = `The publishable key ${quote(key.name)} is made. It stays listed here in full, to copy whenever a page needs it.`;
      }
      return ok;
    },

    revokeKey: (k: ApiKey): void =>
      remove('Revoke', 'key', quote(k.name), 'Requests made with it are refused from now on. This cannot be undone.', k.id, path('api-keys', k.id), fetches.keys, ApiKeyRevoked),

    createEndpoint: (url: string, events: string[], description: string): Promise<boolean> =>
      create(
        'endpoint',
        WebhookEndpointWithSecret,
        '/v1/webhook-endpoints',
        { url: url.trim(), ...(events.length ? { events } : {}), ...(description.trim() ? { description: description.trim() } : {}) },
        fetches.endpoints,
        (e) => ({ title: `Signing secret of ${e.url}`, label: 'Signing secret', value: e.secret, text: `Your receiver checks signatures with it. ${ONCE}` }),
      ),

    setEndpointEnabled: (e: WebhookEndpoint, enabled: boolean): Promise<void> =>
      act(e.id, `${e.url} could not change`, async () => {
        core.endpoints.value = replaced(core.endpoints.peek(), await http.send(WebhookEndpoint, 'PATCH', path('webhook-endpoints', e.id), { enabled }));
        notice.value = `${e.url} is ${enabled ? 'enabled' : 'disabled'}.`;
      }),

    rotateSecret: (e: WebhookEndpoint): void =>
      ask({
        title: `Rotate the signing secret of ${e.url}?`,
        confirmLabel: 'Rotate secret',
        text: 'For 24 hours deliveries carry signatures by the old and the new secret, so your receiver can switch over.',
        from: `rotate-${e.id}`,
        run: async () => {
          const { secret } = await http.send(RotatedSecret, 'POST', path('webhook-endpoints', e.id, 'rotate-secret'));
          reveal({ title: `New signing secret of ${e.url}`, label: 'Signing secret', value: secret, text: ONCE });
        },
      }),

    deleteEndpoint: (e: WebhookEndpoint): void =>
      remove('Delete', 'endpoint', e.url, 'No more events are sent to it, and its delivery log goes with it.', e.id, path('webhook-endpoints', e.id), fetches.endpoints),

    retryDelivery: (endpointId: string, d: Delivery): Promise<void> =>
      act(d.id, 'The delivery could not be sent again', async () => {
        const saved = await http.send(Delivery, 'POST', path('webhook-endpoints', endpointId, 'deliveries', d.id, 'retry'));
        const shown = core.deliveries.peek();
        if (shown) core.deliveries.value = { ...shown, page: { ...shown.page, data: replaced(shown.page.data, saved)! } };
        notice.value = 'Sent again: refresh the log in a moment to see how it went.';
      }),

    refreshDeliveries(): Promise<void> {
      const shown = core.deliveries.peek();
      return shown
        ? act('deliveries', 'The delivery log could not be read', async () => void (await core.refresh([fetches.deliveries(shown.endpointId, shown.page.pagination.offset)])))
        : Promise.resolve();
    },

    createFeed: (name: string, experienceId: string): Promise<boolean> =>
      create('feed', CalendarFeedWithToken, '/v1/calendar-feeds', { name, ...(experienceId ? { experienceId } : {}) }, fetches.feeds, (f) => ({
        title: `Address of the feed ${quote(f.name)}`,
        label: 'Feed address',
        value: f.url,
        text: `Subscribe to it in your calendar app. ${ONCE}`,
      })),

    deleteFeed: (f: CalendarFeed): void =>
      remove('Delete', 'feed', quote(f.name), 'Its address stops working: calendars subscribed to it get no more bookings.', f.id, path('calendar-feeds', f.id), fetches.feeds),

    // The import's first fetch has happened when it answers: its card shows how that went.
    createImport: (name: string, url: string, experienceId: string): Promise<boolean> =>
      create('import', CalendarImport, '/v1/calendar-imports', { name, url: url.trim(), ...(experienceId ? { experienceId } : {}) }, fetches.imports, () => null),

    syncImport: (i: CalendarImport): Promise<void> =>
      act(i.id, `${quote(i.name)} could not be synced`, async () => {
        core.imports.value = replaced(core.imports.peek(), await http.send(CalendarImport, 'POST', path('calendar-imports', i.id, 'sync')));
        notice.value = `${quote(i.name)} is synced.`;
      }),

    deleteImport: (i: CalendarImport): void =>
      remove('Delete', 'import', quote(i.name), 'Its events stop blocking your time slots.', i.id, path('calendar-imports', i.id), fetches.imports),

    // A taken address is said next to Email, a role the signed-in person may not give next to Role.
    inviteUser: (name: string, email: string, role: string): Promise<boolean> =>
      create(
        'invite',
        UserWithSetupUrl,
        '/v1/users',
        { name, email: email.trim(), role },
        fetches.users,
        (u) => ({
          title: `Setup link for ${u.name}`,
          label: 'Setup link',
          value: u.setupUrl,
          text: `Send it to ${u.email}: it sets their password, works once and expires in 72 hours. It is shown only now.`,
        }),
        { CONFLICT: 'email', FORBIDDEN: 'role' },
      ),

    /** A role, or disabled, changed on the user's card. */
    changeUser: (u: User, change: { role: Role } | { disabled: boolean }): Promise<void> =>
      act(u.id, `${u.name} could not be changed`, async () => {
        core.users.value = replaced(core.users.peek(), await http.send(User, 'PATCH', path('users', u.id), change));
        notice.value = `${u.name} is saved.`;
        // One's own role changed: the dashboard shows what the new role allows.
        if (u.id === core.ctx.session.peek()?.user.id) void core.ctx.refreshSession();
      }),

    deleteUser: (u: User): void =>
      remove('Delete', 'user', u.name, 'They are signed out at once and can no longer sign in.', u.id, path('users', u.id), fetches.users),
  };
}
