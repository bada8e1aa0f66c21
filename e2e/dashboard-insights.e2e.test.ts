import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { violations } from './axe.js';
import { apiAs, dashboardPage, heading, openSignedIn, overflow, ownerOf, unexpected, type Owner, keyboardOf } from './dashboard-helpers.js';
import type { OutingServer } from './outing-server.js';
import { useOutingAndChromium } from './suite.js';

/**
 * Insights in real Chromium over the demo's month of bookings (`outing serve --demo` seeds it):
 * the figures on screen are the API's own, and the screen reads, works and fits as the others do.
 */
const artifacts = resolve(import.meta.dirname, '../test-results');
const suite = useOutingAndChromium();
let outing: OutingServer;
let browser: Browser;
let owner: Owner;

interface Day {
  date: string;
  bookings: number;
  participants: number;
  revenue: string;
  cancellations: number;
}
interface Occupancy {
  experience: { id: string; title: string };
  slots: number;
  capacity: number;
  booked: number;
  occupancy: number;
}
let daily: { timezone: string; currency: string; days: Day[] };
let past: Occupancy[];

const euros = (amount: number) => new Intl.NumberFormat('en-US', { style: 'currency', currency: 'EUR' }).format(amount);

beforeAll(async () => {
  ({ outing, browser } = suite());
  await mkdir(artifacts, { recursive: true });
  owner = ownerOf(outing);
  daily = (await apiAs<typeof daily>(outing, '/v1/reports/daily')).data;
  const first = daily.days[0]!.date;
  const last = daily.days.at(-1)!.date;
  past = (await apiAs<{ experiences: Occupancy[] }>(outing, `/v1/reports/occupancy?startDate=${first}&endDate=${last}`)).data.experiences;
});

const open = (page: Page) => openSignedIn(page, outing, owner, '/dashboard/insights', 'Insights');
const figuresReady = (page: Page) => page.getByRole('img', { name: 'Bookings per day' }).waitFor();

describe('Insights', () => {
  it('shows the totals and the days of GET /v1/reports/daily, and the occupancy of GET /v1/reports/occupancy', async () => {
    const { page, problems, requests } = await dashboardPage(browser);
    await openSignedIn(page, outing, owner, '/dashboard', 'Today');
    // From the navigation, as a person gets there.
    await page.getByRole('link', { name: 'Insights' }).click();
    await heading(page, 'Insights');
    await figuresReady(page);
    expect(new URL(page.url()).pathname).toBe('/dashboard/insights');
    // The days, the same days per experience, their occupancy and that of the 30 after them.
    const calls = requests.filter((r) => r.includes('/v1/reports/'));
    expect(calls).toHaveLength(4);

    // The demo has a month of bookings: the figures are not zero, and they are the API's.
    const sum = (f: (d: Day) => number) => daily.days.reduce((n, d) => n + f(d), 0);
    const totals = {
      Bookings: String(sum((d) => d.bookings)),
      Guests: String(sum((d) => d.participants)),
      Revenue: euros(sum((d) => Math.round(Number(d.revenue) * 100)) / 100),
      Cancellations: String(sum((d) => d.cancellations)),
    };
    expect(sum((d) => d.bookings)).toBeGreaterThan(50);
    expect(daily.currency).toBe('EUR');
    const region = page.getByRole('region', { name: 'Totals' });
    for (const [name, value] of Object.entries(totals)) {
      expect(await region.locator('div').filter({ has: page.getByText(name, { exact: true }) }).locator('dd').innerText(), name).toBe(value);
    }

    // Both charts are images that sum themselves up; a column a day.
    for (const name of ['Bookings per day', 'Revenue per day']) {
      const chart = page.getByRole('img', { name });
      expect(await chart.locator('rect').count()).toBe(daily.days.length);
      expect(await chart.getAttribute('aria-describedby')).toBeTruthy();
    }
    const desc = await page.getByRole('img', { name: 'Bookings per day' }).locator('desc').textContent();
    expect(desc).toContain(`: ${totals.Bookings} in all`);
    expect(await page.getByRole('img', { name: 'Revenue per day' }).locator('desc').textContent()).toContain(`${totals.Revenue} in all`);

    // The table of every day, once opened, has the API's numbers, in euros, with readable dates.
    await page.getByText('Bookings and revenue per day as a table').click();
    const rows = page.locator('details.figures').first().locator('tbody tr');
    expect(await rows.count()).toBe(daily.days.length);
    const shown = await rows.evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('th, td')].map((c) => (c as HTMLElement).innerText)));
    daily.days.forEach((d, i) => {
      expect(shown[i]!.slice(1), d.date).toEqual([String(d.bookings), String(d.participants), euros(Number(d.revenue)), String(d.cancellations)]);
      expect(shown[i]![0]).toMatch(/^[A-Z][a-z]{2}, [A-Z][a-z]{2} \d{1,2}$/);
    });
    const foot = await page.locator('details.figures tfoot td').allInnerTexts();
    expect(foot).toEqual(Object.values(totals));

    // Occupancy: each active experience, with the share the API gives over the same days.
    await page.getByText('Occupancy as a table').click();
    const occupancy = await page
      .locator('details.figures')
      .nth(1)
      .locator('tbody tr')
      .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('th, td')].map((c) => (c as HTMLElement).innerText)));
    expect(occupancy.map((r) => r[0])).toEqual(past.map((o) => o.experience.title));
    past.forEach((o, i) => {
      expect(occupancy[i]![1]).toBe(`${Math.round(o.occupancy * 100)}%: ${o.booked} of ${o.capacity} places, ${o.slots} tours`);
    });
    // (Revenue per experience draws bars of the same kind, in its own region.)
    const walk = page.getByRole('region', { name: 'Occupancy per experience' }).locator('.meters li').filter({ hasText: 'Alfama Old Town Walk' });
    expect(await walk.locator('.meter-value').first().innerText()).toBe(`${Math.round(past[0]!.occupancy * 100)}%`);

    expect(unexpected(problems, 401)).toEqual([]);
    await page.context().close();
  });

  it('is used by keyboard alone: to the screen, into both tables, focus always visible', async () => {
    const { page, problems } = await dashboardPage(browser);
    await openSignedIn(page, outing, owner, '/dashboard', 'Today');
    const { focused, tabTo } = keyboardOf(page);
    await page.locator('h1#heading').focus();
    await page.keyboard.press('Shift+Tab');
    // Back up to the navigation, then along it.
    for (let i = 0; i < 30 && !/^a\|Insights/.test(await focused()); i++) await page.keyboard.press('Shift+Tab');
    expect(await focused()).toMatch(/^a\|Insights\|true$/);
    await page.keyboard.press('Enter');
    await heading(page, 'Insights');
    await figuresReady(page);

    await tabTo(/^summary\|Bookings and revenue per day as a table/);
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('details.figures').first().getAttribute('open')).not.toBeNull();
    await tabTo(/^summary\|Occupancy as a table/);
    await page.keyboard.press('Space');
    await expect.poll(() => page.locator('details.figures').nth(1).getAttribute('open')).not.toBeNull();
    // And closed again.
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('details.figures').nth(1).getAttribute('open')).toBeNull();
    expect(unexpected(problems, 401)).toEqual([]);
    await page.context().close();
  });

  it('has no axe-core WCAG 2.2 A/AA violation, with its tables closed and open, wide and narrow', async () => {
    for (const width of [1280, 375]) {
      const { page, problems } = await dashboardPage(browser, { bypassCSP: true, viewport: { width, height: 900 } });
      await open(page);
      await figuresReady(page);
      expect(await violations(page, 'html'), `insights at ${width}px`).toEqual([]);
      for (const summary of await page.locator('details.figures > summary').all()) await summary.click();
      // On a phone the daily table scrolls sideways in its own box, which takes focus for the keyboard.
      expect(await violations(page, 'html'), `insights with its tables open at ${width}px`).toEqual([]);
      expect(unexpected(problems, 401)).toEqual([]);
      await page.context().close();
    }
  });

  it('fits 375 px without horizontal scrolling; screenshots at 375 and 1280 px in test-results/', async () => {
    for (const width of [375, 1280]) {
      const { page, problems } = await dashboardPage(browser, { viewport: { width, height: 900 } });
      await open(page);
      await figuresReady(page);
      expect(await overflow(page), `${width}px insights`).toBeLessThanOrEqual(0);
      // The chart stretches to the width it has.
      const box = (await page.getByRole('img', { name: 'Bookings per day' }).boundingBox())!;
      expect(box.width).toBeGreaterThan(width === 375 ? 250 : 600);
      await page.screenshot({ path: `${artifacts}/dashboard-insights-${width}.png`, fullPage: true });
      for (const summary of await page.locator('details.figures > summary').all()) await summary.click();
      expect(await overflow(page), `${width}px insights with its tables open`).toBeLessThanOrEqual(0);
      await page.screenshot({ path: `${artifacts}/dashboard-insights-tables-${width}.png`, fullPage: true });
      expect(unexpected(problems, 401)).toEqual([]);
      await page.context().close();
    }
  });
});
