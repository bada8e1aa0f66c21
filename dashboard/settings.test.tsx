import { fireEvent, screen, waitFor, within } from '@testing-library/preact';
import { describe, expect, it } from 'vitest';
import { ApiError, type Http, type Query } from './api.js';
import { mountAt, useDashboardTests } from './test-helpers/dashboard-under-test.js';
import { session } from './test-helpers/fake-api.js';
import type { Locale, NoticeEvent } from '../shared/index.js';

useDashboardTests();

const at = '2026-11-20T10:00:00.000Z';

/**
 * The Settings routes in memory: a Lisbon organization, two keys, one endpoint with deliveries,
 * one owner. `refuse` makes the next call to `METHOD /path` fail; `hold` keeps answers waiting.
 */
function settingsHttp() {
  const calls: { method: string; path: string; body?: unknown }[] = [];
  const refuse = new Map<string, ApiError>();
  let gate: Promise<void> = Promise.resolve();
  let release = () => {};
  const db = {
    org: { id: 'org_1', name: 'Lisbon Walks', email: 'hello@lisbonwalks.example', phone: null as string | null, timezone: 'Europe/Lisbon', currency: 'EUR', onlinePayments: false, cancellationCutoffHours: 24, guestSelfService: true, waitlistOfferMinutes: 720, notificationEmails: [] as string[], notifyOn: ['BOOKING_CREATED', 'BOOKING_CANCELED'] as NoticeEvent[], brandColor: null as string | null, logoUrl: null as string | null, defaultLocale: 'en' as Locale, createdAt: at, updatedAt: at },
    keys: [
      { id: 'key_live', name: 'Website sync', type: 'secret', scopes: ['*'], prefix: 'osk_abc', key: null as string | null, createdAt: at, lastUsedAt: null, revokedAt: null as string | null },
      { id: 'key_pub', name: 'Widget', type: 'publishable', scopes: ['*'], prefix: 'opk_def', key: 'opk_defWholeValue123' as string | null, createdAt: at, lastUsedAt: at, revokedAt: null as string | null },
      // Made before version 1.2: only its hash was kept.
      { id: 'key_old', name: 'Old site', type: 'publishable', scopes: ['*'], prefix: 'opk_ghi', key: null as string | null, createdAt: at, lastUsedAt: null, revokedAt: null as string | null },
    ],
    endpoints: [{ id: 'whe_1', url: 'https://hooks.example.com/outing', events: ['BOOKING_CREATED'], description: null, enabled: true, disabledReason: null, createdAt: at }],
    deliveries: [
      { id: 'dlv_1', eventId: 'evt_1', event: 'BOOKING_CREATED', status: 'FAILED', attempts: 3, lastStatusCode: 500, lastError: 'HTTP 500', nextAttemptAt: null, createdAt: at, deliveredAt: null },
    ],
    users: [{ ...session.user }],
    activity: Array.from({ length: 25 }, (_, i) => ({
      id: `act_${i}`,
      actor: { type: 'user', id: 'usr_1', name: 'Marta Reis' },
      action: 'booking.create',
      targetType: 'booking',
      targetId: `bk_${i}`,
      summary: `Booking number ${i}`,
      ip: null,
      createdAt: at,
    })),
  };

  function answer(method: string, path: string, body?: unknown): unknown {
    const b = (body ?? {}) as Record<string, unknown>;
    const route = `${method} ${path}`;
    if (route === 'GET /v1/organization') return db.org;
    if (route === 'PATCH /v1/organization') return (db.org = { ...db.org, ...b });
    if (route === 'GET /v1/api-keys') return db.keys;
    if (route === 'POST /v1/api-keys') {
      const secret = b['type'] === 'secret';
      const value = secret ? 'osk_new_full_value_0123456789' : 'opk_new_full_value_0123456789';
      const made = { id: 'key_new', name: String(b['name']), type: String(b['type']), scopes: (b['scopes'] as string[]) ?? ['*'], prefix: value.slice(0, 12), key: secret ? null : value, createdAt: at, lastUsedAt: null, revokedAt: null };
      db.keys.push(made);
      return { ...made, key: value };
    }
    const revoke = /^DELETE \/v1\/api-keys\/(.+)$/.exec(route);
    if (revoke) {
      const k = db.keys.find((x) => x.id === revoke[1])!;
      k.revokedAt = at;
      return { id: k.id, revokedAt: at };
    }
    if (route === 'GET /v1/webhook-endpoints') return db.endpoints;
    if (route === 'POST /v1/webhook-endpoints') {
      const made = { id: 'whe_2', url: String(b['url']), events: ['BOOKING_CREATED'], description: null, enabled: true, disabledReason: null, createdAt: at };
      db.endpoints.push(made);
      return { ...made, secret: 'whsec_c2VjcmV0' };
    }
    if (route === 'GET /v1/webhook-endpoints/whe_1/deliveries') return db.deliveries;
    if (route === 'POST /v1/webhook-endpoints/whe_1/deliveries/dlv_1/retry') return { ...db.deliveries[0], status: 'PENDING', nextAttemptAt: at };
    if (route === 'GET /v1/users') return db.users;
    if (route.startsWith('PATCH /v1/users/')) return { ...db.users[0], ...b };
    if (route === 'GET /v1/activity') return db.activity;
    throw new ApiError(404, 'NOT_FOUND', `Not faked: ${route}`);
  }

  async function handle(method: string, path: string, body?: unknown): Promise<unknown> {
    calls.push({ method, path, body });
    await gate;
    await Promise.resolve();
    const failure = refuse.get(`${method} ${path}`);
    if (failure) {
      refuse.delete(`${method} ${path}`);
      throw failure;
    }
    return structuredClone(answer(method, path, body));
  }

  const http: Http = {
    get: (_schema, path) => handle('GET', path) as never,
    async list(_schema, path, query: Query = {}) {
      const all = (await handle('GET', path)) as unknown[];
      const limit = Number(query['limit'] ?? 20);
      const offset = Number(query['offset'] ?? 0);
      return { data: all.slice(offset, offset + limit), pagination: { total: all.length, limit, offset, hasMore: offset + limit < all.length } } as never;
    },
    send: (_schema, method, path, body) => handle(method, path, body) as never,
    download: () => Promise.reject(new ApiError(404, 'NOT_FOUND', 'no files here')),
  };
  return {
    http,
    calls,
    refuse,
    db,
    /** Answers wait until `release()`. */
    hold() {
      gate = new Promise((r) => (release = r));
    },
    release: () => release(),
  };
}

const open = async (path: string, section: string) => {
  const fake = settingsHttp();
  const t = mountAt(path, { signedIn: true, http: fake.http });
  await screen.findByRole('heading', { level: 2, name: section });
  // The section's own status line (a key's Copy field has a status of its own).
  await waitFor(() => expect(document.querySelector('.settings .status-line')!.textContent).not.toContain('Loading'));
  return { ...t, fake };
};

const cardOf = (name: string) => screen.getByRole('heading', { name }).closest('li')!;

describe('the Settings screen', () => {
  it('opens on Organization, names the section in the title and marks it in its own navigation', async () => {
    await open('/dashboard/settings', 'Organization');
    const sections = screen.getByRole('navigation', { name: 'Settings sections' });
    expect(within(sections).getAllByRole('link').map((a) => a.textContent)).toEqual(['Organization', 'API keys', 'Webhooks', 'Calendars', 'Team', 'Promo codes', 'Gift vouchers', 'Activity']);
    expect(within(sections).getByRole('link', { name: 'Organization' }).getAttribute('aria-current')).toBe('page');
    expect(document.title).toBe('Organization · Settings · Outing');
    expect((screen.getByLabelText('Name') as HTMLInputElement).value).toBe('Lisbon Walks');
    // Which zone is selected is checked in Chromium (e2e): happy-dom misplaces an option's `selected`.
    expect(within(screen.getByLabelText('Time zone')).getByRole('option', { name: 'Europe/Lisbon' })).toBeTruthy();

    fireEvent.click(within(sections).getByRole('link', { name: 'API keys' }));
    await screen.findByRole('heading', { level: 2, name: 'API keys' });
    expect(location.pathname).toBe('/dashboard/settings/api-keys');
    expect(document.title).toBe('API keys · Settings · Outing');
  });

  it('says so for an address that names no section', async () => {
    mountAt('/dashboard/settings/nothing-here', { signedIn: true, http: settingsHttp().http });
    await screen.findByText(/no such section of Settings/);
  });

  it('saves only changed fields, is busy meanwhile, and shows a refusal next to its field with what was typed', async () => {
    const { fake } = await open('/dashboard/settings', 'Organization');
    fireEvent.input(screen.getByLabelText('Email'), { target: { value: 'not-an-address' } });
    fake.refuse.set('PATCH /v1/organization', new ApiError(400, 'VALIDATION_ERROR', 'Invalid body', [{ path: 'email', message: 'Expected an e-mail address' }]));
    fake.hold();
    fireEvent.submit(screen.getByRole('button', { name: 'Save changes' }).closest('form')!);
    await screen.findByRole('button', { name: 'Saving…' });
    expect(screen.getByRole('button', { name: 'Saving…' }).getAttribute('aria-disabled')).toBe('true');
    fake.release();
    await screen.findByText('Expected an e-mail address.');
    const email = screen.getByLabelText('Email') as HTMLInputElement;
    expect(email.getAttribute('aria-invalid')).toBe('true');
    expect(email.getAttribute('aria-describedby')).toContain('org-email-error');
    expect(email.value).toBe('not-an-address');
    expect(document.activeElement).toBe(email);
    expect(fake.calls.at(-1)).toMatchObject({ method: 'PATCH', body: { email: 'not-an-address' } });

    fireEvent.input(email, { target: { value: 'team@lisbonwalks.example' } });
    fireEvent.submit(email.closest('form')!);
    await screen.findByText('The organization is saved.');
    expect(fake.db.org.email).toBe('team@lisbonwalks.example');
    expect(screen.queryByText('Expected an e-mail address.')).toBeNull();
  });

  it('sets what guests may do on their own: self-service and the cancellation cutoff', async () => {
    const { fake } = await open('/dashboard/settings', 'Organization');
    const cutoff = screen.getByLabelText('Cancellation cutoff') as HTMLInputElement;
    expect(cutoff.value).toBe('24');
    const selfService = screen.getByLabelText('Guests may cancel or change their bookings themselves') as HTMLInputElement;
    expect(selfService.checked).toBe(true);
    fireEvent.input(cutoff, { target: { value: '48' } });
    fireEvent.click(selfService);
    fireEvent.submit(cutoff.closest('form')!);
    await screen.findByText('The organization is saved.');
    expect(fake.calls.at(-1)).toMatchObject({ method: 'PATCH', body: { cancellationCutoffHours: 48, guestSelfService: false } });
  });

  it('sets the default language from the seven, each named in its own language', async () => {
    const { fake } = await open('/dashboard/settings', 'Organization');
    const language = screen.getByLabelText('Default language') as HTMLSelectElement;
    expect(language.value).toBe('en');
    expect([...language.options].map((o) => [o.value, o.textContent])).toEqual([
      ['en', 'English'], ['pt', 'Português'], ['es', 'Español'], ['fr', 'Français'], ['de', 'Deutsch'], ['it', 'Italiano'], ['nl', 'Nederlands'],
    ]);
    fireEvent.change(language, { target: { value: 'de' } });
    fireEvent.submit(language.closest('form')!);
    await screen.findByText('The organization is saved.');
    expect(fake.calls.at(-1)).toMatchObject({ method: 'PATCH', path: '/v1/organization', body: { defaultLocale: 'de' } });
    expect(fake.db.org.defaultLocale).toBe('de');
    expect((screen.getByLabelText('Default language') as HTMLSelectElement).value).toBe('de');
  });

  it('sets how long a waitlist offer holds its places, and says beside the field when it is refused', async () => {
    const { fake } = await open('/dashboard/settings', 'Organization');
    const minutes = screen.getByLabelText('Waitlist offer (minutes)') as HTMLInputElement;
    expect(minutes.value).toBe('720');
    fireEvent.input(minutes, { target: { value: '0' } });
    fake.refuse.set('PATCH /v1/organization', new ApiError(400, 'VALIDATION_ERROR', 'Invalid body', [{ path: 'waitlistOfferMinutes', message: 'Too small: expected number to be >=1' }]));
    fireEvent.submit(minutes.closest('form')!);
    await screen.findByText('Too small: expected number to be >=1.');
    expect(fake.calls.at(-1)).toMatchObject({ method: 'PATCH', body: { waitlistOfferMinutes: 0 } });
    expect(minutes.getAttribute('aria-invalid')).toBe('true');
    fireEvent.input(minutes, { target: { value: '90' } });
    fireEvent.submit(minutes.closest('form')!);
    await screen.findByText('The organization is saved.');
    expect(fake.calls.at(-1)).toMatchObject({ method: 'PATCH', path: '/v1/organization', body: { waitlistOfferMinutes: 90 } });
    expect(fake.db.org.waitlistOfferMinutes).toBe(90);
  });

  it('sets the booking notices and the brand, and names the address a refusal is about', async () => {
    const { fake } = await open('/dashboard/settings', 'Organization');
    const to = screen.getByLabelText('Send notices to') as HTMLTextAreaElement;
    expect(to.value).toBe('');
    expect((screen.getByLabelText('New bookings') as HTMLInputElement).checked).toBe(true);
    expect((screen.getByLabelText('Cancellations') as HTMLInputElement).checked).toBe(true);
    expect((screen.getByLabelText('Changes to bookings (not check-ins)') as HTMLInputElement).checked).toBe(false);
    fireEvent.input(to, { target: { value: 'ops@lisbonwalks.example\nnope' } });
    fireEvent.click(screen.getByLabelText('Changes to bookings (not check-ins)'));
    fireEvent.click(screen.getByLabelText('Cancellations'));
    fireEvent.input(screen.getByLabelText('Brand colour'), { target: { value: '#0B7285' } });
    fireEvent.input(screen.getByLabelText('Logo address'), { target: { value: 'https://lisbonwalks.example/logo.png' } });
    fake.refuse.set('PATCH /v1/organization', new ApiError(400, 'VALIDATION_ERROR', 'Invalid body', [{ path: 'notificationEmails[1]', message: 'Expected an e-mail address' }]));
    fireEvent.submit(to.closest('form')!);
    await screen.findByText('nope: Expected an e-mail address.');
    expect(document.activeElement).toBe(to);
    expect(fake.calls.at(-1)).toMatchObject({
      method: 'PATCH',
      body: { notificationEmails: ['ops@lisbonwalks.example', 'nope'], notifyOn: ['BOOKING_CREATED', 'BOOKING_UPDATED'], brandColor: '#0b7285', logoUrl: 'https://lisbonwalks.example/logo.png' },
    });
    fireEvent.input(to, { target: { value: 'ops@lisbonwalks.example' } });
    fireEvent.submit(to.closest('form')!);
    await screen.findByText('The organization is saved.');
    expect(fake.db.org).toMatchObject({ notificationEmails: ['ops@lisbonwalks.example'], notifyOn: ['BOOKING_CREATED', 'BOOKING_UPDATED'], brandColor: '#0b7285' });
  });

  it('puts the currency refusal (once there are bookings) next to the currency', async () => {
    const { fake } = await open('/dashboard/settings', 'Organization');
    fake.refuse.set('PATCH /v1/organization', new ApiError(409, 'CONFLICT', 'The currency cannot change once the organization has bookings'));
    fireEvent.change(screen.getByLabelText('Currency'), { target: { value: 'USD' } });
    fireEvent.submit(screen.getByLabelText('Currency').closest('form')!);
    const error = await screen.findByText('The currency cannot change once the organization has bookings.');
    expect(error.id).toBe('org-currency-error');
    expect((screen.getByLabelText('Currency') as HTMLSelectElement).value).toBe('USD');
  });

  it('lists keys, creates one and shows it once with a Copy button and a warning', async () => {
    const { fake } = await open('/dashboard/settings/api-keys', 'API keys');
    const live = cardOf('Website sync');
    expect(live.textContent).toContain('osk_abc');
    expect(live.textContent).toContain('ScopesAll');
    expect(live.textContent).toContain('Last usedNever');
    expect(cardOf('Widget').textContent).toContain('Publishable');
    // A secret key's value is never listed: its card has no field to copy.
    expect(within(live).queryByRole('textbox')).toBeNull();

    fireEvent.input(screen.getByLabelText('Name'), { target: { value: 'Reports script' } });
    fireEvent.click(screen.getByLabelText('bookings:read'));
    fireEvent.submit(screen.getByRole('button', { name: 'Create key' }).closest('form')!);
    const panel = await screen.findByRole('group', { name: 'Your new key “Reports script”' });
    expect((within(panel).getByLabelText('Secret key') as HTMLInputElement).value).toBe('osk_new_full_value_0123456789');
    expect(within(panel).getByRole('button', { name: 'Copy' })).toBeTruthy();
    expect(panel.textContent).toContain('cannot show it again');
    expect(document.activeElement?.id).toBe('revealed-title');
    expect(fake.calls.find((c) => c.method === 'POST')?.body).toEqual({ name: 'Reports script', type: 'secret', scopes: ['bookings:read'] });
    // The form is empty for the next key, and the list has the new one.
    await waitFor(() => expect((screen.getByLabelText('Name') as HTMLInputElement).value).toBe(''));
    expect(cardOf('Reports script')).toBeTruthy();

    fireEvent.click(within(panel).getByRole('button', { name: 'I have copied it' }));
    expect(screen.queryByRole('group', { name: /Your new key/ })).toBeNull();
  });

  it('lists a publishable key in full with Copy, and says why an older one shows only its start', async () => {
    await open('/dashboard/settings/api-keys', 'API keys');
    const widget = cardOf('Widget');
    const value = within(widget).getByLabelText('Publishable key “Widget”') as HTMLInputElement;
    expect(value.value).toBe('opk_defWholeValue123');
    expect(value.readOnly).toBe(true);
    expect(within(widget).getByRole('button', { name: 'Copy' })).toBeTruthy();
    const old = cardOf('Old site');
    expect(within(old).queryByRole('textbox')).toBeNull();
    expect(old.textContent).toContain('Made before Outing kept publishable keys, so only its start is known: opk_ghi');
  });

  it('makes a publishable key without the "shown once" warning: it stays listed, focus on its value', async () => {
    const { fake } = await open('/dashboard/settings/api-keys', 'API keys');
    fireEvent.input(screen.getByLabelText('Name'), { target: { value: 'Shop' } });
    fireEvent.change(screen.getByLabelText('Type'), { target: { value: 'publishable' } });
    fireEvent.submit(screen.getByRole('button', { name: 'Create key' }).closest('form')!);
    await screen.findByText(/The publishable key “Shop” is made/);
    expect(fake.calls.find((c) => c.method === 'POST')?.body).toEqual({ name: 'Shop', type: 'publishable' });
    expect(screen.queryByRole('group', { name: /Your new key/ })).toBeNull();
    expect(screen.queryByText(/Shown only this once/)).toBeNull();
    const field = within(cardOf('Shop')).getByLabelText('Publishable key “Shop”') as HTMLInputElement;
    expect(field.value).toBe('opk_new_full_value_0123456789');
    expect(document.activeElement).toBe(field);
  });

  it('makes a reseller key: a secret key holding only the OCTO scope, shown once beside the OCTO endpoint, tagged in the list', async () => {
    const { fake } = await open('/dashboard/settings/api-keys', 'API keys');
    fireEvent.input(screen.getByLabelText('Name'), { target: { value: 'Tours Market' } });
    fireEvent.change(screen.getByLabelText('Type'), { target: { value: 'reseller' } });
    // A scope ticked by mistake is not sent: a reseller key holds the OCTO scope alone.
    fireEvent.click(screen.getByLabelText('bookings:read'));
    fireEvent.submit(screen.getByRole('button', { name: 'Create key' }).closest('form')!);
    const panel = await screen.findByRole('group', { name: 'Your new reseller key “Tours Market”' });
    expect(fake.calls.find((c) => c.method === 'POST')?.body).toEqual({ name: 'Tours Market', type: 'secret', scopes: ['octo'] });
    expect((within(panel).getByLabelText('Secret key') as HTMLInputElement).value).toBe('osk_new_full_value_0123456789');
    const endpoint = within(panel).getByLabelText('OCTO endpoint') as HTMLInputElement;
    expect(endpoint.value).toBe(`${location.origin}/octo`);
    expect(endpoint.getAttribute('aria-describedby')).toBe('revealed-beside-hint');
    expect(panel.textContent).toContain('Send the reseller both');
    expect(within(panel).getAllByRole('button', { name: 'Copy' })).toHaveLength(2);

    await waitFor(() => expect(screen.getByRole('heading', { name: 'Tours Market Reseller' })).toBeTruthy());
    const card = cardOf('Tours Market Reseller');
    expect(card.textContent).toContain('TypeSecret, for a reseller on the OCTO API');
    expect(card.textContent).toContain('ScopesReseller bookings (OCTO)');
    // Other keys carry no tag.
    expect(cardOf('Website sync').querySelector('.tag')).toBeNull();
  });

  it('names the OCTO scope in words wherever scopes are listed', async () => {
    const fake = settingsHttp();
    fake.db.keys.push({ id: 'key_mixed', name: 'Partner', type: 'secret', scopes: ['bookings:read', 'octo'], prefix: 'osk_jkl', key: null, createdAt: at, lastUsedAt: null, revokedAt: null });
    mountAt('/dashboard/settings/api-keys', { signedIn: true, http: fake.http });
    await screen.findByRole('heading', { level: 2, name: 'API keys' });
    // A key holding more than the OCTO scope is no reseller key: no tag, its scopes in words.
    const card = (await screen.findByRole('heading', { name: 'Partner' })).closest('li')!;
    expect(card.textContent).toContain('Scopesbookings:read, Reseller bookings (OCTO)');
    expect(card.querySelector('.tag')).toBeNull();
  });

  it('shows the refusal of a new key next to its name', async () => {
    const { fake } = await open('/dashboard/settings/api-keys', 'API keys');
    fake.refuse.set('POST /v1/api-keys', new ApiError(400, 'VALIDATION_ERROR', 'Invalid body', [{ path: 'name', message: 'Must not be empty' }]));
    fireEvent.submit(screen.getByRole('button', { name: 'Create key' }).closest('form')!);
    await screen.findByText('Must not be empty.');
    expect(document.activeElement?.id).toBe('key-name');
  });

  it('asks before revoking a key, does nothing on Go back, and revokes on Revoke key', async () => {
    const { fake } = await open('/dashboard/settings/api-keys', 'API keys');
    const revoke = within(cardOf('Website sync')).getByRole('button', { name: 'Revoke' });
    expect(revoke.getAttribute('aria-describedby')).toBe('key-key_live');
    fireEvent.click(revoke);
    let dialog = await screen.findByRole('dialog', { name: 'Revoke the key “Website sync”?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Go back' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(fake.calls.some((c) => c.method === 'DELETE')).toBe(false);
    expect(document.activeElement).toBe(revoke);

    fireEvent.click(revoke);
    dialog = await screen.findByRole('dialog');
    fireEvent.submit(within(dialog).getByRole('button', { name: 'Revoke key' }).closest('form')!);
    await screen.findByText('The key “Website sync” is revoked.');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(fake.calls.some((c) => c.method === 'DELETE' && c.path === '/v1/api-keys/key_live')).toBe(true);
    expect(within(cardOf('Website sync')).queryByRole('button', { name: 'Revoke' })).toBeNull();
  });

  it('keeps a refused confirmation open with the reason in it', async () => {
    const { fake } = await open('/dashboard/settings/api-keys', 'API keys');
    fake.refuse.set('DELETE /v1/api-keys/key_pub', new ApiError(500, 'INTERNAL_ERROR', 'fault'));
    fireEvent.click(within(cardOf('Widget')).getByRole('button', { name: 'Revoke' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.submit(within(dialog).getByRole('button', { name: 'Revoke key' }).closest('form')!);
    expect((await within(dialog).findByRole('alert')).textContent).toBe('Outing could not answer just now. Try again in a moment.');
  });

  it('adds a webhook endpoint and shows its secret once', async () => {
    await open('/dashboard/settings/webhooks', 'Webhooks');
    fireEvent.input(screen.getByLabelText('URL'), { target: { value: 'https://example.com/in' } });
    fireEvent.submit(screen.getByRole('button', { name: 'Add endpoint' }).closest('form')!);
    const panel = await screen.findByRole('group', { name: 'Signing secret of https://example.com/in' });
    expect((within(panel).getByLabelText('Signing secret') as HTMLInputElement).value).toBe('whsec_c2VjcmV0');
  });

  it('forgets a value shown once as soon as the person moves on', async () => {
    await open('/dashboard/settings/webhooks', 'Webhooks');
    fireEvent.input(screen.getByLabelText('URL'), { target: { value: 'https://example.com/in' } });
    fireEvent.submit(screen.getByRole('button', { name: 'Add endpoint' }).closest('form')!);
    await screen.findByRole('group', { name: /Signing secret of/ });
    fireEvent.click(screen.getAllByRole('link', { name: 'Delivery log' })[0]!);
    await screen.findByRole('heading', { name: /Delivery log of/ });
    history.back();
    await screen.findByRole('button', { name: 'Add endpoint' });
    expect(screen.queryByRole('group', { name: /Signing secret of/ })).toBeNull();
    expect(screen.queryByDisplayValue('whsec_c2VjcmV0')).toBeNull();
  });

  it('shows an endpoint’s delivery log with status, attempts and last error, and retries a delivery', async () => {
    const { fake } = await open('/dashboard/settings/webhooks?endpoint=whe_1', 'Webhooks');
    await screen.findByRole('heading', { name: 'Delivery log of https://hooks.example.com/outing' });
    const row = screen.getByText('BOOKING_CREATED', { selector: 'td' }).closest('tr')!;
    expect(row.textContent).toContain('Failed (HTTP 500)');
    expect(row.textContent).toContain('3');
    expect(row.textContent).toContain('HTTP 500');
    fireEvent.click(within(row).getByRole('button', { name: 'Retry' }));
    await screen.findByText(/Sent again/);
    expect(fake.calls.at(-1)).toMatchObject({ method: 'POST', path: '/v1/webhook-endpoints/whe_1/deliveries/dlv_1/retry' });
    expect(screen.getByText('BOOKING_CREATED', { selector: 'td' }).closest('tr')!.textContent).toContain('Pending');
  });

  it('offers no “Make staff” to the last active owner, and says why', async () => {
    const { fake } = await open('/dashboard/settings/team', 'Team');
    const me = cardOf('Marta Reis (you)');
    // Nobody disables or removes themselves from here, and the last owner stays one.
    expect(within(me).queryByRole('button', { name: 'Disable' })).toBeNull();
    expect(within(me).queryByRole('button', { name: 'Make staff' })).toBeNull();
    expect(me.textContent).toContain('The only active owner: make someone else an owner before changing your role.');
    expect(fake.calls.some((c) => c.method === 'PATCH')).toBe(false);
  });

  it('offers “Make staff” once there is another active owner, and shows a refusal in an alert', async () => {
    const fake = settingsHttp();
    // A second owner, disabled, does not count; a third, active, does.
    fake.db.users.push(
      { ...session.user, id: 'usr_2', name: 'Rui Dias', email: 'rui@lisbonwalks.example', disabledAt: at },
      { ...session.user, id: 'usr_3', name: 'Inês Costa', email: 'ines@lisbonwalks.example' },
    );
    mountAt('/dashboard/settings/team', { signedIn: true, http: fake.http });
    const me = (await screen.findByRole('heading', { name: 'Marta Reis (you)' })).closest('li')!;
    expect(within(me).getByRole('button', { name: 'Make staff' })).toBeTruthy();
    expect(within(cardOf('Rui Dias')).getByRole('button', { name: 'Make staff' })).toBeTruthy();
    fake.refuse.set('PATCH /v1/users/usr_1', new ApiError(409, 'CONFLICT', "Cannot demote the organization's last active owner: make another user an owner first"));
    fireEvent.click(within(me).getByRole('button', { name: 'Make staff' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe("Marta Reis could not be changed: Cannot demote the organization's last active owner: make another user an owner first.");
  });

  it('says a refused invitation next to the field it is about: a taken address by Email, a role one may not give by Role', async () => {
    const { fake } = await open('/dashboard/settings/team', 'Team');
    const form = screen.getByRole('button', { name: 'Invite' }).closest('form')!;
    fireEvent.input(within(form).getByLabelText('Name'), { target: { value: 'Gil Guide' } });
    fireEvent.input(within(form).getByLabelText('Email'), { target: { value: 'gil@elsewhere.example' } });
    const taken = 'This e-mail address is already in use: an address names one user on the whole server, so choose another';
    fake.refuse.set('POST /v1/users', new ApiError(409, 'CONFLICT', taken));
    fireEvent.submit(form);
    const email = within(form).getByLabelText('Email');
    await waitFor(() => expect(email.getAttribute('aria-invalid')).toBe('true'));
    expect(document.getElementById(email.getAttribute('aria-describedby')!.split(' ').at(-1)!)?.textContent).toContain(taken);
    expect(document.activeElement).toBe(email);

    const lacking = 'Your role cannot give the role owner: it lacks the scopes keys:write';
    fake.refuse.set('POST /v1/users', new ApiError(403, 'FORBIDDEN', lacking));
    fireEvent.submit(form);
    const role = within(form).getByLabelText('Role');
    await waitFor(() => expect(role.getAttribute('aria-invalid')).toBe('true'));
    expect(form.textContent).toContain(lacking);
    expect(email.getAttribute('aria-invalid')).toBeNull();
  });

  it('marks action codes as such, for the stylesheet to keep each on one line (checked in Chromium)', async () => {
    await open('/dashboard/settings/activity', 'Activity');
    const codes = screen.getAllByText('booking.create', { selector: 'code' });
    expect(codes).toHaveLength(20);
    for (const code of codes) expect(code.className).toBe('action');
  });

  it('pages through the activity log, newest first', async () => {
    const { fake } = await open('/dashboard/settings/activity', 'Activity');
    expect(screen.getAllByRole('row')).toHaveLength(21);
    expect(screen.getByText('1–20 of 25')).toBeTruthy();
    fireEvent.click(screen.getByRole('link', { name: 'Next page' }));
    await screen.findByText('21–25 of 25');
    expect(location.search).toBe('?offset=20');
    expect(screen.getByText('Booking number 24')).toBeTruthy();
    expect(fake.calls.filter((c) => c.path === '/v1/activity')).toHaveLength(2);
  });

  it('is not shown to staff', async () => {
    const staff = { ...session, user: { ...session.user, role: 'staff' as const } };
    const fake = settingsHttp();
    mountAt('/dashboard/settings/api-keys', { signedIn: true, session: staff, http: fake.http });
    await screen.findByRole('heading', { level: 1, name: 'Not available to your role' });
    expect(fake.calls).toEqual([]);
  });
});
