import { copyFile, mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { violations } from './axe.js';
import { apiAs, dashboardPage as watchedPage, heading, openSignedIn, overflow, ownerOf, unexpected, type Owner, keyboardOf } from './dashboard-helpers.js';
import type { OutingServer } from './outing-server.js';
import { useOutingAndChromium } from './suite.js';

/**
 * The Bookings and Customers screens in real Chromium against `outing serve --demo`: bookings
 * made through the API, changed in the browser, and every change read back through the API.
 */
const artifacts = resolve(import.meta.dirname, '../test-results');
const docs = resolve(import.meta.dirname, '../docs');
const suite = useOutingAndChromium();
let outing: OutingServer;
let browser: Browser;
let owner: Owner;
/** The owner's session cookie, signed in once: each test's context starts signed in. */
let signedIn: BrowserContextOptions['storageState'];

interface Made {
  id: string;
  bookingNumber: string;
  customerId: string;
  timeSlot: { startTime: string };
}
/** Guest name → the booking made for them. */
const made: Record<string, Made> = {};
/** The Lisbon date of the full slot, and of another one. */
let busyDate: string;
let otherDate: string;

const DOMAIN = 'e2e-tours.example';
const api = <T = any>(path: string, init: RequestInit = {}) => apiAs<T>(outing, path, init);
const lisbonDate = (instant: string) => new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Lisbon' }).format(new Date(instant));

beforeAll(async () => {
  ({ outing, browser } = suite());
  await mkdir(artifacts, { recursive: true });
  owner = ownerOf(outing);
  const walk = (await api<{ id: string; name: string }[]>('/v1/experiences')).data.find((x) => x.name === 'Alfama Old Town Walk')!;
  const from = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
  const to = new Date(Date.now() + 20 * 86_400_000).toISOString().slice(0, 10);
  const { data } = await api<{ slots: { startTime: string; available: boolean; remaining: number }[] }>(`/v1/availability?experienceId=${walk.id}&startDate=${from}&endDate=${to}`);
  // Room for the first three and up to six more (the walk's largest party), so the last one fills it.
  const full = data.slots.find((s) => s.available && s.remaining >= 8 && s.remaining <= 13)!;
  busyDate = lisbonDate(full.startTime);
  const other = data.slots.find((s) => s.available && lisbonDate(s.startTime) !== busyDate)!;
  otherDate = lisbonDate(other.startTime);
  // The slot ends full, so adding a participant is refused.
  for (const [name, participants, startTime] of [
    ['Ana Lima', 2, full.startTime],
    ['Bruno Costa', 1, full.startTime],
    ['Chloé Martin', 4, full.startTime],
    ['Diogo Reis', full.remaining - 7, full.startTime],
    ['Eva Sousa', 2, other.startTime],
    ['Filipa Nunes', 3, other.startTime],
  ] as const) {
    // One domain for this file's guests: the demo has a month of its own bookings beside them.
    const email = `${name.split(' ')[0]!.toLowerCase().normalize('NFD').replace(/[^a-z]/g, '')}@${DOMAIN}`;
    const res = await api<Made>('/v1/bookings', {
      method: 'POST',
      body: JSON.stringify({ experienceId: walk.id, startTime, participants, customerName: name, customerEmail: email, metadata: { hotel: 'Memmo Alfama' } }),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    made[name] = res.data;
  }
  expect((await api(`/v1/bookings/${made['Eva Sousa']!.id}/cancel`, { method: 'PATCH', body: JSON.stringify({ reason: 'Flight cancelled' }) })).status).toBe(200);

  const { page } = await watchedPage(browser);
  await openSignedIn(page, outing, owner, '/dashboard/customers', 'Customers');
  signedIn = await page.context().storageState();
  await page.context().close();
});

const dashboardPage = (b: Browser, options: BrowserContextOptions = {}) => watchedPage(b, { storageState: signedIn, ...options });

const open = (page: Page, path: string, name?: string | RegExp) => openSignedIn(page, outing, owner, path, name);
const booking = (name: string) => api<Made & { status: string; totalParticipants: number; cancellationReason: string | null }>(`/v1/bookings/${made[name]!.id}`);
const rows = (page: Page) => page.locator('table.bk-records tbody tr');
const dialog = (page: Page) => page.getByRole('dialog');
const activityItems = (page: Page) => page.getByRole('region', { name: 'Activity' }).getByRole('listitem');

describe('the Bookings screens', () => {
  it('searches and filters the list, pages through it, and keeps it all in the address', async () => {
    const { page, problems } = await dashboardPage(browser);
    await open(page, '/dashboard/bookings', 'Bookings');
    await expect.poll(() => rows(page).count()).toBeGreaterThan(0);
    // It opens on the bookings to come (e2e/dashboard-reports.e2e.test.ts checks their order).
    await expect.poll(() => page.getByRole('status').innerText()).toMatch(/^\d+ upcoming bookings?$/);
    // The demo's month of bookings fills more than a page: the next one has its own address.
    const total = Number(/^(\d+)/.exec(await page.getByRole('status').innerText())?.[1]);
    if (total > 20) {
      await page.getByRole('link', { name: 'Next page' }).click();
      await expect.poll(() => new URL(page.url()).searchParams.get('offset')).toBe('20');
      await page.getByRole('link', { name: 'Previous page' }).waitFor();
      expect(await page.locator('.pager p').innerText()).toMatch(/^21–/);
    }

    const search = async (filters: { q?: string; status?: string; from?: string; to?: string }) => {
      await page.getByLabel('Search').fill(filters.q ?? '');
      await page.getByLabel('Status').selectOption(filters.status ?? '');
      await page.getByLabel('From').fill(filters.from ?? '');
      await page.getByLabel('To').fill(filters.to ?? '');
      await page.getByRole('button', { name: 'Show bookings' }).click();
    };
    // An empty From searches every date, past ones too: the address says so.
    await search({ q: DOMAIN });
    await expect.poll(() => rows(page).count()).toBe(6);
    expect(new URL(page.url()).search).toBe(`?q=${DOMAIN}&startDate=any`);
    // A booking number finds its booking, Enter in the box searches.
    await page.getByLabel('Search').fill(made['Diogo Reis']!.bookingNumber);
    await page.getByLabel('Search').press('Enter');
    await expect.poll(() => rows(page).count()).toBe(1);
    await expect.poll(() => rows(page).first().innerText()).toContain('Diogo Reis');

    await search({ q: DOMAIN, status: 'CANCELLED' });
    // The rows shown stay until the new ones come: wait for the new one, then count.
    await expect.poll(() => rows(page).first().innerText()).toContain('Eva Sousa');
    expect(await rows(page).count()).toBe(1);

    await search({ q: DOMAIN, from: busyDate, to: busyDate });
    await expect.poll(() => rows(page).count()).toBe(4);
    expect(Object.fromEntries(new URL(page.url()).searchParams)).toEqual({ q: DOMAIN, startDate: busyDate, endDate: busyDate });
    await search({ q: DOMAIN, from: otherDate, to: otherDate });
    await expect.poll(() => rows(page).count()).toBe(2);
    // A reload keeps the filters; Back returns to the ones before.
    await page.reload();
    await expect.poll(() => rows(page).count()).toBe(2);
    expect(await page.getByLabel('From').inputValue()).toBe(otherDate);
    await page.goBack();
    await expect.poll(() => rows(page).count()).toBe(4);
    expect(await page.getByLabel('To').inputValue()).toBe(busyDate);

    // Nothing matches: the empty state says what to do, and offers every booking again.
    await search({ q: 'nobody-at-all' });
    await page.getByRole('heading', { name: 'No bookings match' }).waitFor();
    await page.getByRole('link', { name: 'show every booking' }).click();
    await expect.poll(() => rows(page).count()).toBeGreaterThan(0);
    expect(new URL(page.url()).search).toBe('?startDate=any');
    expect(unexpected(problems, 401)).toEqual([]);
    await page.context().close();
  });

  it('changes participants (one refused), the time, records a payment and cancels, each read back through the API', async () => {
    const { page, problems } = await dashboardPage(browser);
    await open(page, `/dashboard/bookings?q=${made['Ana Lima']!.bookingNumber}`, 'Bookings');
    await page.getByRole('link', { name: made['Ana Lima']!.bookingNumber }).click();
    await heading(page, `Booking ${made['Ana Lima']!.bookingNumber}`);
    const details = page.getByRole('region', { name: 'Details' });
    expect(await details.innerText()).toContain('Europe/Lisbon time');
    expect(await details.innerText()).toContain('Memmo Alfama');
    await expect.poll(() => activityItems(page).count()).toBe(1);

    // The slot is full: one more is refused, and the refusal sits by the field.
    await page.getByRole('button', { name: 'Change participants' }).click();
    await dialog(page).getByLabel('Participants').fill('3');
    await dialog(page).getByRole('button', { name: 'Change participants' }).click();
    await expect.poll(() => page.locator('#participants-error').innerText()).toMatch(/full|left/);
    expect(await dialog(page).getByLabel('Participants').getAttribute('aria-invalid')).toBe('true');
    expect((await booking('Ana Lima')).data.totalParticipants).toBe(2);
    await dialog(page).getByLabel('Participants').fill('1');
    await dialog(page).getByRole('button', { name: 'Change participants' }).click();
    await page.getByText('is now for 1 participant').waitFor();
    expect((await booking('Ana Lima')).data.totalParticipants).toBe(1);
    await expect.poll(() => activityItems(page).count()).toBe(2);
    expect(await activityItems(page).first().innerText()).toContain('Changed');

    // Another time, from the experience's availability.
    await page.getByRole('button', { name: 'Change time' }).click();
    const choice = dialog(page).getByRole('radio', { disabled: false }).first();
    await choice.waitFor();
    const chosen = await choice.getAttribute('value');
    await choice.check();
    await dialog(page).getByRole('button', { name: 'Change time' }).click();
    await page.getByText('now starts at the new time').waitFor();
    expect((await booking('Ana Lima')).data.timeSlot.startTime).toBe(chosen);
    await expect.poll(() => activityItems(page).count()).toBe(3);

    // A payment taken at the desk.
    await page.getByRole('button', { name: 'Record payment' }).click();
    await dialog(page).getByLabel('Amount (EUR)').fill('10');
    await dialog(page).getByLabel('Reference').fill('cash at the desk');
    await dialog(page).getByRole('button', { name: 'Record payment' }).click();
    await page.getByText('A payment of €10.00 is recorded.').waitFor();
    const payments = await api<{ amount: string; status: string; provider: string; reference: string }[]>(`/v1/bookings/${made['Ana Lima']!.id}/payments`);
    expect(payments.data).toMatchObject([{ amount: '10.00', status: 'SUCCEEDED', provider: 'manual', reference: 'cash at the desk' }]);
    await expect.poll(() => page.getByRole('region', { name: 'Payments' }).innerText()).toContain('cash at the desk');
    expect(await details.innerText()).toMatch(/€15\.00 still due/);
    await expect.poll(() => activityItems(page).count()).toBe(4);
    expect(await activityItems(page).first().innerText()).toContain('Payment of');

    // Cancelled, with a reason, after confirming.
    await page.getByRole('button', { name: 'Cancel booking' }).click();
    await dialog(page).getByLabel('Reason').fill('Guest is unwell');
    await dialog(page).getByRole('button', { name: 'Cancel booking' }).click();
    await page.getByText('is cancelled; its places are free again').waitFor();
    const cancelled = (await booking('Ana Lima')).data;
    expect(cancelled.status).toBe('CANCELLED');
    expect(cancelled.cancellationReason).toBe('Guest is unwell');
    expect(await details.innerText()).toContain('Guest is unwell');
    await expect.poll(() => activityItems(page).count()).toBe(5);
    expect(await activityItems(page).first().innerText()).toContain('Cancelled');
    expect(await page.getByRole('button', { name: 'Change time' }).count()).toBe(0);
    expect(unexpected(problems, 401, 409)).toEqual([]);
    await page.context().close();
  });

  it('changes participants by keyboard alone; Escape closes a dialog and focus returns to its button', async () => {
    const { page, problems } = await dashboardPage(browser);
    await open(page, `/dashboard/bookings?q=${made['Chloé Martin']!.bookingNumber}`, 'Bookings');
    const { focused, tabTo } = keyboardOf(page);
    await expect.poll(() => rows(page).count()).toBe(1);
    await tabTo(new RegExp(`^a\\|${made['Chloé Martin']!.bookingNumber}`));
    await page.keyboard.press('Enter');
    await heading(page, `Booking ${made['Chloé Martin']!.bookingNumber}`);

    await tabTo(/^button\|Change participants/);
    await page.keyboard.press('Enter');
    // The dialog takes focus at its first field.
    await expect.poll(focused).toMatch(/^input\|participants\|true$/);
    await page.keyboard.press('Control+A');
    await page.keyboard.type('3');
    await page.keyboard.press('Enter');
    await page.getByText('is now for 3 participants').waitFor();
    expect((await booking('Chloé Martin')).data.totalParticipants).toBe(3);

    await tabTo(/^button\|Record payment/);
    await page.keyboard.press('Space');
    await dialog(page).waitFor();
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog(page).count()).toBe(0);
    expect(await focused()).toMatch(/^button\|Record payment\|true$/);
    expect(unexpected(problems, 401)).toEqual([]);
    await page.context().close();
  });
});

describe('the Customers screens', () => {
  it('finds a customer, shows their bookings and erases their personal data after confirming', async () => {
    const { page, problems } = await dashboardPage(browser);
    await open(page, '/dashboard/customers', 'Customers');
    await page.getByLabel('Search').fill(`bruno@${DOMAIN}`);
    await page.getByRole('button', { name: 'Search' }).click();
    await expect.poll(() => rows(page).count()).toBe(1);
    await page.getByRole('link', { name: 'Bruno Costa' }).click();
    await heading(page, 'Bruno Costa');
    const bookings = page.getByRole('region', { name: 'Bookings' });
    expect(await bookings.getByRole('link', { name: made['Bruno Costa']!.bookingNumber }).getAttribute('href')).toBe(
      `/dashboard/bookings/${made['Bruno Costa']!.id}`,
    );

    // Backing out keeps everything.
    await page.getByRole('button', { name: 'Erase personal data' }).click();
    await dialog(page).getByRole('button', { name: 'Keep the data' }).click();
    expect((await api(`/v1/customers/${made['Bruno Costa']!.customerId}`)).data.name).toBe('Bruno Costa');

    await page.getByRole('button', { name: 'Erase personal data' }).click();
    await dialog(page).getByRole('button', { name: 'Erase personal data' }).click();
    await heading(page, 'Erased customer');
    await page.getByText('The personal data is erased').waitFor();
    const erased = (await api<{ name: string; email: string; bookings: { guestName: string; bookingNumber: string }[] }>(`/v1/customers/${made['Bruno Costa']!.customerId}`)).data;
    expect(erased.name).toBe('erased');
    expect(erased.email).not.toContain('bruno');
    expect(erased.bookings).toMatchObject([{ guestName: 'erased', bookingNumber: made['Bruno Costa']!.bookingNumber }]);
    expect(await page.getByRole('button', { name: 'Erase personal data' }).count()).toBe(0);
    expect(await page.locator('main').innerText()).not.toContain('bruno@example.com');
    expect(unexpected(problems, 401)).toEqual([]);
    await page.context().close();
  });
});

describe('the Bookings and Customers screens for everyone', () => {
  it('have no axe-core WCAG 2.2 A/AA violation, dialogs and errors included', async () => {
    const { page } = await dashboardPage(browser, { bypassCSP: true });
    const clean = async (what: string) => expect(await violations(page, 'html'), what).toEqual([]);
    // This file's bookings only: axe takes its time over every row of a full page.
    await open(page, `/dashboard/bookings?q=${DOMAIN}`, 'Bookings');
    await expect.poll(() => rows(page).count()).toBeGreaterThan(0);
    await clean('bookings list');
    await page.goto(`${outing.origin}/dashboard/bookings?q=nobody`);
    await page.getByRole('heading', { name: 'No bookings match' }).waitFor();
    await clean('bookings, none match');

    await page.goto(`${outing.origin}/dashboard/bookings/${made['Diogo Reis']!.id}`);
    await heading(page, `Booking ${made['Diogo Reis']!.bookingNumber}`);
    await expect.poll(() => activityItems(page).count()).toBeGreaterThan(0);
    await clean('booking page');
    for (const action of ['Cancel booking', 'Change time', 'Change participants', 'Record payment']) {
      await page.getByRole('button', { name: action }).click();
      await dialog(page).waitFor();
      if (action === 'Change time') await dialog(page).getByRole('radio').first().waitFor();
      await clean(`${action} dialog`);
      // Its errors too: submitted empty, each says what is missing next to its field.
      if (action !== 'Cancel booking') {
        const field = action === 'Change participants' ? 'Participants' : action === 'Record payment' ? 'Amount (EUR)' : null;
        if (field) await dialog(page).getByLabel(field).fill('');
        await dialog(page).getByRole('button', { name: action }).click();
        await dialog(page).locator('.field-error').waitFor();
        await clean(`${action} dialog with an error`);
      }
      await page.keyboard.press('Escape');
      await expect.poll(() => dialog(page).count()).toBe(0);
    }
    await page.goto(`${outing.origin}/dashboard/bookings/${made['Eva Sousa']!.id}`);
    await heading(page, `Booking ${made['Eva Sousa']!.bookingNumber}`);
    await clean('cancelled booking');

    await page.goto(`${outing.origin}/dashboard/customers?search=${DOMAIN}`);
    await heading(page, 'Customers');
    await expect.poll(() => rows(page).count()).toBeGreaterThan(0);
    await clean('customers list');
    await page.goto(`${outing.origin}/dashboard/customers/${made['Filipa Nunes']!.customerId}`);
    await heading(page, 'Filipa Nunes');
    await clean('customer page');
    await page.getByRole('button', { name: 'Erase personal data' }).click();
    await dialog(page).waitFor();
    await clean('erase dialog');
    await page.keyboard.press('Escape');
    await page.goto(`${outing.origin}/dashboard/customers/${made['Bruno Costa']!.customerId}`);
    await heading(page, /Bruno Costa|Erased customer/);
    await clean('customer page, erased or not');
    await page.context().close();
  });

  // Layout is the same on either database: the screenshots (one copied into docs/) are the SQLite run's alone.
  it.skipIf(process.env.OUTING_TEST_ENGINE === 'postgres')('fit 375 px without horizontal scrolling; screenshots at 375 and 1280 px', async () => {
    for (const width of [375, 1280]) {
      const { page, problems } = await dashboardPage(browser, { viewport: { width, height: 900 } });
      const shot = async (name: string) => {
        expect(await overflow(page), `${width}px ${name}`).toBeLessThanOrEqual(0);
        await page.screenshot({ path: `${artifacts}/dashboard-${name}-${width}.png`, fullPage: true });
      };
      await open(page, '/dashboard/bookings', 'Bookings');
      await expect.poll(() => rows(page).count()).toBeGreaterThan(0);
      await shot('bookings');
      await page.goto(`${outing.origin}/dashboard/bookings/${made['Diogo Reis']!.id}`);
      await heading(page, `Booking ${made['Diogo Reis']!.bookingNumber}`);
      await expect.poll(() => activityItems(page).count()).toBeGreaterThan(0);
      await shot('booking');
      await page.getByRole('button', { name: 'Change time' }).click();
      await dialog(page).getByRole('radio').first().waitFor();
      expect(await overflow(page), `${width}px change time`).toBeLessThanOrEqual(0);
      await page.screenshot({ path: `${artifacts}/dashboard-booking-time-${width}.png` });
      await page.keyboard.press('Escape');
      await page.goto(`${outing.origin}/dashboard/customers`);
      await expect.poll(() => rows(page).count()).toBeGreaterThan(0);
      await shot('customers');
      await page.goto(`${outing.origin}/dashboard/customers/${made['Diogo Reis']!.customerId}`);
      await heading(page, 'Diogo Reis');
      await shot('customer');
      expect(unexpected(problems, 401)).toEqual([]);
      await page.context().close();
    }
    await copyFile(`${artifacts}/dashboard-booking-1280.png`, `${docs}/dashboard-booking.png`);
  });
});
