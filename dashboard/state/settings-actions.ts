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
  type Experience,
  type Role,
  type Activity,
} from '../../shared/index.js';
import { ApiError, type ListPage } from '../api.js';
import { BASE } from '../router.js';
import type { Signal } from './signals.js';
import type { AreaContext, FormState } from './context.js';
import type { Asking, Revealed } from './settings.js';

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
  experiences: Signal<Experience[] | null>;
  users: Signal<User[] | null>;
  activity: Signal<ListPage<Activity> | null>;
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
  setForm(name: string, state: FormState): void;
}

/** The organization form's values as the person typed them. */
export interface OrganizationDraft {
  name: string;
  email: string;
  phone: string;
  timezone: string;
  currency: string;
  onlinePayments: boolean;
}

const path = (...parts: string[]) => `/v1/${parts.map(encodeURIComponent).join('/')}`;
const replaced = <T extends { id: string }>(list: T[] | null, record: T): T[] | null => list && list.map((x) => (x.id === record.id ? record : x));
const ONCE = 'Copy it now: Outing keeps only a fingerprint of it, so it cannot be shown again.';

export function settingsActions(core: SettingsCore) {
  const { ctx, fetches, submit, act, reveal, ask, notice } = core;
  const { http } = ctx;

  /** Reads lists again after a write that went through; a failure here is no failure of the write. */
  const reload = (...work: (() => Promise<Apply>)[]): Promise<boolean> =>
    core.refresh(work.map((w) => w())).catch((e: unknown) => (ctx.ended(e), false));

  return {
    async saveOrganization(draft: OrganizationDraft): Promise<void> {
      const o = core.org.peek();
      if (!o) return;
      const phone = draft.phone.trim() || null;
      const patch = {
        ...(draft.name !== o.name && { name: draft.name }),
        ...(draft.email !== o.email && { email: draft.email.trim() }),
        ...(phone !== o.phone && { phone }),
        ...(draft.timezone !== o.timezone && { timezone: draft.timezone }),
        ...(draft.currency !== o.currency && { currency: draft.currency }),
        ...(draft.onlinePayments !== o.onlinePayments && { onlinePayments: draft.onlinePayments }),
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
            // The one refusal that is about a field without naming it: the currency, once there are bookings.
            if (e instanceof ApiError && e.code === 'CONFLICT' && 'currency' in patch) {
              throw new ApiError(e.status, 'VALIDATION_ERROR', e.message, [{ path: 'currency', message: e.message }]);
            }
            throw e;
          }
        },
        'org-',
      );
      if (saved) {
        core.orgDraft.value = null;
        notice.value = 'The organization is saved.';
      }
    },

    createKey(name: string, type: string, scopes: string[]): Promise<boolean> {
      return submit(
        'key',
        async () => {
          // Publishable keys take no scopes; a secret key without any holds them all.
          const body = type === 'publishable' ? { name, type } : { name, type, ...(scopes.length ? { scopes } : {}) };
          const made = await http.send(ApiKeyWithSecret, 'POST', '/v1/api-keys', body);
          await reload(fetches.keys);
          reveal({
            title: `Your new key “${made.name}”`,
            label: made.type === 'secret' ? 'Secret key' : 'Publishable key',
            value: made.key,
            text: `${made.type === 'secret' ? 'Keep it as secret as a password. ' : ''}${ONCE}`,
          });
        },
        'key-',
      );
    },

    revokeKey(k: ApiKey): void {
      ask({
        title: `Revoke the key “${k.name}”?`,
        confirmLabel: 'Revoke key',
        text: 'Every request made with it is refused from now on. This cannot be undone.',
        from: `revoke-${k.id}`,
        run: async () => {
          await http.send(ApiKeyRevoked, 'DELETE', path('api-keys', k.id));
          await reload(fetches.keys);
          notice.value = `The key “${k.name}” is revoked.`;
        },
      });
    },

    createEndpoint(url: string, events: string[], description: string): Promise<boolean> {
      return submit(
        'endpoint',
        async () => {
          const body = { url: url.trim(), ...(events.length ? { events } : {}), ...(description.trim() ? { description: description.trim() } : {}) };
          const made = await http.send(WebhookEndpointWithSecret, 'POST', '/v1/webhook-endpoints', body);
          await reload(fetches.endpoints);
          reveal({
            title: `Signing secret of ${made.url}`,
            label: 'Signing secret',
            value: made.secret,
            text: `Your receiver checks each delivery’s signature with it (Standard Webhooks). ${ONCE}`,
          });
        },
        'endpoint-',
      );
    },

    setEndpointEnabled(e: WebhookEndpoint, enabled: boolean): Promise<void> {
      return act(e.id, `${e.url} could not be ${enabled ? 'enabled' : 'disabled'}`, async () => {
        const saved = await http.send(WebhookEndpoint, 'PATCH', path('webhook-endpoints', e.id), { enabled });
        core.endpoints.value = replaced(core.endpoints.peek(), saved);
        notice.value = `${saved.url} is ${enabled ? 'enabled: new events are sent to it' : 'disabled: no events are sent to it'}.`;
      });
    },

    rotateSecret(e: WebhookEndpoint): void {
      ask({
        title: `Rotate the signing secret of ${e.url}?`,
        confirmLabel: 'Rotate secret',
        text: 'Outing makes a new secret. For 24 hours each delivery carries two signatures, by the new and the old secret, so your receiver can switch over in that time.',
        from: `rotate-${e.id}`,
        run: async () => {
          const { secret } = await http.send(RotatedSecret, 'POST', path('webhook-endpoints', e.id, 'rotate-secret'));
          reveal({ title: `New signing secret of ${e.url}`, label: 'Signing secret', value: secret, text: ONCE });
        },
      });
    },

    deleteEndpoint(e: WebhookEndpoint): void {
      ask({
        title: `Delete the endpoint ${e.url}?`,
        confirmLabel: 'Delete endpoint',
        text: 'Outing stops sending events to it, and its delivery log is deleted with it.',
        from: `delete-${e.id}`,
        run: async () => {
          await http.send(Deleted, 'DELETE', path('webhook-endpoints', e.id));
          notice.value = `The endpoint ${e.url} is deleted.`;
          if (core.deliveries.peek()?.endpointId === e.id) ctx.router.go(`${BASE}/settings/webhooks`);
          else await reload(fetches.endpoints);
        },
      });
    },

    retryDelivery(endpointId: string, d: Delivery): Promise<void> {
      return act(d.id, 'The delivery could not be sent again', async () => {
        const saved = await http.send(Delivery, 'POST', path('webhook-endpoints', endpointId, 'deliveries', d.id, 'retry'));
        const shown = core.deliveries.peek();
        if (shown) core.deliveries.value = { ...shown, page: { ...shown.page, data: replaced(shown.page.data, saved)! } };
        notice.value = 'Sent again. Refresh the log in a moment to see how it went.';
      });
    },

    refreshDeliveries(): Promise<void> {
      const shown = core.deliveries.peek();
      if (!shown) return Promise.resolve();
      return act('deliveries', 'The delivery log could not be read', async () => {
        await core.refresh([fetches.deliveries(shown.endpointId, shown.page.pagination.offset)]);
      });
    },

    createFeed(name: string, experienceId: string): Promise<boolean> {
      return submit(
        'feed',
        async () => {
          const made = await http.send(CalendarFeedWithToken, 'POST', '/v1/calendar-feeds', { name, ...(experienceId ? { experienceId } : {}) });
          await reload(fetches.feeds);
          reveal({
            title: `Address of the feed “${made.name}”`,
            label: 'Feed address',
            value: made.url,
            text: `Subscribe to it in Google, Apple or Outlook calendars. ${ONCE}`,
          });
        },
        'feed-',
      );
    },

    deleteFeed(f: CalendarFeed): void {
      ask({
        title: `Delete the feed “${f.name}”?`,
        confirmLabel: 'Delete feed',
        text: 'Calendars subscribed to it get no more bookings: its address answers “not found” from now on.',
        from: `delete-${f.id}`,
        run: async () => {
          await http.send(Deleted, 'DELETE', path('calendar-feeds', f.id));
          await reload(fetches.feeds);
          notice.value = `The feed “${f.name}” is deleted.`;
        },
      });
    },

    createImport(name: string, url: string, experienceId: string): Promise<boolean> {
      return submit(
        'import',
        async () => {
          const made = await http.send(CalendarImport, 'POST', '/v1/calendar-imports', { name, url: url.trim(), ...(experienceId ? { experienceId } : {}) });
          await reload(fetches.imports);
          notice.value = made.lastError
            ? `“${made.name}” is added, but its first fetch failed: ${made.lastError}`
            : `“${made.name}” is added: ${made.eventCount} events read.`;
        },
        'import-',
      );
    },

    syncImport(i: CalendarImport): Promise<void> {
      return act(i.id, `“${i.name}” could not be synced`, async () => {
        const synced = await http.send(CalendarImport, 'POST', path('calendar-imports', i.id, 'sync'));
        core.imports.value = replaced(core.imports.peek(), synced);
        notice.value = synced.lastError ? `“${i.name}” could not be read: ${synced.lastError}` : `“${i.name}” is synced: ${synced.eventCount} events.`;
      });
    },

    deleteImport(i: CalendarImport): void {
      ask({
        title: `Delete the import “${i.name}”?`,
        confirmLabel: 'Delete import',
        text: 'Its events stop blocking your time slots.',
        from: `delete-${i.id}`,
        run: async () => {
          await http.send(Deleted, 'DELETE', path('calendar-imports', i.id));
          await reload(fetches.imports);
          notice.value = `The import “${i.name}” is deleted.`;
        },
      });
    },

    inviteUser(name: string, email: string, role: string): Promise<boolean> {
      return submit(
        'invite',
        async () => {
          const made = await http.send(UserWithSetupUrl, 'POST', '/v1/users', { name, email: email.trim(), role });
          await reload(fetches.users);
          reveal({
            title: `Setup link for ${made.name}`,
            label: 'Setup link',
            value: made.setupUrl,
            text: `Send it to ${made.email}: it lets them choose a password, works once and expires in 72 hours. It will not be shown again.`,
          });
        },
        'invite-',
      );
    },

    setRole(u: User, role: Role): Promise<void> {
      return act(u.id, `${u.name} could not become ${role}`, async () => {
        core.users.value = replaced(core.users.peek(), await http.send(User, 'PATCH', path('users', u.id), { role }));
        notice.value = `${u.name} is now ${role === 'owner' ? 'an owner' : 'staff'}.`;
      });
    },

    setUserDisabled(u: User, disabled: boolean): Promise<void> {
      return act(u.id, `${u.name} could not be ${disabled ? 'disabled' : 'enabled'}`, async () => {
        core.users.value = replaced(core.users.peek(), await http.send(User, 'PATCH', path('users', u.id), { disabled }));
        notice.value = disabled ? `${u.name} is disabled and signed out.` : `${u.name} can sign in again.`;
      });
    },

    deleteUser(u: User): void {
      ask({
        title: `Remove ${u.name} from the team?`,
        confirmLabel: 'Remove user',
        text: 'They are signed out at once and can no longer sign in. What they did stays in the activity log.',
        from: `delete-${u.id}`,
        run: async () => {
          await http.send(Deleted, 'DELETE', path('users', u.id));
          await reload(fetches.users);
          notice.value = `${u.name} is removed.`;
        },
      });
    },
  };
}
