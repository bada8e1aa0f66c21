import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { violations } from './axe.js';
import { apiAs, dashboardPage as watchedPage, heading, keyboardOf, openSignedIn, overflow, ownerOf, unexpected, type Owner } from './dashboard-helpers.js';
import type { OutingServer } from './outing-server.js';
import { useOutingAndChromium } from './suite.js';

/**
 * The waitlist in the dashboard, in real Chromium against `outing serve --demo`: the experience's
 * checkbox and the offer minutes saved from their forms; a full departure's waitlist on Today and
 * in the Calendar's dialog, an entry removed by keyboard alone at 320 and 375 px, read back through
 * the API, with no axe-core violation and no sideways scrolling.
 */
const suite = useOutingAndChromium();
let outing: OutingServer;
let browser: Browser;
let owner: Owner;
let signedIn: BrowserContextOptions['storageState'];
const artifacts = resolve(import.meta.dirname, '../test-results');

interface Entry {
  id: string;
  status: string;
  position: number | null;
  guestName: string;
}
/** A small tour of two places, full on the departure these tests use. */
let tour: { id: string; name: string };
let start: string;
let date: string;
const entries: Record<string, Entry> = {};

const api = <T = any>(path: string, init: RequestInit = {}) => apiAs<T>(outing, path, init);
const post = <T = any>(path: string, body: unknown) => api<T>(path, { method: 'POST', body: JSON.stringify(body) });
const lisbonDate = (instant: string) => new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Lisbon' }).format(new Date(instant));
const addDays = (d: string, n: number) => new Date(Date.parse(`${d}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
const mondayOf = (d: string) => addDays(d, -((new Date(`${d}T00:00:00Z`).getUTCDay() + 6) % 7));

beforeAll(async () => {
  ({ outing, browser } = suite());
  owner = ownerOf(outing);
  await mkdir(artifacts, { recursive: true });
  const every = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];
  const made = await post<{ id: string; name: string; waitlist: boolean }>('/v1/experiences', {
    name: 'Tile Workshop',
    description: 'Paint your own azulejo.',
    price: 3000,
    duration: 90,
    maxParticipants: 2,
    waitlist: true,
    schedule: { timezone: 'Europe/Lisbon', weekly: Object.fromEntries(every.map((d) => [d, ['11:00']])) },
  });
  expect(made.status).toBe(201);
  expect(made.data.waitlist).toBe(true);
  tour = made.data;
  const from = addDays(new Date().toISOString().slice(0, 10), 2);
  const { data } = await api<{ slots: { startTime: string }[] }>(`/v1/availability?experienceId=${tour.id}&startDate=${from}&endDate=${addDays(from, 7)}`);
  start = data.slots[0]!.startTime;
  date = lisbonDate(start);
  const booked = await post('/v1/bookings', { experienceId: tour.id, startTime: start, participants: 2, customerName: 'Inês Calado', customerEmail: 'ines@example.com' });
  expect(booked.status).toBe(201);
  for (const [name, participants] of [['Carla Dias', 1], ['Duarte Nunes', 2]] as const) {
    const joined = await post<Entry>('/v1/waitlist', {
      experienceId: tour.id, startTime: start, participants, customerName: name, customerEmail: `${name.split(' ')[0]!.toLowerCase()}@example.com`,
    });
    expect(joined.status).toBe(201);
    entries[name] = joined.data;
  }
  expect(entries['Duarte Nunes']!.position).toBe(2);

  const { page } = await watchedPage(browser);
  await openSignedIn(page, outing, owner, '/dashboard', 'Today');
  signedIn = await page.context().storageState();
  await page.context().close();
});

const dashboardPage = (b: Browser, options: BrowserContextOptions = {}) => watchedPage(b, { storageState: signedIn, ...options });
const clean = async (page: Page, what: string) => expect(await violations(page, 'html'), what).toEqual([]);
const slotRegion = (page: Page) => page.getByRole('region', { name: new RegExp(tour.name) });

describe('the waitlist’s settings', () => {
  it('turns an experience’s waitlist on from its page, and sets the offer minutes in Settings', async () => {
    const { page, problems } = await dashboardPage(browser);
    const plain = await post<{ id: string; waitlist: boolean }>('/v1/experiences', { name: 'Fado Evening', description: 'Songs of Lisbon.', price: 4000, duration: 120, maxParticipants: 20 });
    expect(plain.status, JSON.stringify(plain.body)).toBe(201);
    expect(plain.data.waitlist).toBe(false);
    await page.goto(`${outing.origin}/dashboard/experiences/${plain.data.id}`);
    await heading(page, 'Fado Evening');
    const box = page.getByLabel('Take a waitlist when full');
    expect(await box.isChecked()).toBe(false);
    await box.check();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Saved.', { exact: true }).waitFor();
    expect((await api(`/v1/experiences/${plain.data.id}`)).data.waitlist).toBe(true);

    await page.goto(`${outing.origin}/dashboard/settings`);
    await page.getByRole('heading', { level: 2, name: 'Organization' }).waitFor();
    const minutes = page.getByLabel('Waitlist offer (minutes)');
    expect(await minutes.inputValue()).toBe('720');
    await minutes.fill('0');
    await minutes.press('Enter');
    // The server's refusal, beside the field.
    await page.locator('#org-waitlistOfferMinutes-error').waitFor();
    expect(await minutes.getAttribute('aria-invalid')).toBe('true');
    await minutes.fill('90');
    await minutes.press('Enter');
    await page.getByText('The organization is saved.').waitFor();
    const org = (await api('/v1/organization')).data;
    expect(org).toMatchObject({ waitlistOfferMinutes: 90, timezone: 'Europe/Lisbon' });
    expect(unexpected(problems, 400)).toEqual([]);
    await page.context().close();
  });
});

describe('a departure’s waitlist', () => {
  for (const width of [320, 375]) {
    it(`is read and an entry removed by keyboard alone on Today at ${width} px, with no axe-core violation`, async () => {
      const { page, problems } = await dashboardPage(browser, { bypassCSP: true, viewport: { width, height: 800 } });
      const { focused, tabTo } = keyboardOf(page, 200);
      await page.goto(`${outing.origin}/dashboard?date=${date}`);
      await slotRegion(page).waitFor({ timeout: 10_000 }).catch(async (e: unknown) => {
        throw new Error(`${String(e)}\n${await page.locator('body').innerText()}`);
      });
      const who = width === 320 ? 'Carla Dias' : 'Duarte Nunes';
      const live = width === 320 ? 'Waitlist: 2 waiting' : 'Waitlist: 1 waiting';
      await expect.poll(() => slotRegion(page).innerText()).toContain(live);
      await tabTo(/^button\|Show waitlist/);
      await page.keyboard.press('Enter');
      const list = slotRegion(page).locator('ol.waitlist');
      await list.waitFor();
      expect(await list.innerText()).toContain(who);
      expect(await overflow(page)).toBeLessThanOrEqual(0);
      await clean(page, `Today with the waitlist at ${width} px`);
      await page.screenshot({ path: resolve(artifacts, `dashboard-waitlist-${width}.png`), fullPage: true });

      await tabTo(new RegExp(`^button\\|Remove`));
      // The first live entry is the first in line.
      expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-describedby'))).toBe(`entry-${entries[who]!.id}`);
      await page.keyboard.press('Enter');
      const question = page.getByRole('dialog', { name: `Remove ${who} from the waitlist?` });
      await question.waitFor();
      await clean(page, `the removal question at ${width} px`);
      expect(await overflow(page)).toBeLessThanOrEqual(0);
      // Focus is in the dialog, on its first button.
      await expect.poll(focused).toMatch(/^button\|Remove from waitlist/);
      await page.keyboard.press('Enter');
      await page.getByText(`${who} is off the waitlist.`).waitFor();
      await expect.poll(() => question.count()).toBe(0);
      expect((await api<Entry>(`/v1/waitlist/${entries[who]!.id}`)).data.status).toBe('CANCELLED');
      await expect.poll(() => list.innerText()).toContain('Removed');
      expect(unexpected(problems)).toEqual([]);
      await page.context().close();
    });
  }

  it('is listed in the Calendar’s departure dialog, in turn and by status', async () => {
    // Someone new joins, after the two removed above.
    const joined = await post<Entry>('/v1/waitlist', { experienceId: tour.id, startTime: start, participants: 1, customerName: 'Eva Pinto', customerEmail: 'eva@example.com' });
    expect(joined.data.position).toBe(1);
    const { page, problems } = await dashboardPage(browser, { bypassCSP: true, viewport: { width: 375, height: 800 } });
    await page.goto(`${outing.origin}/dashboard/calendar?week=${mondayOf(date)}`);
    await heading(page, 'Calendar');
    await page.getByRole('region', { name: tour.name }).locator(`button.cal-slot:has(time[datetime="${start}"])`).click();
    const dialog = page.locator('dialog[open]');
    const waitlist = dialog.getByRole('region', { name: 'Waitlist' });
    await waitlist.locator('ol.waitlist').waitFor();
    const rows = await waitlist.locator('li').allTextContents();
    expect(rows[0]).toBe('#1Number 1: Eva Pinto, 1 guest eva@example.com Waiting Remove');
    expect(rows.slice(1).join('\n')).toMatch(/Carla Dias[\s\S]*Removed/);
    expect(rows.slice(1).join('\n')).toMatch(/Duarte Nunes[\s\S]*Removed/);
    expect(await waitlist.getByRole('button', { name: 'Remove' }).count()).toBe(1);
    await clean(page, 'the departure dialog’s waitlist');
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    expect(unexpected(problems)).toEqual([]);
    await page.context().close();
  });
});
