import { fireEvent, screen, waitFor, within } from '@testing-library/preact';
import { describe, expect, it } from 'vitest';
import type { ApiKey, Availability, Experience, NoticeEvent } from '../shared/index.js';
import { ApiError, type Http, type Query } from './api.js';
import { centsOf } from './state/experiences.js';
import { noHttp } from './test-helpers/fake-api.js';
import { mountAt, useDashboardTests } from './test-helpers/dashboard-under-test.js';

useDashboardTests();

/**
 * The fixtures' experiences have no price categories: they book by participants at their price
 * (docs/price-categories.md).
 */
const later = { priceCategories: [], meetingPoint: null, meetingPointUrl: null, guestInstructions: null, questions: [], extras: [] };

const at = '2026-11-01T09:00:00.000Z';
const experience = (id: string, name: string, active = true): Experience => ({
  id,
  name,
  description: '',
  waitlist: false,
  duration: 90,
  price: 4500,
  currency: 'EUR',
  maxParticipants: 8,
  maxPerBooking: 8,
  schedule: { timezone: null, weekly: { wed: ['18:30'] }, startDate: null, endDate: null, exceptions: [] },
  minNoticeMinutes: 120,
  maxAdvanceDays: 365,
  active,
  createdAt: at,
  updatedAt: at,
  ...later,
});

const PUBLISHABLE = 'opk_Ab12cd34Ef56gh78';
const key: ApiKey = { id: 'key_pub', name: 'Default publishable key', type: 'publishable', scopes: ['*'], prefix: 'opk_Ab12cd34', key: PUBLISHABLE, createdAt: at, lastUsedAt: null, revokedAt: null };
/** A publishable key made before version 1.2: only its hash was kept. */
const olderKey: ApiKey = { ...key, id: 'key_old', name: 'Old widget key', prefix: 'opk_Zz99yy88', key: null, createdAt: '2026-01-01T09:00:00.000Z' };
const secretKey: ApiKey = { ...key, id: 'key_sec', name: 'Default secret key', type: 'secret', prefix: 'osk_Qq11ww22', key: null, createdAt: '2026-11-05T09:00:00.000Z' };

interface Call {
  method: string;
  path: string;
  query?: Query | undefined;
  body?: unknown;
}

/** An in-memory Outing for the Experiences screens; `hold` keeps the next write unanswered until released. */
function fakeOuting() {
  const calls: Call[] = [];
  const store = new Map<string, Experience>([
    ['exp_sail', experience('exp_sail', 'Sunset Sail on the Tagus')],
    ['exp_old', experience('exp_old', 'Tram 28 Tour', false)],
  ]);
  const control = { refuse: null as ApiError | null, hold: null as Promise<void> | null, keysDown: false };
  const keys: ApiKey[] = [secretKey, key];
  const answer = <T,>(work: () => T): Promise<never> => Promise.resolve().then(() => work() as never);
  const availability = (id: string): Availability => ({
    experienceId: id,
    timezone: 'Europe/Lisbon',
    startDate: '2026-12-01',
    endDate: '2026-12-31',
    slots: [
      { id: 'ts_1', startTime: '2026-12-02T18:30:00.000Z', endTime: '2026-12-02T20:00:00.000Z', capacity: 8, booked: 3, remaining: 5, available: true, unavailableReason: null },
      { id: 'ts_2', startTime: '2026-12-09T18:30:00.000Z', endTime: '2026-12-09T20:00:00.000Z', capacity: 8, booked: 8, remaining: 0, available: false, unavailableReason: 'FULL' },
    ],
  });
  const http: Http = {
    ...noHttp,
    get: (s, path, query) => {
      calls.push({ method: 'GET', path, query });
      if (path === '/v1/organization') return answer(() => ({ id: 'org_1', name: 'Lisbon Walks', email: 'a@b.example', phone: null, timezone: 'Europe/Lisbon', currency: 'EUR', onlinePayments: false, cancellationCutoffHours: 24, guestSelfService: true, notificationEmails: [] as string[], notifyOn: ['BOOKING_CREATED', 'BOOKING_CANCELED'] as NoticeEvent[], brandColor: null as string | null, logoUrl: null as string | null, createdAt: at, updatedAt: at }));
      if (path === '/v1/availability') return answer(() => availability(String(query?.['experienceId'])));
      const found = /^\/v1\/experiences\/(\w+)$/.exec(path);
      if (found) return answer(() => store.get(found[1]!) ?? (() => { throw new ApiError(404, 'NOT_FOUND', 'No such experience'); })());
      return noHttp.get(s, path, query);
    },
    list: (s, path, query) => {
      calls.push({ method: 'GET', path, query });
      if (path === '/v1/api-keys' && control.keysDown) return Promise.reject(new ApiError(0, 'NETWORK', 'offline'));
      if (path === '/v1/api-keys') return answer(() => ({ data: [...keys], pagination: { total: keys.length, limit: 100, offset: 0, hasMore: false } }));
      if (path === '/v1/experiences') {
        const data = [...store.values()].filter((x) => query?.['active'] === undefined || String(x.active) === query['active']);
        return answer(() => ({ data, pagination: { total: data.length, limit: 20, offset: 0, hasMore: false } }));
      }
      return noHttp.list(s, path, query);
    },
    async send(_s, method, path, body) {
      calls.push({ method, path, body });
      if (control.hold) await control.hold;
      return answer(() => {
        if (control.refuse) {
          const e = control.refuse;
          control.refuse = null;
          throw e;
        }
        if (path === '/v1/api-keys') {
          const made: ApiKey = { ...key, id: 'key_new', name: (body as { name: string }).name, prefix: 'opk_NewKey12', key: 'opk_NewKey12345', createdAt: '2026-11-02T09:00:00.000Z' };
          keys.push(made);
          return made;
        }
        const id = method === 'POST' ? 'exp_new' : path.split('/').at(-1)!;
        const before = store.get(id) ?? { ...experience(id, ''), schedule: null, maxPerBooking: 0 };
        const next = { ...before, ...(body as Partial<Experience>), updatedAt: '2026-11-02T09:00:00.000Z' } as Experience;
        if (next.maxPerBooking === 0 || next.maxPerBooking === null) next.maxPerBooking = next.maxParticipants;
        store.set(id, next);
        return next;
      });
    },
  };
  return { http, calls, store, control, keys, writes: () => calls.filter((c) => c.method !== 'GET') };
}

const field = (label: string) => screen.getByLabelText(label) as HTMLInputElement;
const fill = (label: string, value: string) => fireEvent.input(field(label), { target: { value } });

async function open(path: string, heading: string, change: (fake: ReturnType<typeof fakeOuting>) => void = () => {}) {
  const fake = fakeOuting();
  change(fake);
  const t = mountAt(path, { signedIn: true, http: fake.http });
  await screen.findByRole('heading', { level: 1, name: heading });
  return { ...t, ...fake };
}

describe('the Experiences list', () => {
  it('lists every experience with its state, each a link to its page, and a way to make a new one', async () => {
    const t = await open('/dashboard/experiences', 'Experiences');
    await screen.findByText('2 experiences');
    const sail = screen.getByRole('link', { name: 'Sunset Sail on the Tagus' });
    expect(sail.getAttribute('href')).toBe('/dashboard/experiences/exp_sail');
    const tram = screen.getByRole('link', { name: 'Tram 28 Tour' }).closest('li')!;
    expect(tram.textContent).toContain('Inactive');
    expect(sail.closest('li')!.textContent).toContain('Active');
    expect(sail.closest('li')!.textContent).toContain('1 h 30 min');
    expect(sail.closest('li')!.textContent).toContain('€45.00');
    expect(screen.getByRole('link', { name: 'New experience' }).getAttribute('href')).toBe('/dashboard/experiences/new');

    // The filter is in the address, so Back and a reload keep it.
    fireEvent.change(screen.getByLabelText('Show'), { target: { value: 'false' } });
    await screen.findByText('1 experience');
    expect(location.search).toBe('?active=false');
    expect(t.calls.at(-1)).toMatchObject({ path: '/v1/experiences', query: { active: 'false' } });
    expect(screen.queryByRole('link', { name: 'Sunset Sail on the Tagus' })).toBeNull();
  });

  it('says what to do when there is none', async () => {
    const fake = fakeOuting();
    fake.store.clear();
    mountAt('/dashboard/experiences', { signedIn: true, http: fake.http });
    await screen.findByRole('heading', { name: 'No experiences yet' });
    expect(screen.getByText(/Create one with “New experience”/)).toBeTruthy();
  });
});

describe('the experience form', () => {
  it('labels its fields as the contract does', async () => {
    await open('/dashboard/experiences/new', 'New experience');
    for (const label of ['Name', 'Description', 'Duration', 'Price', 'Maximum participants', 'Max per booking', 'Notice', 'Booking window', 'Active', 'Time zone']) {
      expect(screen.getByLabelText(label), label).toBeTruthy();
    }
    // Price categories have their place, for a later version.
    expect(screen.getByRole('heading', { name: 'Price categories' })).toBeTruthy();
  });

  it('creates an experience, then shows its page with the next slots and the embed snippet', async () => {
    const t = await open('/dashboard/experiences/new', 'New experience');
    fill('Name', 'Fado Night');
    fireEvent.input(screen.getByLabelText('Description'), { target: { value: 'Three singers, one small room.' } });
    fill('Duration', '90');
    fill('Price', '35,5');
    fill('Maximum participants', '20');
    fill('Notice', '30');
    fill('Booking window', '60');
    fireEvent.click(screen.getByRole('button', { name: 'Add time on Friday' }));
    fireEvent.input(field('Friday, time 1'), { target: { value: '21:00' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create experience' }));

    await screen.findByRole('heading', { level: 1, name: 'Fado Night' });
    expect(location.pathname).toBe('/dashboard/experiences/exp_new');
    expect(t.writes()).toEqual([
      {
        method: 'POST',
        path: '/v1/experiences',
        body: {
          name: 'Fado Night',
          description: 'Three singers, one small room.',
          duration: 90,
          price: 3550,
          maxParticipants: 20,
          minNoticeMinutes: 30,
          maxAdvanceDays: 60,
          active: true,
          schedule: { timezone: null, weekly: { fri: ['21:00'] }, startDate: null, endDate: null, exceptions: [] },
        },
      },
    ]);
    // The record came back with the create: no second GET of it.
    expect(t.calls.filter((c) => c.path === '/v1/experiences/exp_new')).toEqual([]);
    expect(screen.getByText(/Experience created/)).toBeTruthy();

    const preview = screen.getByRole('region', { name: 'Next slots' });
    await within(preview).findByText('3/8 places booked');
    expect(preview.textContent).toContain('Europe/Lisbon time');
    expect(within(preview).getByText('8/8 places booked').className).toContain('full');

    // The snippet holds the organization's publishable key itself: "Copy" gives one that works.
    const snippet = (await screen.findByLabelText('Widget snippet')) as HTMLTextAreaElement;
    expect(snippet.value).toBe(
      `<div data-outing data-key="${PUBLISHABLE}" data-experience="exp_new"></div>\n<script src="${location.origin}/widget.js" async></script>`,
    );
    expect(screen.getByRole('region', { name: 'Embed' }).textContent).toContain('your publishable key “Default publishable key”');
    expect(screen.getByRole('region', { name: 'Embed' }).textContent).not.toContain('YOUR_PUBLISHABLE_KEY');
    expect(screen.getByRole('button', { name: 'Copy' })).toBeTruthy();
  });

  it('fills the snippet with the newest active publishable key that Outing can show, never a secret one', async () => {
    const newer: ApiKey = { ...key, id: 'key_newer', name: 'Shop site', key: 'opk_Newer999', createdAt: '2026-11-10T09:00:00.000Z' };
    const revoked: ApiKey = { ...key, id: 'key_rev', name: 'Leaked', key: 'opk_Revoked1', createdAt: '2026-11-20T09:00:00.000Z', revokedAt: '2026-11-21T09:00:00.000Z' };
    await open('/dashboard/experiences/exp_sail', 'Sunset Sail on the Tagus', (f) => f.keys.push(newer, revoked, { ...olderKey, createdAt: '2026-11-30T09:00:00.000Z' }));
    const snippet = (await screen.findByLabelText('Widget snippet')) as HTMLTextAreaElement;
    expect(snippet.value).toContain('data-key="opk_Newer999" data-experience="exp_sail"');
    expect(screen.getByRole('region', { name: 'Embed' }).textContent).toContain('“Shop site”');
  });

  it('offers to make a publishable key when none can be shown, then puts it in the snippet', async () => {
    const t = await open('/dashboard/experiences/exp_sail', 'Sunset Sail on the Tagus', (f) => f.keys.splice(0, f.keys.length, secretKey, olderKey));
    const embed = screen.getByRole('region', { name: 'Embed' });
    const create = await within(embed).findByRole('button', { name: 'Create a publishable key' });
    // No placeholder to paste over: it says why, and names the key it cannot show.
    expect(screen.queryByLabelText('Widget snippet')).toBeNull();
    expect(embed.textContent).not.toContain('YOUR_PUBLISHABLE_KEY');
    expect(embed.textContent).toContain('Old widget key, opk_Zz99yy88… was made before Outing kept publishable keys');
    expect(create.getAttribute('aria-describedby')).toBe('embed-no-key');

    fireEvent.click(create);
    const snippet = (await screen.findByLabelText('Widget snippet')) as HTMLTextAreaElement;
    expect(snippet.value).toContain('data-key="opk_NewKey12345" data-experience="exp_sail"');
    expect(t.writes()).toEqual([{ method: 'POST', path: '/v1/api-keys', body: { name: 'Website widget', type: 'publishable' } }]);
    expect(embed.querySelector('.status-line')!.textContent).toBe('The publishable key “Website widget” is made, and the snippet holds it.');
    await waitFor(() => expect(document.activeElement).toBe(snippet));
  });

  it('says so when making the key is refused, and when the keys cannot be read', async () => {
    await open('/dashboard/experiences/exp_sail', 'Sunset Sail on the Tagus', (f) => {
      f.keys.splice(0, f.keys.length);
      f.control.refuse = new ApiError(403, 'FORBIDDEN', 'Missing scope keys:write');
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Create a publishable key' }));
    expect((await screen.findByRole('alert')).textContent).toBe('No publishable key could be made: Your role does not allow this. Ask an owner of the organization.');
    expect(screen.queryByLabelText('Widget snippet')).toBeNull();
  });

  it('says when the keys cannot be read, and reads them again on “Try again”', async () => {
    const t = await open('/dashboard/experiences/exp_sail', 'Sunset Sail on the Tagus', (f) => (f.control.keysDown = true));
    const embed = screen.getByRole('region', { name: 'Embed' });
    const alert = await within(embed).findByRole('alert');
    expect(alert.textContent).toContain('The keys could not be read: Outing could not be reached.');
    expect(within(embed).queryByRole('button', { name: 'Create a publishable key' })).toBeNull();
    t.control.keysDown = false;
    fireEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(((await screen.findByLabelText('Widget snippet')) as HTMLTextAreaElement).value).toContain(PUBLISHABLE);
  });

  it('sends only what changed, and says so when nothing did', async () => {
    const t = await open('/dashboard/experiences/exp_sail', 'Sunset Sail on the Tagus');
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    await screen.findByText('Nothing has changed since the last save.');
    expect(t.writes()).toEqual([]);

    fill('Price', '50');
    fireEvent.click(field('Active'));
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    await screen.findByText('Saved.');
    expect(t.writes()).toEqual([{ method: 'PATCH', path: '/v1/experiences/exp_sail', body: { price: 5000, active: false } }]);
    expect(screen.getByText('Inactive', { selector: '.heading-row .exp-state' })).toBeTruthy();
  });

  it('turns the waitlist on and off with its checkbox, sending only that', async () => {
    const t = await open('/dashboard/experiences/exp_sail', 'Sunset Sail on the Tagus');
    const box = field('Take a waitlist when full');
    expect(box.checked).toBe(false);
    expect(document.getElementById(box.getAttribute('aria-describedby')!)!.textContent).toContain('Turning it off stops new joins only');
    fireEvent.click(box);
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    await screen.findByText('Saved.');
    expect(t.writes()).toEqual([{ method: 'PATCH', path: '/v1/experiences/exp_sail', body: { waitlist: true } }]);
    expect(t.store.get('exp_sail')!.waitlist).toBe(true);
    fireEvent.click(field('Take a waitlist when full'));
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(t.writes()).toHaveLength(2));
    expect(t.writes()[1]).toEqual({ method: 'PATCH', path: '/v1/experiences/exp_sail', body: { waitlist: false } });
  });

  it('is busy while saving, keeps the typed values, and shows a refusal beside its field', async () => {
    const t = await open('/dashboard/experiences/exp_sail', 'Sunset Sail on the Tagus');
    let release!: () => void;
    t.control.hold = new Promise((r) => (release = r));
    t.control.refuse = new ApiError(400, 'VALIDATION_ERROR', 'Invalid body', [{ path: 'maxPerBooking', message: 'maxPerBooking must not exceed maxParticipants' }]);
    fill('Maximum participants', '4');
    fill('Max per booking', '6');
    fill('Name', 'Sunset Sail');
    const button = screen.getByRole('button', { name: 'Save changes' });
    fireEvent.click(button);
    expect(button.getAttribute('aria-disabled')).toBe('true');
    expect(screen.getByText('Saving…')).toBeTruthy();
    // A second press while busy sends nothing more.
    fireEvent.click(button);
    t.control.hold = null;
    release();

    const summary = await screen.findByRole('region', { name: 'There is a problem' });
    expect(summary.textContent).toContain('Max per booking: maxPerBooking must not exceed maxParticipants.');
    expect(t.writes()).toHaveLength(1);
    const perBooking = field('Max per booking');
    expect(perBooking.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(perBooking.getAttribute('aria-describedby')!.split(' ').at(-1)!)!.textContent).toBe(
      'maxPerBooking must not exceed maxParticipants.',
    );
    // What the person typed is still there, re-renders and all.
    expect(field('Name').value).toBe('Sunset Sail');
    expect(field('Maximum participants').value).toBe('4');
    expect(button.getAttribute('aria-disabled')).toBeNull();
  });

  it('edits price categories: new rows without ids, kept rows with theirs, a refusal beside its row', async () => {
    const t = await open('/dashboard/experiences/exp_sail', 'Sunset Sail on the Tagus');
    expect(screen.getByText(/None: every guest pays the price above/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Add category' }));
    fireEvent.click(screen.getByRole('button', { name: 'Add category' }));
    const [adult, infant] = screen.getAllByRole('group', { name: /^Category \d$/ }) as [HTMLElement, HTMLElement];
    const inRow = (row: HTMLElement, label: string) => within(row).getByLabelText(label) as HTMLInputElement;
    fireEvent.input(inRow(adult, 'Name'), { target: { value: 'Adult' } });
    fireEvent.input(inRow(adult, 'Price'), { target: { value: '25' } });
    fireEvent.input(inRow(infant, 'Name'), { target: { value: 'Infant' } });
    fireEvent.input(inRow(infant, 'Price'), { target: { value: '0' } });
    fireEvent.change(inRow(infant, 'Type'), { target: { value: 'INFANT' } });
    fireEvent.click(inRow(infant, 'Takes a place'));
    fireEvent.input(inRow(infant, 'Maximum age'), { target: { value: '2' } });

    t.control.refuse = new ApiError(400, 'VALIDATION_ERROR', 'Invalid body', [{ path: 'priceCategories[1].name', message: 'Another category has this name' }]);
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    const summary = await screen.findByRole('region', { name: 'There is a problem' });
    expect(summary.textContent).toContain('Category 2, name: Another category has this name.');
    expect(inRow(infant, 'Name').getAttribute('aria-invalid')).toBe('true');
    expect(inRow(infant, 'Name').value).toBe('Infant');
    expect(t.writes()[0]!.body).toEqual({
      priceCategories: [
        { name: 'Adult', price: 2500, type: 'ADULT', occupiesPlace: true, minAge: null, maxAge: null },
        { name: 'Infant', price: 0, type: 'INFANT', occupiesPlace: false, minAge: null, maxAge: 2 },
      ],
    });

    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    await screen.findByText('Saved.');
    // The saved list comes back with ids; a change keeps them, and removing a row drops it.
    const saved = t.store.get('exp_sail')!;
    t.store.set('exp_sail', {
      ...saved,
      priceCategories: (saved.priceCategories as unknown as Record<string, unknown>[]).map((c, i) => ({ ...c, id: `pc_${i}` })) as Experience['priceCategories'],
    });
    t.model.router.go('/dashboard/experiences');
    await screen.findByText('2 experiences');
    t.model.router.go('/dashboard/experiences/exp_sail');
    await screen.findAllByRole('group', { name: /^Category \d$/ });
    fireEvent.click(screen.getByRole('button', { name: 'Remove category 2' }));
    const row = screen.getByRole('group', { name: 'Category 1' });
    fireEvent.input(within(row).getByLabelText('Price'), { target: { value: '27.50' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(t.writes()).toHaveLength(3));
    expect(t.writes()[2]!.body).toEqual({
      priceCategories: [{ id: 'pc_0', name: 'Adult', price: 2750, type: 'ADULT', occupiesPlace: true, minAge: null, maxAge: null }],
    });
  });

  it('edits the guest information: sends what changed, clears with an empty field, and checks the link and lengths first', async () => {
    const t = await open('/dashboard/experiences/exp_sail', 'Sunset Sail on the Tagus');
    expect(screen.getByRole('heading', { name: 'Guest information', level: 2 })).toBeTruthy();
    fill('Meeting point', '  Doca de Santo Amaro, pier 3  ');
    fill('Map link', 'http://maps.example.com/pier-3');
    fill('Instructions for guests', 'x'.repeat(2001));
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    const summary = await screen.findByRole('region', { name: 'There is a problem' });
    expect(summary.textContent).toContain('Map link: Enter a link that starts with https://');
    expect(summary.textContent).toContain('Instructions for guests: Enter instructions of at most 2000 characters (this one has 2001).');
    expect(field('Map link').getAttribute('aria-invalid')).toBe('true');
    expect(t.writes()).toEqual([]);

    fill('Map link', 'https://maps.example.com/pier-3');
    fill('Instructions for guests', 'Bring a jacket.\nArrive 15 minutes early.');
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    await screen.findByText('Saved.');
    expect(t.writes()).toEqual([
      {
        method: 'PATCH',
        path: '/v1/experiences/exp_sail',
        body: { meetingPoint: 'Doca de Santo Amaro, pier 3', meetingPointUrl: 'https://maps.example.com/pier-3', guestInstructions: 'Bring a jacket.\nArrive 15 minutes early.' },
      },
    ]);

    fill('Map link', '');
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(t.writes()).toHaveLength(2));
    expect(t.writes()[1]!.body).toEqual({ meetingPointUrl: null });
  });

  it('checks numbers and the price in the browser before sending', async () => {
    const t = await open('/dashboard/experiences/new', 'New experience');
    fill('Price', '12.345');
    fill('Duration', '2.5');
    fireEvent.click(screen.getByRole('button', { name: 'Create experience' }));
    const summary = await screen.findByRole('region', { name: 'There is a problem' });
    expect(summary.textContent).toContain('Name: Enter the name guests will see.');
    expect(summary.textContent).toContain('Price: Enter a price such as 25.00');
    expect(summary.textContent).toContain('Duration: Enter a whole number');
    expect(t.writes()).toEqual([]);
  });

  it('says when the experience does not exist', async () => {
    const fake = fakeOuting();
    mountAt('/dashboard/experiences/exp_gone', { signedIn: true, http: fake.http });
    await waitFor(() => expect(screen.getByRole('alert').textContent).toContain('There is no such experience'));
  });

  it('reads prices as cents without floating-point surprises', () => {
    expect(centsOf('19.99')).toBe(1999);
    expect(centsOf('0')).toBe(0);
    expect(centsOf('25,5')).toBe(2550);
    expect(centsOf('1.005')).toBeNull();
    expect(centsOf('-3')).toBeNull();
  });
});
