import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { violations } from './axe.js';
import { apiAs, dashboardPage, heading, openSignedIn, overflow, ownerOf, unexpected, type Owner } from './dashboard-helpers.js';
import type { OutingServer } from './outing-server.js';
import { useOutingAndChromium } from './suite.js';

/**
 * The Experiences and Calendar screens in real Chromium against `outing serve --demo`: an
 * experience made and changed in the browser, read back field by field through the API; its next
 * slots compared with GET /v1/availability; the embed snippet copied; a week of the Calendar
 * followed to a day's guests.
 */
const artifacts = resolve(import.meta.dirname, '../test-results');
const suite = useOutingAndChromium();
let outing: OutingServer;
let browser: Browser;
let owner: Owner;

const api = <T = any>(path: string, init: RequestInit = {}) => apiAs<T>(outing, path, init);
const dayOf = (d: Date) => `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
const addDays = (date: string, n: number) => new Date(Date.parse(`${date}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
/** The Monday of `date`'s week, as the Calendar reckons it. */
const mondayOf = (date: string) => addDays(date, -((new Date(`${date}T00:00:00Z`).getUTCDay() + 6) % 7));
const lisbonDate = (instant: string) => new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Lisbon' }).format(new Date(instant));

/** Next week (the browser's "this week" plus seven days) and a Sunset Sail slot in it with two guests. */
let nextMonday: string;
let sail: { id: string; startTime: string; date: string };

beforeAll(async () => {
  ({ outing, browser } = suite());
  await mkdir(artifacts, { recursive: true });
  owner = ownerOf(outing);
  nextMonday = addDays(mondayOf(dayOf(new Date())), 7);
  const sunset = (await api<{ id: string; name: string }[]>('/v1/experiences')).data.find((x) => x.name === 'Sunset Sail on the Tagus')!;
  const { data } = await api<{ slots: { startTime: string }[] }>(`/v1/availability?experienceId=${sunset.id}&startDate=${nextMonday}&endDate=${addDays(nextMonday, 6)}`);
  const slot = data.slots[0]!;
  const booked = await api('/v1/bookings', {
    method: 'POST',
    body: JSON.stringify({ experienceId: sunset.id, startTime: slot.startTime, participants: 2, customerName: 'Inês Calado', customerEmail: 'ines@example.com' }),
  });
  expect(booked.status).toBe(201);
  sail = { id: sunset.id, startTime: slot.startTime, date: lisbonDate(slot.startTime) };
});

const open = (page: Page, path: string, name?: string | RegExp) => openSignedIn(page, outing, owner, path, name);
/** The `datetime` of each slot the preview lists. */
const previewTimes = (page: Page) => page.getByRole('region', { name: 'Next slots' }).locator('li time').evaluateAll((els) => els.map((e) => e.getAttribute('datetime')));
const nextSlots = async (id: string) => (await api<{ slots: { startTime: string }[] }>(`/v1/availability?experienceId=${id}`)).data.slots.slice(0, 8).map((s) => s.startTime);

describe('the Experiences screens', () => {
  it('creates an experience with a schedule, edits it, previews its slots and copies its embed snippet', async () => {
    const { page, problems } = await dashboardPage(browser, { permissions: ['clipboard-read', 'clipboard-write'] });
    await open(page, '/dashboard/experiences', 'Experiences');
    await page.getByRole('link', { name: 'Alfama Old Town Walk' }).waitFor();
    await page.getByRole('link', { name: 'New experience' }).click();
    await heading(page, 'New experience');

    await page.getByLabel('Name').fill('Fado Night in Mouraria');
    await page.getByLabel('Description').fill('Three singers, two guitars, one small room.');
    await page.getByLabel('Duration').fill('75');
    await page.getByLabel('Price', { exact: true }).fill('32.50');
    await page.getByLabel('Maximum participants').fill('14');
    await page.getByLabel('Max per booking').fill('5');
    await page.getByLabel('Notice').fill('90');
    await page.getByLabel('Booking window').fill('120');
    await page.getByLabel('Time zone').selectOption('America/New_York');
    await page.getByRole('button', { name: 'Add time on Monday' }).click();
    await page.getByLabel('Monday, time 1').fill('14:30');
    await page.getByRole('button', { name: 'Add time on Monday' }).click();
    await page.getByLabel('Monday, time 2').fill('09:00');
    await page.getByRole('button', { name: 'Add time on Thursday' }).click();
    await page.getByLabel('Thursday, time 1').fill('18:00');
    const closed = addDays(nextMonday, 7);
    const special = addDays(nextMonday, 13);
    await page.getByRole('button', { name: 'Add exception' }).click();
    await page.locator(':focus').fill(special);
    await page.getByRole('button', { name: `Add time on Exception on ${special}` }).click();
    await page.locator(':focus').fill('11:00');
    await page.getByRole('button', { name: 'Add exception' }).click();
    await page.locator(':focus').fill(closed);
    await page.getByRole('group', { name: `Exception on ${closed}` }).getByText('Closed all day').waitFor();
    await page.getByRole('button', { name: 'Create experience' }).click();

    await heading(page, 'Fado Night in Mouraria');
    const id = /\/dashboard\/experiences\/(exp_\w+)$/.exec(page.url())?.[1];
    expect(id, page.url()).toBeTruthy();
    const created = await api(`/v1/experiences/${id}`);
    expect(created.status).toBe(200);
    const x = created.data;
    expect(x.name).toBe('Fado Night in Mouraria');
    expect(x.description).toBe('Three singers, two guitars, one small room.');
    expect(x.duration).toBe(75);
    expect(x.price).toBe(3250);
    expect(x.currency).toBe('EUR');
    expect(x.maxParticipants).toBe(14);
    expect(x.maxPerBooking).toBe(5);
    expect(x.minNoticeMinutes).toBe(90);
    expect(x.maxAdvanceDays).toBe(120);
    expect(x.active).toBe(true);
    expect(x.schedule).toEqual({
      timezone: 'America/New_York',
      weekly: { mon: ['09:00', '14:30'], thu: ['18:00'] },
      startDate: null,
      endDate: null,
      exceptions: [
        { date: closed, times: [] },
        { date: special, times: ['11:00'] },
      ],
    });

    // The preview is the server's own next slots, in the experience's zone.
    const preview = page.getByRole('region', { name: 'Next slots' });
    await expect.poll(async () => await previewTimes(page)).toEqual(await nextSlots(id!));
    expect(await preview.innerText()).toContain('America/New_York');

    // Edit: a refusal first (a party larger than the slot), shown by its field, then a good save.
    await page.getByLabel('Price', { exact: true }).fill('40');
    await page.getByLabel('Max per booking').fill('20');
    await page.getByRole('button', { name: 'Remove Thursday 18:00' }).click();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('region', { name: 'There is a problem' }).waitFor();
    expect(await page.getByLabel('Max per booking').getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator('#maxPerBooking-error').innerText()).toMatch(/maxParticipants|Maximum/i);
    // Nothing was lost to the refusal.
    expect(await page.getByLabel('Price', { exact: true }).inputValue()).toBe('40');
    expect(await page.getByLabel('Thursday, time 1').count()).toBe(0);
    await page.getByLabel('Max per booking').fill('5');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    const edited = (await api(`/v1/experiences/${id}`)).data;
    expect(edited.price).toBe(4000);
    expect(edited.maxPerBooking).toBe(5);
    expect(edited.schedule.weekly).toEqual({ mon: ['09:00', '14:30'] });
    expect(edited.schedule.exceptions).toHaveLength(2);
    await expect.poll(async () => await previewTimes(page)).toEqual(await nextSlots(id!));

    // The embed snippet holds the demo's publishable key by itself: "Copy" gives one that works.
    const embed = page.getByRole('region', { name: 'Embed' });
    await embed.getByRole('button', { name: 'Copy' }).click();
    await embed.getByText('Copied').waitFor();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toBe(
      `<div data-outing data-key="${outing.publishableKey}" data-experience="${id}"></div>\n<script src="${outing.origin}/widget.js" async></script>`,
    );

    // Back on the list, it is there, active.
    await page.getByRole('link', { name: 'All experiences' }).click();
    await heading(page, 'Experiences');
    const row = page.getByRole('listitem').filter({ has: page.getByRole('link', { name: 'Fado Night in Mouraria' }) });
    expect(await row.innerText()).toContain('Active');
    expect(unexpected(problems, 400, 401)).toEqual([]);
    await page.context().close();
  });

  it('edits a schedule by keyboard alone, with focus always visible', async () => {
    const { page, problems } = await dashboardPage(browser);
    const walk = (await api<{ id: string; name: string }[]>('/v1/experiences')).data.find((x) => x.name === 'Pastel de Nata Workshop')!;
    await open(page, `/dashboard/experiences/${walk.id}`, 'Pastel de Nata Workshop');
    const focusRing = () =>
      page.evaluate(() => {
        const el = document.activeElement as HTMLElement;
        const style = getComputedStyle(el);
        return `${el.tagName.toLowerCase()}#${el.id}|${el.textContent?.trim().slice(0, 30)}|${style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2}`;
      });
    const tabTo = async (wanted: RegExp, key = 'Tab') => {
      for (let i = 0; i < 80; i++) {
        await page.keyboard.press(key);
        const at = await focusRing();
        if (!at.startsWith('body')) expect(at, 'focus visible').toMatch(/\|true$/);
        if (wanted.test(at)) return;
      }
      throw new Error(`Tab never reached ${wanted}`);
    };
    await tabTo(/^button#add-wed\|/);
    await page.keyboard.press('Enter');
    // Focus is in the new time already: type it (hours, minutes, AM/PM in an en-US browser).
    expect(await focusRing()).toMatch(/^input#time-wed-\d+\|\|true$/);
    await page.keyboard.type('1030A');
    await tabTo(/^button#add-exception\|/);
    await page.keyboard.press('Space');
    expect(await focusRing()).toMatch(/^input#exception-\d+-date/);
    const closed = addDays(nextMonday, 8);
    const [y, m, d] = closed.split('-');
    await page.keyboard.type(`${m}${d}${y}`);
    await tabTo(/^button#\|Save changes/);
    await page.keyboard.press('Enter');
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    const saved = (await api(`/v1/experiences/${walk.id}`)).data;
    expect(saved.schedule.weekly.wed).toEqual(['10:30']);
    expect(saved.schedule.exceptions).toEqual([{ date: closed, times: [] }]);

    // The Calendar by keyboard: a slot, its manifest, then its day.
    await page.goto(`${outing.origin}/dashboard/calendar?week=${nextMonday}`);
    await heading(page, 'Calendar');
    await page.locator('button.cal-slot').first().waitFor();
    await tabTo(/^button#slot-ts_\w+\|.*\d+\/\d+/);
    await page.keyboard.press('Enter');
    await page.locator('dialog[open]').getByText(/places booked/).waitFor();
    await tabTo(/^a#\|Open the day on Today/);
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/dashboard\?date=\d{4}-\d{2}-\d{2}$/);
    expect(unexpected(problems, 401)).toEqual([]);
    await page.context().close();
  });
});

describe('the Calendar', () => {
  it('shows a week per experience with booked/capacity, moves by week, and opens a slot’s manifest and day', async () => {
    const { page, problems } = await dashboardPage(browser);
    await open(page, '/dashboard/calendar', 'Calendar');
    await page.getByRole('status').filter({ hasText: /slots? this week/ }).waitFor();
    await page.getByRole('link', { name: 'Next week' }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('week')).toBe(nextMonday);
    const region = page.getByRole('region', { name: 'Sunset Sail on the Tagus' });
    expect(await region.innerText()).toContain('Europe/Lisbon time');
    const slot = region.locator(`button.cal-slot:has(time[datetime="${sail.startTime}"])`);
    await expect.poll(() => slot.innerText()).toMatch(/2\/8/);
    // Every slot the API offers that week is there, each with its load.
    const { data } = await api<{ slots: { startTime: string; booked: number; capacity: number }[] }>(
      `/v1/availability?experienceId=${sail.id}&startDate=${nextMonday}&endDate=${addDays(nextMonday, 6)}`,
    );
    expect(await region.locator('button.cal-slot time').evaluateAll((els) => els.map((e) => e.getAttribute('datetime')))).toEqual(data.slots.map((s) => s.startTime));
    // A slot opens its manifest: its guests, and a link to its day.
    await slot.click();
    const manifest = page.locator('dialog[open]');
    await manifest.getByRole('link', { name: 'Inês Calado' }).waitFor();
    expect(await manifest.getByRole('link', { name: 'Open the day on Today' }).getAttribute('href')).toBe(`/dashboard?date=${sail.date}`);
    await manifest.getByRole('link', { name: 'Open the day on Today' }).click();
    await page.getByText('Inês Calado').waitFor();
    expect(new URL(page.url()).searchParams.get('date')).toBe(sail.date);
    // Back returns to the week.
    await page.goBack();
    await heading(page, 'Calendar');
    expect(new URL(page.url()).searchParams.get('week')).toBe(nextMonday);
    expect(unexpected(problems, 401)).toEqual([]);
    await page.context().close();
  });
});

describe('the Experiences and Calendar screens', () => {
  it('have no axe-core violation, fit 375 px without sideways scrolling, and are photographed at 375 and 1280 px', async () => {
    const walk = (await api<{ id: string; name: string }[]>('/v1/experiences')).data.find((x) => x.name === 'Alfama Old Town Walk')!;
    // One signed-in page, resized: a sign-in costs a password hash.
    const { page } = await dashboardPage(browser, { bypassCSP: true });
    await open(page, '/dashboard/experiences', 'Experiences');
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: 900 });
      // axe once per screen and state: at 375 px the markup is the same, only the layout changes.
      const check = async (what: string, shot: string) => {
        expect(await overflow(page), `${width}px ${what}`).toBeLessThanOrEqual(0);
        if (width === 1280) expect(await violations(page, 'html'), what).toEqual([]);
        await page.screenshot({ path: `${artifacts}/dashboard-${shot}-${width}.png`, fullPage: true });
      };
      await page.goto(`${outing.origin}/dashboard/experiences`);
      await page.getByRole('link', { name: 'Alfama Old Town Walk' }).waitFor();
      await check('list', 'experiences');
      await page.goto(`${outing.origin}/dashboard/experiences/new`);
      await heading(page, 'New experience');
      await page.getByRole('button', { name: 'Add time on Monday' }).click();
      await page.getByRole('button', { name: 'Add exception' }).click();
      await page.getByRole('button', { name: 'Create experience' }).click();
      await page.getByRole('region', { name: 'There is a problem' }).waitFor();
      await check('a new experience, refused in the browser', 'experience-new');
      await page.goto(`${outing.origin}/dashboard/experiences/${walk.id}`);
      await heading(page, 'Alfama Old Town Walk');
      await page.getByRole('region', { name: 'Next slots' }).locator('li').first().waitFor();
      await check('an experience with its next slots and embed snippet', 'experience');
      await page.goto(`${outing.origin}/dashboard/calendar?week=${nextMonday}`);
      await heading(page, 'Calendar');
      await page.locator('button.cal-slot').first().waitFor();
      await check('the calendar', 'calendar');
    }
    await page.context().close();
  });
});
