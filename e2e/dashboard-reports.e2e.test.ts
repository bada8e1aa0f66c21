import { mkdir, readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { violations } from './axe.js';
import { apiAs, dashboardPage, heading, openSignedIn, overflow, ownerOf, unexpected, type Owner } from './dashboard-helpers.js';
import type { OutingServer } from './outing-server.js';
import { useOutingAndChromium } from './suite.js';

/**
 * Lists and reports in real Chromium over the demo's bookings (`outing serve --demo`): the Bookings
 * list sorted by its column headers, and Insights over a chosen range with its figures per
 * experience, each compared with what the API answers; by keyboard alone, axe-clean, at 375 px.
 */
const artifacts = resolve(import.meta.dirname, '../test-results');
const suite = useOutingAndChromium();
let outing: OutingServer;
let browser: Browser;
let owner: Owner;
/** Today in the organization's zone, as the reports count days. */
let today: string;

interface Listed {
  bookingNumber: string;
}
interface PerExperience {
  experience: { id: string; title: string };
  bookings: number;
  participants: number;
  revenue: string;
  cancellations: number;
}

const api = <T>(path: string) => apiAs<T>(outing, path);
const euros = (amount: string) => new Intl.NumberFormat('en-US', { style: 'currency', currency: 'EUR' }).format(Number(amount));
const addDays = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

beforeAll(async () => {
  ({ outing, browser } = suite());
  await mkdir(artifacts, { recursive: true });
  owner = ownerOf(outing);
  today = (await api<{ endDate: string }>('/v1/reports/experiences')).data.endDate;
});

/** The booking numbers of the list on screen, in its order. */
const numbersOnScreen = (page: Page) => page.locator('table.bk-records tbody tr a.number').allInnerTexts();
/** The first page of the API's list in an order, from today. */
const numbersOf = async (sort: string) =>
  (await api<Listed[]>(`/v1/bookings?startDate=${today}&sort=${sort}&limit=20`)).data.map((b) => b.bookingNumber);
const sortOf = (page: Page, name: string) => page.getByRole('columnheader', { name }).getAttribute('aria-sort');

/** What has focus, and whether its outline shows. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLElement;
    const style = getComputedStyle(el);
    return `${el.tagName.toLowerCase()}|${el.textContent?.trim().slice(0, 40)}|${style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2}`;
  });
/** Tabs forward until `wanted` has focus, every stop on the way visibly focused. */
async function tabTo(page: Page, wanted: RegExp): Promise<void> {
  for (let i = 0; i < 80; i++) {
    await page.keyboard.press('Tab');
    const at = await focused(page);
    if (!at.startsWith('body')) expect(at, 'focus visible').toMatch(/\|true$/);
    if (wanted.test(at)) return;
  }
  throw new Error(`Tab never reached ${wanted}`);
}

describe('the Bookings list, sorted by its headers', () => {
  it('opens on upcoming bookings soonest first, and sorts by Time and Booked by keyboard, as the API sorts them', async () => {
    for (const width of [1280, 375]) {
      const { page, problems } = await dashboardPage(browser, { viewport: { width, height: 900 } });
      await openSignedIn(page, outing, owner, '/dashboard/bookings', 'Bookings');
      await expect.poll(() => page.getByRole('status').innerText()).toMatch(/^\d+ upcoming bookings?$/);
      expect(await page.getByLabel('From', { exact: true }).inputValue()).toBe(today);
      expect(await sortOf(page, 'Time')).toBe('ascending');
      expect(await sortOf(page, 'Booked')).toBeNull();
      expect(await numbersOnScreen(page)).toEqual(await numbersOf('startTime'));
      expect(await numbersOnScreen(page)).not.toEqual([]);

      // By keyboard: along the form to the Time header, which reverses the order.
      await page.locator('h1#heading').focus();
      await tabTo(page, /^button\|Time/);
      await page.keyboard.press('Enter');
      await expect.poll(() => sortOf(page, 'Time')).toBe('descending');
      await expect.poll(() => numbersOnScreen(page)).toEqual(await numbersOf('-startTime'));
      expect(new URL(page.url()).searchParams.get('sort')).toBe('-startTime');
      // Focus stays on the header's button; the next one sorts by when they were booked.
      expect(await focused(page)).toMatch(/^button\|Time/);
      await page.keyboard.press('Tab');
      expect(await focused(page)).toMatch(/^button\|Booked/);
      await page.keyboard.press('Space');
      await expect.poll(() => sortOf(page, 'Booked')).toBe('ascending');
      expect(await sortOf(page, 'Time')).toBeNull();
      await expect.poll(() => numbersOnScreen(page)).toEqual(await numbersOf('createdAt'));
      await page.keyboard.press('Enter');
      await expect.poll(() => sortOf(page, 'Booked')).toBe('descending');
      await expect.poll(() => numbersOnScreen(page)).toEqual(await numbersOf('-createdAt'));
      // The order is in the address: a reload keeps it; Back returns to the one before.
      await page.reload();
      await expect.poll(() => sortOf(page, 'Booked')).toBe('descending');
      await page.goBack();
      await expect.poll(() => sortOf(page, 'Booked')).toBe('ascending');

      expect(await overflow(page), `${width}px bookings`).toBeLessThanOrEqual(0);
      await page.screenshot({ path: `${artifacts}/dashboard-bookings-sorted-${width}.png`, fullPage: true });
      expect(unexpected(problems, 401)).toEqual([]);
      await page.context().close();
    }
  });
});

describe('Insights over a chosen range', () => {
  const open = (page: Page, path = '/dashboard/insights') => openSignedIn(page, outing, owner, path, 'Insights');
  const perExperienceTable = (page: Page) => page.getByRole('table', { name: 'Bookings, guests, revenue and cancellations per experience' });

  it('refuses a bad range beside its fields, then shows the figures per experience of a good one, as the API gives them', async () => {
    const { page, problems, requests } = await dashboardPage(browser);
    await open(page);
    await page.getByRole('region', { name: 'Revenue per experience' }).waitFor();
    expect(await page.getByLabel('From', { exact: true }).inputValue()).toBe(addDays(today, -29));
    expect(await page.getByLabel('To', { exact: true }).inputValue()).toBe(today);

    // To before From: said next to To, which takes focus; nothing asked.
    const asked = requests.length;
    await page.getByLabel('From', { exact: true }).fill(addDays(today, -5));
    await page.getByLabel('To', { exact: true }).fill(addDays(today, -10));
    await page.getByRole('button', { name: 'Show figures' }).click();
    await expect.poll(() => page.getByLabel('To', { exact: true }).getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator('#endDate-error').innerText()).toBe('“To” must be the same day as “From” or later.');
    await expect.poll(() => focused(page)).toMatch(/^input\|/);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('endDate');
    // More than 366 days.
    await page.getByLabel('From', { exact: true }).fill(addDays(today, -400));
    await page.getByLabel('To', { exact: true }).fill(today);
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('#endDate-error').innerText()).toBe(`At most 366 days after “From”: ${addDays(today, -34)} or earlier.`);
    expect(requests.length).toBe(asked);

    // A good range: its address, and every figure the API's.
    const from = addDays(today, -13);
    await page.getByLabel('From', { exact: true }).fill(from);
    await page.getByLabel('To', { exact: true }).fill(today);
    await page.getByRole('button', { name: 'Show figures' }).click();
    await expect.poll(() => new URL(page.url()).search).toBe(`?startDate=${from}&endDate=${today}`);
    await expect.poll(() => page.getByRole('img', { name: 'Bookings per day' }).locator('rect').count()).toBe(14);
    expect(await page.getByLabel('To', { exact: true }).getAttribute('aria-invalid')).toBeNull();
    const report = (await api<{ experiences: PerExperience[] }>(`/v1/reports/experiences?startDate=${from}&endDate=${today}`)).data.experiences;
    expect(report.length).toBeGreaterThan(0);
    const rows = await perExperienceTable(page)
      .locator('tbody tr')
      .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('th, td')].map((c) => (c as HTMLElement).innerText)));
    expect(rows).toEqual(
      report.map((e) => [e.experience.title, String(e.bookings), String(e.participants), euros(e.revenue), String(e.cancellations)]),
    );
    // The bars beside their amounts, highest first.
    const bars = await page.getByRole('region', { name: 'Revenue per experience' }).locator('.meters li').allInnerTexts();
    expect(bars.map((b) => b.split('\n')[0])).toEqual(report.map((e) => e.experience.title));

    // Both files, named after the range, as the API writes them.
    for (const [button, name] of [
      ['Download daily CSV', `daily-${from}-${today}.csv`],
      ['Download per-experience CSV', `experiences-${from}-${today}.csv`],
    ] as const) {
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: button }).click()]);
      expect(download.suggestedFilename()).toBe(name);
      const text = await readFile((await download.path())!, 'utf8');
      const res = await fetch(`${outing.origin}/v1/reports/${name.startsWith('daily') ? 'daily' : 'experiences'}.csv?startDate=${from}&endDate=${today}`, {
        headers: { authorization: `Bearer ${outing.secretKey}` },
      });
      expect(text).toBe(await res.text());
    }
    expect(unexpected(problems, 401)).toEqual([]);
    await page.context().close();
  });

  it('is used by keyboard alone: the range, the per-experience table and the downloads, focus always visible', async () => {
    const { page, problems } = await dashboardPage(browser);
    await open(page);
    await page.getByRole('region', { name: 'Revenue per experience' }).waitFor();
    await page.locator('h1#heading').focus();
    await tabTo(page, /^input\|/);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('startDate');
    // A date field's segments follow the browser's locale: the value is set on the focused field, Enter submits.
    await page.getByLabel('From', { exact: true }).fill(addDays(today, -6));
    await page.keyboard.press('Enter');
    await expect.poll(() => new URL(page.url()).searchParams.get('startDate')).toBe(addDays(today, -6));
    await expect.poll(() => page.getByRole('img', { name: 'Bookings per day' }).locator('rect').count()).toBe(7);
    // The per-experience table's box takes focus (it scrolls sideways on a phone), then the downloads.
    // Focus stayed in the fields (the form is not made anew for its own range).
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('startDate');
    await tabTo(page, /^div\|Bookings, guests, revenue and cancellati/);
    await tabTo(page, /^button\|Download daily CSV/);
    const [download] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('Enter')]);
    expect(download.suggestedFilename()).toBe(`daily-${addDays(today, -6)}-${today}.csv`);
    expect(unexpected(problems, 401)).toEqual([]);
    await page.context().close();
  });

  it('has no axe-core WCAG 2.2 A/AA violation and fits 375 px, with a refused range and a chosen one', async () => {
    for (const width of [1280, 375]) {
      const { page, problems } = await dashboardPage(browser, { bypassCSP: true, viewport: { width, height: 900 } });
      await open(page, `/dashboard/insights?startDate=${addDays(today, -13)}&endDate=${today}`);
      await page.getByRole('region', { name: 'Revenue per experience' }).waitFor();
      expect(await violations(page, 'html'), `insights over a range at ${width}px`).toEqual([]);
      expect(await overflow(page), `${width}px insights over a range`).toBeLessThanOrEqual(0);
      await page.getByLabel('To', { exact: true }).fill(addDays(today, -20));
      await page.getByRole('button', { name: 'Show figures' }).click();
      await page.locator('#endDate-error').waitFor();
      expect(await violations(page, 'html'), `insights with a refused range at ${width}px`).toEqual([]);
      expect(await overflow(page), `${width}px insights with a refused range`).toBeLessThanOrEqual(0);
      await page.screenshot({ path: `${artifacts}/dashboard-insights-range-${width}.png`, fullPage: true });

      await page.goto(`${outing.origin}/dashboard/bookings?startDate=any&sort=-createdAt`);
      await heading(page, 'Bookings');
      await expect.poll(() => sortOf(page, 'Booked')).toBe('descending');
      expect(await violations(page, 'html'), `bookings sorted at ${width}px`).toEqual([]);
      expect(await overflow(page), `${width}px bookings sorted`).toBeLessThanOrEqual(0);
      expect(unexpected(problems, 401)).toEqual([]);
      await page.context().close();
    }
  });
});
