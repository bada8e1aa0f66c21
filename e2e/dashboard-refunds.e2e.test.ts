import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { violations } from './axe.js';
import { apiAs, dashboardPage as watchedPage, heading, openSignedIn, overflow, ownerOf, unexpected, type Owner, keyboardOf } from './dashboard-helpers.js';
import type { OutingServer } from './outing-server.js';
import { useOutingAndChromium } from './suite.js';

/**
 * Refunds on the booking page in real Chromium against `outing serve --demo`: a booking paid in cash
 * through the API, part of it refunded in the browser by keyboard alone, the refund read back
 * through the API; axe-core and 375 px over the page and its dialog.
 */
const suite = useOutingAndChromium();
let outing: OutingServer;
let browser: Browser;
let owner: Owner;
let signedIn: BrowserContextOptions['storageState'];

interface Made {
  id: string;
  bookingNumber: string;
  amountRefunded: string;
}
const made: Record<string, Made> = {};
const api = <T = any>(path: string, init: RequestInit = {}) => apiAs<T>(outing, path, init);
const dialog = (page: Page) => page.getByRole('dialog');

beforeAll(async () => {
  ({ outing, browser } = suite());
  owner = ownerOf(outing);
  const walk = (await api<{ id: string; name: string }[]>('/v1/experiences')).data.find((x) => x.name === 'Alfama Old Town Walk')!;
  const from = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
  const { data } = await api<{ slots: { startTime: string; remaining: number }[] }>(`/v1/availability?experienceId=${walk.id}&startDate=${from}`);
  const slot = data.slots.find((s) => s.remaining >= 4)!;
  for (const name of ['Inês Refund', 'Jorge Refund']) {
    const email = `${name.split(' ')[0]!.toLowerCase().normalize('NFD').replace(/[^a-z]/g, '')}@refunds.example`;
    const res = await api<Made>('/v1/bookings', {
      method: 'POST',
      body: JSON.stringify({ experienceId: walk.id, startTime: slot.startTime, participants: 2, customerName: name, customerEmail: email }),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    made[name] = res.data;
    // Paid in cash at the desk.
    const paid = await api(`/v1/bookings/${res.data.id}/payments`, { method: 'POST', body: JSON.stringify({ amount: '40.00', status: 'SUCCEEDED', reference: 'cash' }) });
    expect(paid.status, JSON.stringify(paid.body)).toBe(201);
  }
  const { page } = await watchedPage(browser);
  await openSignedIn(page, outing, owner, '/dashboard/bookings', 'Bookings');
  signedIn = await page.context().storageState();
  await page.context().close();
});

const dashboardPage = (b: Browser, options: BrowserContextOptions = {}) => watchedPage(b, { storageState: signedIn, ...options });
const openBooking = async (page: Page, name: string) => {
  await openSignedIn(page, outing, owner, `/dashboard/bookings/${made[name]!.id}`);
  await heading(page, `Booking ${made[name]!.bookingNumber}`);
  await page.getByRole('button', { name: 'Refund' }).waitFor();
};

describe('refunds on the booking page', () => {
  it('refunds part of a cash booking by keyboard alone: the refund is listed, the booking shows what was refunded', async () => {
    const { page, problems } = await dashboardPage(browser);
    const { focused, tabTo } = keyboardOf(page);
    await openBooking(page, 'Inês Refund');
    expect(await page.getByRole('region', { name: 'Refunds' }).innerText()).toContain('No refunds');

    await tabTo(/^button\|Refund\|/);
    await page.keyboard.press('Enter');
    await expect.poll(focused).toMatch(/^input\|amount\|true$/);
    // What is left to refund, by default.
    expect(await dialog(page).getByLabel('Amount (EUR)').inputValue()).toBe('40.00');
    await page.keyboard.press('Control+A');
    await page.keyboard.type('15');
    await page.keyboard.press('Tab');
    await expect.poll(focused).toMatch(/^select\|/);
    // Typing a letter picks the method starting with it, as in any select.
    await page.keyboard.type('Ca');
    await expect.poll(() => dialog(page).getByLabel('Method').inputValue()).toBe('CASH');
    await page.keyboard.press('Tab');
    await page.keyboard.type('One guest could not come');
    await tabTo(/^button\|Refund\|/);
    await page.keyboard.press('Enter');
    await page.getByText('A refund of €15.00 is recorded.').waitFor();

    const refunds = await api<{ amount: string; method: string; status: string; reason: string }[]>(`/v1/bookings/${made['Inês Refund']!.id}/refunds`);
    expect(refunds.data).toMatchObject([{ amount: '15.00', method: 'CASH', status: 'SUCCEEDED', reason: 'One guest could not come' }]);
    expect((await api<Made & { status: string }>(`/v1/bookings/${made['Inês Refund']!.id}`)).data).toMatchObject({ amountRefunded: '15.00', status: 'CONFIRMED' });
    const region = page.getByRole('region', { name: 'Refunds' });
    await expect.poll(() => region.innerText()).toContain('€15.00');
    expect(await region.innerText()).toContain('Cash');
    expect(await region.innerText()).toContain('One guest could not come');
    expect(await page.getByRole('region', { name: 'Details' }).innerText()).toMatch(/Refunded\s+€15\.00/);

    // The next refund offers what is left; more than that is refused next to the amount.
    await page.getByRole('button', { name: 'Refund' }).click();
    expect(await dialog(page).getByLabel('Amount (EUR)').inputValue()).toBe('25.00');
    await dialog(page).getByLabel('Amount (EUR)').fill('30');
    await dialog(page).getByRole('button', { name: 'Refund' }).click();
    await dialog(page).getByText(/At most 25\.00 EUR/).waitFor();
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog(page).count()).toBe(0);
    expect(await focused()).toMatch(/^button\|Refund\|true$/);
    expect(unexpected(problems, 401, 409)).toEqual([]);
    await page.context().close();
  });

  it('has no axe-core WCAG 2.2 A/AA violation: the page, the dialog and its error', async () => {
    const { page } = await dashboardPage(browser, { bypassCSP: true });
    const clean = async (what: string) => expect(await violations(page, 'html'), what).toEqual([]);
    const res = await api(`/v1/bookings/${made['Jorge Refund']!.id}/refunds`, { method: 'POST', body: JSON.stringify({ amount: '5.00', method: 'BANK_TRANSFER', reason: 'Late start' }) });
    expect(res.status).toBe(201);
    await openBooking(page, 'Jorge Refund');
    await expect.poll(() => page.getByRole('region', { name: 'Refunds' }).innerText()).toContain('Bank transfer');
    await clean('booking page with a refund');
    await page.getByRole('button', { name: 'Refund' }).click();
    await dialog(page).waitFor();
    await clean('refund dialog');
    await dialog(page).getByLabel('Amount (EUR)').fill('');
    await dialog(page).getByRole('button', { name: 'Refund' }).click();
    await dialog(page).locator('.field-error').waitFor();
    await clean('refund dialog with an error');
    await page.context().close();
  });

  it('fits 375 px without horizontal scrolling, the dialog included', async () => {
    const { page, problems } = await dashboardPage(browser, { viewport: { width: 375, height: 800 } });
    await openBooking(page, 'Jorge Refund');
    await expect.poll(() => page.getByRole('region', { name: 'Refunds' }).innerText()).toContain('€5.00');
    expect(await overflow(page), 'booking page').toBeLessThanOrEqual(0);
    await page.getByRole('button', { name: 'Refund' }).click();
    await dialog(page).waitFor();
    expect(await overflow(page), 'refund dialog').toBeLessThanOrEqual(0);
    expect(unexpected(problems, 401)).toEqual([]);
    await page.context().close();
  });
});
