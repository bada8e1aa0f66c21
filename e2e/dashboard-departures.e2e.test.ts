import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { violations } from './axe.js';
import { apiAs, dashboardPage as watchedPage, heading, openSignedIn, overflow, ownerOf, unexpected, type Owner, keyboardOf } from './dashboard-helpers.js';
import { embedPage, startHostSite, type HostSite } from './host-page.js';
import type { OutingServer } from './outing-server.js';
import { useOutingAndChromium } from './suite.js';
import { widgetOn } from './widget-steps.js';

/**
 * Departures in real Chromium against `outing serve --demo`: a slot closed from the Calendar in two
 * clicks, read back through the API and gone from the widget's offer; its capacity, note and an
 * extra departure by keyboard alone at 375 px, with no axe-core violation.
 */
const suite = useOutingAndChromium();
let outing: OutingServer;
let browser: Browser;
let owner: Owner;
let host: HostSite;
let signedIn: BrowserContextOptions['storageState'];

interface AvailableSlot {
  id: string;
  startTime: string;
  available: boolean;
  unavailableReason: string | null;
}
let walk: { id: string; name: string };
/** The slot these tests close: at least two days ahead, still open. */
let slot: AvailableSlot;
let slotDate: string;

const api = <T = any>(path: string, init: RequestInit = {}) => apiAs<T>(outing, path, init);
const lisbonDate = (instant: string) => new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Lisbon' }).format(new Date(instant));
const addDays = (date: string, n: number) => new Date(Date.parse(`${date}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
const mondayOf = (date: string) => addDays(date, -((new Date(`${date}T00:00:00Z`).getUTCDay() + 6) % 7));
const dayOf = async (date: string) =>
  (await api<{ slots: AvailableSlot[] }>(`/v1/availability?experienceId=${walk.id}&startDate=${date}&endDate=${date}`)).data.slots;

beforeAll(async () => {
  ({ outing, browser } = suite());
  owner = ownerOf(outing);
  await mkdir(resolve(import.meta.dirname, '../test-results'), { recursive: true });
  host = await startHostSite();
  walk = (await api<{ id: string; name: string }[]>('/v1/experiences')).data.find((x) => x.name === 'Alfama Old Town Walk')!;
  const from = addDays(new Date().toISOString().slice(0, 10), 2);
  const { data } = await api<{ slots: AvailableSlot[] }>(`/v1/availability?experienceId=${walk.id}&startDate=${from}&endDate=${addDays(from, 14)}`);
  slot = data.slots.find((s) => s.available)!;
  slotDate = lisbonDate(slot.startTime);

  const { page } = await watchedPage(browser);
  await openSignedIn(page, outing, owner, '/dashboard/calendar', 'Calendar');
  signedIn = await page.context().storageState();
  await page.context().close();
});

afterAll(async () => {
  await host?.stop();
});

const dashboardPage = (b: Browser, options: BrowserContextOptions = {}) => watchedPage(b, { storageState: signedIn, ...options });
const slotButton = (page: Page) =>
  page.getByRole('region', { name: walk.name }).locator(`button.cal-slot:has(time[datetime="${slot.startTime}"])`);
const dialog = (page: Page) => page.locator('dialog[open]');

describe('closing a departure', () => {
  it('takes two clicks on the Calendar, and the widget stops offering it', async () => {
    const { page, problems } = await dashboardPage(browser);
    await page.goto(`${outing.origin}/dashboard/calendar?week=${mondayOf(slotDate)}`);
    await heading(page, 'Calendar');
    await slotButton(page).click();
    await dialog(page).getByRole('button', { name: 'Close departure' }).click();
    await dialog(page).getByText('Departure closed: it takes no new bookings.').waitFor();
    expect((await api(`/v1/slots/${slot.id}`)).data).toMatchObject({ id: slot.id, closed: true });
    // The week is read again: the slot says Closed.
    await expect.poll(() => slotButton(page).innerText()).toMatch(/Closed/);
    expect(unexpected(problems)).toEqual([]);
    await page.context().close();

    // The widget, on a customer's site: the closed time is shown but cannot be chosen.
    const url = host.page('/closed', embedPage(outing.origin, { key: outing.publishableKey, experience: walk.id, locale: 'en' }));
    const guest = await watchedPage(browser);
    await guest.page.goto(url);
    const w = widgetOn(guest.page);
    await w.getByRole('heading', { name: 'Choose a date', exact: true }).waitFor();
    const label = new Intl.DateTimeFormat('en', { timeZone: 'UTC', weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' }).format(
      new Date(`${slotDate}T12:00:00Z`),
    );
    const day = w.getByRole('button', { name: label, exact: true });
    if (!(await day.isVisible())) await w.getByRole('button', { name: 'Next month' }).click();
    await day.waitFor();
    const times = await dayOf(slotDate);
    if (times.every((s) => s.unavailableReason === 'CLOSED' || !s.available)) {
      // Its only time is closed: the day is not offered.
      expect(await day.getAttribute('class')).not.toContain('free');
    } else {
      await day.click();
      await w.getByRole('heading', { name: 'Choose a time', exact: true }).waitFor();
      const buttons = w.locator('button.time');
      await expect.poll(() => buttons.count()).toBe(times.length);
      const index = times.findIndex((s) => s.id === slot.id);
      expect(await buttons.nth(index).isDisabled()).toBe(true);
    }
    await guest.page.context().close();

    // Reopened through the API, it books again.
    expect((await api(`/v1/slots/${slot.id}`, { method: 'PATCH', body: JSON.stringify({ closed: false }) })).status).toBe(200);
    expect((await dayOf(slotDate)).find((s) => s.id === slot.id)).toMatchObject({ available: true, unavailableReason: null });
  });
});

describe('a departure’s capacity, note and an extra departure', () => {
  it('are set by keyboard alone at 375 px, with no axe-core violation and no sideways scrolling', async () => {
    const { page, problems } = await dashboardPage(browser, { bypassCSP: true, viewport: { width: 375, height: 800 } });
    const clean = async (what: string) => expect(await violations(page, 'html'), what).toEqual([]);
    const { focused, tabTo } = keyboardOf(page);

    await page.goto(`${outing.origin}/dashboard/calendar?week=${mondayOf(slotDate)}`);
    await heading(page, 'Calendar');
    await slotButton(page).waitFor();
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    await clean('calendar week');

    // The slot by keyboard: focus it, open its manifest.
    await slotButton(page).focus();
    await page.keyboard.press('Enter');
    await dialog(page).getByText(/places booked/).waitFor();
    await clean('departure dialog');
    expect(await overflow(page)).toBeLessThanOrEqual(0);

    await tabTo(/^button\|Change capacity/);
    await page.keyboard.press('Enter');
    await tabTo(/^input\|capacity/);
    await page.keyboard.type('-1');
    await page.keyboard.press('Enter');
    await dialog(page).locator('.field-error').waitFor();
    await clean('capacity with an error');
    await page.keyboard.press('Control+A');
    await page.keyboard.type('30');
    await page.keyboard.press('Enter');
    await dialog(page).getByText('Capacity set to 30.').waitFor();

    await tabTo(/^textarea\|note/);
    await page.keyboard.type('Two guides: meet at the kiosk');
    await tabTo(/^button\|Save note/);
    await page.keyboard.press('Enter');
    await dialog(page).getByText('Note saved.').waitFor();
    await page.screenshot({ path: resolve(import.meta.dirname, '../test-results/dashboard-departure-375.png'), fullPage: true });
    expect((await api(`/v1/slots/${slot.id}`)).data).toMatchObject({ capacity: 30, capacityOverride: 30, note: 'Two guides: meet at the kiosk', closed: false });

    // Escape closes it, and focus goes back to the slot.
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog(page).count()).toBe(0);
    await expect.poll(focused).toMatch(/^button\|.*30/);

    // Today shows the note.
    await page.goto(`${outing.origin}/dashboard?date=${slotDate}`);
    await page.getByText('Two guides: meet at the kiosk').waitFor();

    // An extra departure on the slot's date, at a time the schedule does not have.
    const before = await dayOf(slotDate);
    const extra = ['06:05', '06:10', '06:15'].find((t) => !before.some((s) => s.startTime.includes(`T${t}`)))!;
    await page.goto(`${outing.origin}/dashboard/calendar?week=${mondayOf(slotDate)}`);
    await slotButton(page).waitFor();
    const add = page.getByRole('region', { name: walk.name }).locator(`#add-${walk.id}-${slotDate}`);
    await add.focus();
    await page.keyboard.press('Enter');
    await dialog(page).getByLabel('Time').waitFor();
    await clean('add departure dialog');
    await dialog(page).getByLabel('Time').fill(extra);
    await page.keyboard.press('Enter');
    await expect.poll(() => dialog(page).count()).toBe(0);
    await expect.poll(async () => (await dayOf(slotDate)).length).toBe(before.length + 1);
    const schedule = (await api<{ schedule: { exceptions: { date: string; times: string[] }[] } }>(`/v1/experiences/${walk.id}`)).data.schedule;
    expect(schedule.exceptions.find((x) => x.date === slotDate)?.times).toContain(extra);
    expect(unexpected(problems)).toEqual([]);
    await page.context().close();
  });
});
