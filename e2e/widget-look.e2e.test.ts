/**
 * The widget's look, as a guest sees it inline on the demo page at 375 and 1280 px: a screenshot
 * of every step into test-results/widget-look/ (the tickets' two copied into docs/), and the
 * geometry that makes a layout regression show without comparing pixels (fonts differ between
 * machines): each ticket category on one row with its stepper, no horizontal scrolling, a short
 * summary card, a heading per step.
 */
import { copyFile, mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Experience } from '../shared/index.js';
import { openPage } from './browser.js';
import { embedPage, startHostSite } from './host-page.js';
import type { OutingServer } from './outing-server.js';
import { useOutingAndChromium } from './suite.js';
import { book, heading, pickExperience, pickFirstFreeDay, pickFirstTime, widgetOn } from './widget-steps.js';

const artifacts = resolve(import.meta.dirname, '../test-results/widget-look');
const docs = resolve(import.meta.dirname, '../docs');
const WORKSHOP = 'Pastel de Nata Workshop';

const suite = useOutingAndChromium();
let outing: OutingServer;
let browser: Browser;
let workshopId: string;

beforeAll(async () => {
  ({ outing, browser } = suite());
  await mkdir(artifacts, { recursive: true });
  const headers = { Authorization: `Bearer ${outing.secretKey}`, 'Content-Type': 'application/json' };
  const list = (await (await fetch(`${outing.origin}/v1/experiences?limit=100`, { headers })).json()) as { data: Experience[] };
  const workshop = list.data.find((e) => e.name === WORKSHOP)!;
  workshopId = workshop.id;
  // Sold in three categories, the case whose rows the look is about.
  const res = await fetch(`${outing.origin}/v1/experiences/${workshop.id}`, {
    method: 'PATCH',
    headers,
    body: JSON.stringify({
      maxParticipants: 40,
      priceCategories: [
        { name: 'Adult', price: 2500, type: 'ADULT' },
        { name: 'Child', price: 1200, type: 'CHILD', minAge: 4, maxAge: 17 },
        { name: 'Infant', price: 0, type: 'INFANT', occupiesPlace: false, maxAge: 2 },
      ],
    }),
  });
  expect(res.status).toBe(200);
});

/** How far the page scrolls sideways (WCAG 1.4.10 reflow). */
const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

async function box(l: Locator): Promise<{ x: number; y: number; width: number; height: number }> {
  const b = await l.boundingBox();
  if (!b) throw new Error('not shown');
  return b;
}

/** Each category's name and its stepper share a row: their boxes overlap vertically, the stepper on the right. */
async function expectRows(w: Locator, label: string, tallest: number): Promise<void> {
  const rows = w.locator('.ticket');
  expect(await rows.count(), label).toBe(3);
  for (const row of await rows.all()) {
    const name = await box(row.locator('label'));
    const stepper = await box(row.locator('.stepper'));
    expect(stepper.y, `${label}: the stepper starts above the name's end`).toBeLessThan(name.y + name.height);
    expect(name.y, `${label}: the name starts above the stepper's end`).toBeLessThan(stepper.y + stepper.height);
    expect(stepper.x, `${label}: the stepper right of the name`).toBeGreaterThanOrEqual(name.x + name.width - 1);
    // A compact row: not much taller than the stepper itself (at 320 px the price may wrap under the name).
    expect((await box(row)).height, `${label}: row height`).toBeLessThan(stepper.height * tallest);
  }
}

/**
 * Walks `w` from the experiences to the confirmation at `width`, checking each step and saving its
 * screenshot as `{prefix}{step}-{width}.png` (of `shoot`, the widget or the whole viewport).
 */
async function walk(page: Page, w: Locator, width: number, prefix: string, shoot: { screenshot(o: { path: string }): Promise<unknown> }): Promise<void> {
  const shot = async (step: string) => {
    expect(await overflow(page), `${prefix}${width}px ${step}`).toBeLessThanOrEqual(0);
    // A step names itself in a heading, with the step's position above it.
    await expect.poll(() => w.locator('h2').count()).toBe(1);
    expect(await w.locator('.position').innerText()).toMatch(/^Step \d of \d$/i);
    await shoot.screenshot({ path: `${artifacts}/${prefix}${step}-${width}.png` });
  };
  await heading(w, 'Choose an experience');
  await w.locator('.card').first().waitFor();
  await shot('experiences');
  await pickExperience(w, WORKSHOP);
  await w.locator('button.day.free').first().waitFor();
  await shot('calendar');
  await pickFirstFreeDay(w);
  await shot('times');
  await pickFirstTime(w);
  await w.getByRole('group', { name: 'Tickets' }).waitFor();
  await w.getByRole('button', { name: 'Child: one ticket more' }).click();
  await shot('tickets');
  await expectRows(w, `${prefix}${width}px`, width < 375 ? 2.4 : 1.8);
  // The summary above the tickets: a card of two or three short lines, not a page of its own.
  expect((await box(w.locator('.summary'))).height, `${prefix}${width}px summary`).toBeLessThan(140);
  await w.getByLabel('Name', { exact: true }).fill('Ana Look');
  await w.getByLabel('E-mail', { exact: true }).fill('ana.look@example.com');
  await book(w);
  expect((await box(w.locator('.summary'))).height, `${prefix}${width}px confirmation summary`).toBeLessThan(200);
  await shot('confirmation');
}

describe('the widget’s look on the demo page', () => {
  it('shows every step inline at 320, 375 and 1280 px: headings, compact ticket rows, a short summary, no sideways scrolling', async () => {
    for (const width of [320, 375, 1280]) {
      const { page, problems } = await openPage(browser, { viewport: { width, height: 900 } });
      await page.goto(`${outing.origin}/demo`);
      const w = widgetOn(page);
      await walk(page, w, width, '', w);
      expect(problems).toEqual([]);
      await page.context().close();
    }
    for (const width of [375, 1280]) await copyFile(`${artifacts}/tickets-${width}.png`, `${docs}/widget-tickets-${width}.png`);
  });

  // The same steps in the Book-now dialog, where the demo page has a Book-now button (a page's own
  // button with data-outing-button, which opens the widget in a dialog): screenshots of the whole viewport.
  it('shows every step in the Book-now dialog at 375 and 1280 px', async (ctx) => {
    for (const width of [375, 1280]) {
      const { page, problems } = await openPage(browser, { viewport: { width, height: 900 } });
      await page.goto(`${outing.origin}/demo`);
      await widgetOn(page).locator('.card').first().waitFor();
      const trigger = page.locator('[data-outing-button]').first();
      if (!(await trigger.count())) {
        await page.context().close();
        return ctx.skip();
      }
      await trigger.click();
      const w = page.locator('outing-dialog');
      await walk(page, w, width, 'dialog-', page);
      expect(problems).toEqual([]);
      await page.context().close();
    }
  });

  it('follows the page’s --outing-accent, --outing-radius and --outing-font', async () => {
    const host = await startHostSite();
    const theme = '[data-outing] { --outing-accent: #7a1f5c; --outing-radius: 0; --outing-font: Georgia, serif; }';
    const html = embedPage(outing.origin, { key: outing.publishableKey, experience: workshopId, locale: 'en' });
    const { page, problems } = await openPage(browser, { viewport: { width: 375, height: 900 } });
    await page.goto(host.page('/themed', html.replace('</head>', `<style>${theme}</style></head>`)));
    const w = widgetOn(page);
    await pickFirstFreeDay(w);
    await pickFirstTime(w);
    await w.getByRole('group', { name: 'Tickets' }).waitFor();
    const style = (selector: string, names: string[]) =>
      w.locator(selector).first().evaluate((el, names) => names.map((n) => getComputedStyle(el).getPropertyValue(n)), names);
    expect(await style('.outing', ['font-family'])).toEqual(['Georgia, serif']);
    expect(await style('button.primary', ['background-color', 'border-top-left-radius'])).toEqual(['rgb(122, 31, 92)', '0px']);
    expect(await style('.brief', ['border-top-left-radius'])).toEqual(['0px']);
    expect(await style('.stepper button', ['color', 'border-top-color'])).toEqual(['rgb(122, 31, 92)', 'rgb(122, 31, 92)']);
    await expectRows(w, 'themed', 1.8);
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    await w.screenshot({ path: `${artifacts}/tickets-themed-375.png` });
    expect(problems).toEqual([]);
    await page.context().close();
    await host.stop();
  });
});
