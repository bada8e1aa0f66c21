import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { violations } from './axe.js';
import { apiAs, signedInState, dashboardPage as watchedPage, keyboardOf, openSignedIn, overflow, ownerOf, unexpected, type Owner } from './dashboard-helpers.js';
import type { OutingServer } from './outing-server.js';
import { useOutingAndChromium } from './suite.js';

/**
 * Resellers in real Chromium against `outing serve --demo`, on a 320 px phone and by keyboard: an
 * owner makes a reseller (OCTO) key and reads the endpoint beside it, then filters Bookings by
 * source. Each page is checked with axe (WCAG 2.2 AA) and for sideways scrolling.
 */
const suite = useOutingAndChromium();
let outing: OutingServer;
let browser: Browser;
let owner: Owner;
let signedIn: BrowserContextOptions['storageState'];

const PHONE = { viewport: { width: 320, height: 720 } };
const api = <T = any>(path: string, init: RequestInit = {}) => apiAs<T>(outing, path, init);
/** A page of a browser already signed in as the owner, axe allowed in (bypassCSP). */
const dashboardPage = (options: BrowserContextOptions = {}) => watchedPage(browser, { storageState: signedIn, bypassCSP: true, ...options });
const clean = async (page: Page, what: string) => expect(await violations(page, 'html'), what).toEqual([]);

beforeAll(async () => {
  ({ outing, browser } = suite());
  owner = ownerOf(outing);
  signedIn = await signedInState(browser, outing, owner);
});

describe('resellers in the dashboard', () => {
  it('makes a reseller key by keyboard at 320 px: the secret and the OCTO endpoint shown once, the key tagged', async () => {
    const { page, problems } = await dashboardPage(PHONE);
    await openSignedIn(page, outing, owner, '/dashboard/settings/api-keys', 'Settings');
    await page.getByRole('heading', { level: 2, name: 'API keys' }).waitFor();
    await expect.poll(() => page.locator('.status-line').innerText()).not.toContain('Loading');
    await clean(page, 'API keys');
    expect(await overflow(page)).toBeLessThanOrEqual(0);

    const keys = keyboardOf(page);
    await keys.tabTo(/^input\|name\|/);
    await page.keyboard.type('Tours Market');
    await keys.tabTo(/^select\|Secret:/);
    // Typing a letter picks the option it starts: "Reseller (OCTO)".
    await page.keyboard.type('R');
    expect(await page.getByLabel('Type').inputValue()).toBe('reseller');
    await keys.tabTo(/^button\|Create key\|/);
    await page.keyboard.press('Enter');

    const panel = page.getByRole('group', { name: 'Your new reseller key “Tours Market”' });
    await panel.waitFor();
    const secret = await panel.getByRole('textbox', { name: 'Secret key' }).inputValue();
    expect(secret).toMatch(/^osk_/);
    expect(await panel.getByRole('textbox', { name: 'OCTO endpoint' }).inputValue()).toBe(`${outing.origin}/octo`);
    expect(await panel.innerText()).toContain('Send the reseller both');
    // From the panel's heading, Tab reaches each value and its Copy button in turn.
    await page.keyboard.press('Tab');
    expect(await keys.focused()).toMatch(/^input\|/);
    await keys.tabTo(/^button\|Copy\|true/);
    await keys.tabTo(/^input\|/);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('revealed-beside');
    await clean(page, 'the new reseller key');
    expect(await overflow(page)).toBeLessThanOrEqual(0);

    // What was made: a secret key holding the OCTO scope alone.
    const listed = (await api<{ name: string; type: string; scopes: string[]; prefix: string }[]>('/v1/api-keys')).data.find((k) => k.name === 'Tours Market')!;
    expect(listed).toMatchObject({ type: 'secret', scopes: ['octo'] });
    expect(secret.startsWith(listed.prefix)).toBe(true);
    // It reaches nothing of /v1.
    const v1 = await fetch(`${outing.origin}/v1/bookings`, { headers: { authorization: `Bearer ${secret}` } });
    expect(v1.status).toBe(403);

    await keys.tabTo(/^button\|I have copied it\|/);
    await page.keyboard.press('Enter');
    await expect.poll(() => panel.count()).toBe(0);
    const card = page.getByRole('heading', { name: 'Tours Market Reseller' }).locator('..');
    expect(await card.innerText()).toContain('Reseller bookings (OCTO)');
    await clean(page, 'the list with a reseller key');
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    expect(unexpected(problems)).toEqual([]);
    await page.context().close();
  });

  it('filters Bookings by source by keyboard at 320 px, the source in the address and on each booking', async () => {
    const { page, problems } = await dashboardPage(PHONE);
    await openSignedIn(page, outing, owner, '/dashboard/bookings?startDate=any', 'Bookings');
    await page.locator('table.bk-records').waitFor();
    const keys = keyboardOf(page);

    // The demo's bookings came through the widget and by phone (the API): Widget shows only the former.
    await keys.tabTo(/^select\|Any source/);
    await page.keyboard.type('W');
    await keys.tabTo(/^button\|Show bookings\|/);
    await page.keyboard.press('Enter');
    await page.waitForURL(/source=WIDGET/);
    await expect.poll(() => page.getByRole('status').first().innerText()).toMatch(/bookings? match/);
    const sources = await page.locator('td[data-label="Source"]').allInnerTexts();
    expect(sources.length).toBeGreaterThan(0);
    expect(new Set(sources)).toEqual(new Set(['Widget']));
    await clean(page, 'bookings from the widget');
    expect(await overflow(page)).toBeLessThanOrEqual(0);

    // Resellers': the filter is kept in the address and sent to the API, which answers with theirs only.
    await keys.tabTo(/^select\|Any source/);
    await page.keyboard.type('R');
    await keys.tabTo(/^button\|Show bookings\|/);
    await page.keyboard.press('Enter');
    await page.waitForURL(/source=OCTO/);
    const octo = (await api<{ source: string }[]>('/v1/bookings?source=OCTO&limit=100')).data;
    if (octo.length) await expect.poll(() => page.locator('td[data-label="Source"]').allInnerTexts()).toEqual(octo.map(() => 'Reseller (OCTO)'));
    else await page.getByRole('heading', { name: 'No bookings match' }).waitFor();
    expect(await page.getByLabel('Source').inputValue()).toBe('OCTO');
    await clean(page, 'bookings from resellers');
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    expect(unexpected(problems)).toEqual([]);
    await page.context().close();
  });
});
