import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { violations } from './axe.js';
import { apiAs, signedInState, dashboardPage as watchedPage, keyboardOf, openSignedIn, overflow, ownerOf, unexpected, type Owner } from './dashboard-helpers.js';
import type { OutingServer } from './outing-server.js';
import { useOutingAndChromium } from './suite.js';

/**
 * A reseller's bookings end to end: a reseller key made through /v1, then a reseller's system on
 * the OCTO API over plain HTTP (products, availability, a hold confirmed with a contact that has a
 * name and no e-mail, and a hold never confirmed with no contact at all), and the owner finding
 * both in the dashboard on a 375 px phone, by keyboard. Each page is checked with axe and for
 * sideways scrolling. The held booking is then cancelled by the reseller, its places freed.
 */
const suite = useOutingAndChromium();
let outing: OutingServer;
let browser: Browser;
let owner: Owner;
let signedIn: BrowserContextOptions['storageState'];

const PHONE = { viewport: { width: 375, height: 740 } };
const KEY_NAME = 'Reseller: Lisbon Trips';
const api = <T = any>(path: string, init: RequestInit = {}) => apiAs<T>(outing, path, init);
const dashboardPage = (options: BrowserContextOptions = {}) => watchedPage(browser, { storageState: signedIn, bypassCSP: true, ...options });
const clean = async (page: Page, what: string) => expect(await violations(page, 'html'), what).toEqual([]);

/** A reseller's system calling /octo with its own key; every OCTO answer is JSON. */
let resellerKey = '';
async function octo<T = any>(method: string, path: string, body?: unknown): Promise<{ status: number; data: T }> {
  const res = await fetch(`${outing.origin}/octo${path}`, {
    method,
    headers: { authorization: `Bearer ${resellerKey}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, data: (await res.json()) as T };
}

interface Availability {
  id: string;
  localDate?: string;
  localDateTimeStart: string;
  status: string;
  available: boolean;
  vacancies: number | null;
}
interface OctoBooking {
  uuid: string;
  status: string;
  supplierReference: string;
  resellerReference: string | null;
  availabilityId: string;
  contact: Record<string, unknown>;
}

let productId = '';
let unitId = '';
let slot: Availability;
let confirmed: OctoBooking;
let held: OctoBooking;
const isoDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);

beforeAll(async () => {
  ({ outing, browser } = suite());
  owner = ownerOf(outing);
  signedIn = await signedInState(browser, outing, owner);
});

describe('a reseller books over OCTO and the owner sees it in the dashboard', () => {
  it('holds and confirms one booking with a name and no e-mail, and holds another with no contact', async () => {
    const made = await api<{ key: string; scopes: string[] }>('/v1/api-keys', { method: 'POST', body: JSON.stringify({ name: KEY_NAME, scopes: ['octo'] }) });
    expect(made.status).toBe(201);
    expect(made.data.scopes).toEqual(['octo']);
    resellerKey = made.data.key;

    const products = await octo<{ id: string; options: { id: string; units: { id: string; type: string }[] }[] }[]>('GET', '/products');
    expect(products.status).toBe(200);
    expect(products.data.length).toBeGreaterThan(0);
    const product = products.data[0]!;
    productId = product.id;
    expect(product.options.map((o) => o.id)).toEqual(['DEFAULT']);
    unitId = product.options[0]!.units[0]!.id;

    // A day ahead with a slot that still has room for three: the first bookable one in the next two weeks.
    const now = Date.now();
    const days = await octo<Availability[]>('POST', '/availability', {
      productId,
      optionId: 'DEFAULT',
      localDateStart: isoDate(now + 2 * 86_400_000),
      localDateEnd: isoDate(now + 16 * 86_400_000),
    });
    expect(days.status).toBe(200);
    const open = days.data.find((a) => a.available && (a.vacancies ?? 0) >= 3);
    expect(open, JSON.stringify(days.data.slice(0, 3))).toBeDefined();
    // Then that one date alone, as a reseller asks before booking.
    const localDate = open!.localDateTimeStart.slice(0, 10);
    const day = await octo<Availability[]>('POST', '/availability', { productId, optionId: 'DEFAULT', localDate });
    expect(day.status).toBe(200);
    slot = day.data.find((a) => a.id === open!.id)!;
    expect(slot).toMatchObject({ id: open!.id, available: true });

    const reserved = await octo<OctoBooking>('POST', '/bookings', {
      productId,
      optionId: 'DEFAULT',
      availabilityId: slot.id,
      unitItems: [{ unitId }, { unitId }],
      resellerReference: 'LT-2027-0042',
    });
    expect(reserved.status).toBe(200);
    expect(reserved.data).toMatchObject({ status: 'ON_HOLD', resellerReference: 'LT-2027-0042' });
    const done = await octo<OctoBooking>('POST', `/bookings/${reserved.data.uuid}/confirm`, { contact: { firstName: 'Inês', lastName: 'Carvalho' } });
    expect(done.status).toBe(200);
    expect(done.data).toMatchObject({ uuid: reserved.data.uuid, status: 'CONFIRMED' });
    expect(done.data.contact).toMatchObject({ firstName: 'Inês', lastName: 'Carvalho', emailAddress: null });
    confirmed = done.data;

    const hold = await octo<OctoBooking>('POST', '/bookings', { productId, optionId: 'DEFAULT', availabilityId: slot.id, unitItems: [{ unitId }] });
    expect(hold.status).toBe(200);
    expect(hold.data.status).toBe('ON_HOLD');
    held = hold.data;

    // Three places fewer at that slot.
    const after = await octo<Availability[]>('POST', '/availability', { productId, optionId: 'DEFAULT', availabilityIds: [slot.id] });
    expect(after.data[0]!.vacancies).toBe(slot.vacancies! - 3);
  });

  it('lists exactly the two under "Reseller (OCTO)" by keyboard at 375 px, and shows the confirmed one', async () => {
    const { page, problems } = await dashboardPage(PHONE);
    await openSignedIn(page, outing, owner, '/dashboard/bookings?startDate=any', 'Bookings');
    await page.locator('table.bk-records').waitFor();
    const keys = keyboardOf(page);
    await keys.tabTo(/^select\|Any source/);
    await page.keyboard.type('R');
    expect(await page.getByLabel('Source').inputValue()).toBe('OCTO');
    await keys.tabTo(/^button\|Show bookings\|/);
    await page.keyboard.press('Enter');
    await page.waitForURL(/source=OCTO/);
    await expect.poll(() => page.locator('td[data-label="Source"]').allInnerTexts()).toEqual(['Reseller (OCTO)', 'Reseller (OCTO)']);
    const numbers = await page.locator('td[data-label="Booking"]').allInnerTexts();
    expect(new Set(numbers)).toEqual(new Set([confirmed.supplierReference, held.supplierReference]));
    const guests = await page.locator('td[data-label="Guest"]').allInnerTexts();
    expect(new Set(guests)).toEqual(new Set(['Inês Carvalho', 'No name given']));
    await clean(page, 'bookings from resellers');
    expect(await overflow(page)).toBeLessThanOrEqual(0);

    // Open the confirmed one by keyboard.
    await keys.tabTo(new RegExp(`^a\\|${confirmed.supplierReference}\\|`));
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: new RegExp(confirmed.supplierReference) }).waitFor();
    const reseller = page.locator('.bk-details > div').filter({ has: page.locator('dt', { hasText: /^Reseller \(OCTO\)$/ }) });
    await expect.poll(() => reseller.innerText()).toContain(KEY_NAME);
    const text = await reseller.innerText();
    expect(text).toContain('LT-2027-0042');
    expect(text).toContain(confirmed.uuid);
    const guest = page.locator('.bk-details > div').filter({ has: page.locator('dt', { hasText: /^Guest$/ }) });
    expect(await guest.innerText()).toContain('Inês Carvalho');
    expect(await guest.innerText()).toContain('No e-mail given');
    expect(await page.locator('.bk-details > div').filter({ has: page.locator('dt', { hasText: /^Status$/ }) }).innerText()).toContain('Confirmed');

    // No address: the page says why nothing can be resent, and any Resend there is disabled and points at that reason.
    const reason = page.locator('#no-address');
    await reason.waitFor();
    expect(await reason.innerText()).toContain('no guest e-mail address');
    await expect.poll(() => page.getByRole('heading', { level: 2, name: 'Messages' }).locator('..').innerText()).not.toContain('Loading');
    const resend = page.getByRole('button', { name: 'Resend' });
    // One Resend per message the booking has (none is ever queued for the guest without an address).
    const confirmedId = new URL(page.url()).pathname.split('/').pop()!;
    const messages = (await api<{ kind: string; to: string }[]>(`/v1/bookings/${confirmedId}/messages?limit=100`)).data;
    expect(messages.filter((m) => m.kind !== 'OPERATOR_NOTICE')).toEqual([]);
    expect(await resend.count()).toBe(messages.length);
    for (let i = 0; i < (await resend.count()); i++) {
      expect(await resend.nth(i).getAttribute('aria-disabled')).toBe('true');
      expect(await resend.nth(i).getAttribute('aria-describedby')).toContain('no-address');
    }
    await clean(page, 'the confirmed reseller booking');
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    expect(unexpected(problems)).toEqual([]);
    await page.context().close();
  });

  it('shows the held one as held for the reseller with no name, then cancelled once the reseller cancels it', async () => {
    const { page, problems } = await dashboardPage(PHONE);
    const listed = (await api<{ id: string; bookingNumber: string }[]>('/v1/bookings?source=OCTO&limit=100')).data;
    const id = listed.find((b) => b.bookingNumber === held.supplierReference)!.id;
    await openSignedIn(page, outing, owner, `/dashboard/bookings/${id}`, new RegExp(held.supplierReference));
    const row = (term: string) => page.locator('.bk-details > div').filter({ has: page.locator('dt', { hasText: new RegExp(`^${term}$`) }) });
    await expect.poll(() => row('Reseller \\(OCTO\\)').innerText()).toContain(KEY_NAME);
    expect(await row('Reseller \\(OCTO\\)').innerText()).toContain(held.uuid);
    expect(await row('Reseller \\(OCTO\\)').innerText()).toContain('None given');
    expect(await row('Guest').innerText()).toContain('No name given');
    expect(await row('Status').innerText()).toContain('held for the reseller until');
    await clean(page, 'the held reseller booking');
    expect(await overflow(page)).toBeLessThanOrEqual(0);

    const cancelled = await octo<OctoBooking>('POST', `/bookings/${held.uuid}/cancel`, { reason: 'Customer changed plans' });
    expect(cancelled.status).toBe(200);
    expect(cancelled.data.status).toBe('CANCELLED');

    await page.reload();
    await page.getByRole('heading', { level: 1, name: new RegExp(held.supplierReference) }).waitFor();
    await expect.poll(() => row('Status').innerText()).toContain('Cancelled');
    expect(await row('Status').innerText()).not.toContain('held');
    await clean(page, 'the cancelled reseller booking');
    expect(await overflow(page)).toBeLessThanOrEqual(0);

    // Its place is back: only the confirmed booking's two are taken now.
    const after = await octo<Availability[]>('POST', '/availability', { productId, optionId: 'DEFAULT', availabilityIds: [slot.id] });
    expect(after.status).toBe(200);
    expect(after.data[0]!.vacancies).toBe(slot.vacancies! - 2);
    expect(unexpected(problems)).toEqual([]);
    await page.context().close();
  });

  it('disables Resend, saying why, once a reseller takes away the address its guest was e-mailed at', async () => {
    // A receipt asked for at confirmation: the guest is e-mailed; then the reseller's change drops the address.
    const reserved = await octo<OctoBooking>('POST', '/bookings', { productId, optionId: 'DEFAULT', availabilityId: slot.id, unitItems: [{ unitId }] });
    expect(reserved.status).toBe(200);
    const contact = { fullName: 'Tomás Reis', emailAddress: 'tomas@example.com' };
    const done = await octo<OctoBooking>('POST', `/bookings/${reserved.data.uuid}/confirm`, { contact, emailReceipt: true });
    expect(done.data.status).toBe('CONFIRMED');
    const changed = await octo<OctoBooking>('PATCH', `/bookings/${reserved.data.uuid}`, { contact: { fullName: 'Tomás Reis' } });
    expect(changed.status).toBe(200);
    expect(changed.data.contact).toMatchObject({ fullName: 'Tomás Reis', emailAddress: null });

    const id = (await api<{ id: string; bookingNumber: string }[]>('/v1/bookings?source=OCTO&limit=100')).data.find((b) => b.bookingNumber === done.data.supplierReference)!.id;
    const messages = (await api<{ kind: string }[]>(`/v1/bookings/${id}/messages?limit=100`)).data;
    expect(messages.map((m) => m.kind)).toContain('BOOKING_CONFIRMED');

    const { page, problems } = await dashboardPage(PHONE);
    await openSignedIn(page, outing, owner, `/dashboard/bookings/${id}`, new RegExp(done.data.supplierReference));
    const resend = page.getByRole('button', { name: 'Resend' });
    await expect.poll(() => resend.count()).toBe(messages.length);
    for (let i = 0; i < messages.length; i++) {
      expect(await resend.nth(i).getAttribute('aria-disabled')).toBe('true');
      expect(await resend.nth(i).getAttribute('aria-describedby')).toContain('no-address');
    }
    expect(await page.locator('#no-address').innerText()).toContain('cannot resend any');
    // Pressing it by keyboard sends nothing.
    const keys = keyboardOf(page);
    await keys.tabTo(/^button\|Resend\|/);
    await page.keyboard.press('Enter');
    expect((await api<unknown[]>(`/v1/bookings/${id}/messages?limit=100`)).data).toHaveLength(messages.length);
    await clean(page, 'a reseller booking whose address was taken away');
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    expect(unexpected(problems)).toEqual([]);
    await page.context().close();
  });
});
