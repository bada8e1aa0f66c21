import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { violations } from './axe.js';
import { launchChromium, openPage } from './browser.js';
import { startOuting } from './outing-server.js';
import type { OutingServer } from './outing-server.js';
import { book, fillDetails, heading, pickExperience, pickFirstFreeDay, pickFirstTime, widgetOn } from './widget-steps.js';

const artifacts = resolve(import.meta.dirname, '../test-results');

let outing: OutingServer;
let browser: Browser;

beforeAll(async () => {
  await mkdir(artifacts, { recursive: true });
  outing = await startOuting();
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await outing?.stop();
});

/** No horizontal scrolling of the page (WCAG 1.4.10 reflow at 320 CSS px). */
function overflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
}

describe('accessibility', () => {
  it('has no axe-core WCAG 2.2 A/AA violation at any step', async () => {
    const { page, problems } = await openPage(browser, { bypassCSP: true });
    await page.goto(`${outing.origin}/demo`);
    const w = widgetOn(page);
    await heading(w, 'Choose an experience');
    expect(await violations(page), 'experiences').toEqual([]);
    // The demo page around it too.
    expect(await violations(page, 'body'), 'demo page').toEqual([]);

    await pickExperience(w, 'Alfama Old Town Walk');
    await w.locator('button.day.free').first().waitFor();
    expect(await violations(page), 'calendar').toEqual([]);

    await pickFirstFreeDay(w);
    expect(await violations(page), 'times').toEqual([]);

    await pickFirstTime(w);
    expect(await violations(page), 'details').toEqual([]);
    await w.getByRole('button', { name: 'Book', exact: true }).click();
    await w.getByText('Please fill this in.').first().waitFor();
    expect(await violations(page), 'details with errors').toEqual([]);

    await fillDetails(w, { name: 'Axe Checker', email: 'axe@example.com' });
    await book(w);
    expect(await violations(page), 'confirmation').toEqual([]);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('fits 320 CSS px without horizontal scrolling, and 1280 px; screenshots in test-results/', async () => {
    for (const width of [320, 1280]) {
      const { page } = await openPage(browser, { viewport: { width, height: 900 } });
      await page.goto(`${outing.origin}/demo`);
      const w = widgetOn(page);
      await heading(w, 'Choose an experience');
      expect(await overflow(page), `${width}px experiences`).toBeLessThanOrEqual(0);
      await page.screenshot({ path: `${artifacts}/demo-${width}.png`, fullPage: true });

      await pickExperience(w, 'Sunset Sail on the Tagus');
      await w.locator('button.day.free').first().waitFor();
      expect(await overflow(page), `${width}px calendar`).toBeLessThanOrEqual(0);
      await w.screenshot({ path: `${artifacts}/widget-calendar-${width}.png` });

      await pickFirstFreeDay(w);
      expect(await overflow(page), `${width}px times`).toBeLessThanOrEqual(0);
      await w.screenshot({ path: `${artifacts}/widget-times-${width}.png` });

      await pickFirstTime(w);
      await w.getByRole('button', { name: 'Book', exact: true }).click();
      await w.getByText('Please fill this in.').first().waitFor();
      expect(await overflow(page), `${width}px details`).toBeLessThanOrEqual(0);
      await w.screenshot({ path: `${artifacts}/widget-details-${width}.png` });

      await fillDetails(w, { name: 'Narrow Screen', email: 'a.rather.long.address.for.a.narrow.screen@example.com' });
      await book(w);
      expect(await overflow(page), `${width}px confirmation`).toBeLessThanOrEqual(0);
      await w.screenshot({ path: `${artifacts}/widget-confirmation-${width}.png` });
      await page.context().close();
    }
  });
});
