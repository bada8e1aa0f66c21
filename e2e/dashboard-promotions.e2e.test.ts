import type { Browser, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { violations } from './axe.js';
import { apiAs, dashboardPage, keyboardOf, openSignedIn, overflow, ownerOf, unexpected, type Owner } from './dashboard-helpers.js';
import type { OutingServer } from './outing-server.js';
import { useOutingAndChromium } from './suite.js';

/**
 * Settings › Promo codes and Settings › Gift vouchers in real Chromium against `outing serve --demo`,
 * by keyboard alone on narrow phones (320 and 375 px): a promo code made after the server's
 * refusals are shown beside their fields, then deactivated; a gift voucher made, its code copied,
 * disabled, and its page with its e-mail resent. Every outcome is read back through the API.
 */
const suite = useOutingAndChromium();
let outing: OutingServer;
let browser: Browser;
let owner: Owner;

const api = <T = any>(path: string, init: RequestInit = {}) => apiAs<T>(outing, path, init);

beforeAll(() => {
  ({ outing, browser } = suite());
  owner = ownerOf(outing);
});

const narrow = (b: Browser, width: number, clipboard = false) =>
  dashboardPage(b, { bypassCSP: true, viewport: { width, height: 800 }, ...(clipboard && { permissions: ['clipboard-read', 'clipboard-write'] }) });

async function typeOver(page: Page, text: string): Promise<void> {
  await page.keyboard.press('Control+A');
  await page.keyboard.type(text);
}

describe('promotions in the dashboard', () => {
  it('makes a promo code by keyboard at 320 px, showing the refusals beside their fields, and deactivates it', async () => {
    const { page, problems } = await narrow(browser, 320);
    await openSignedIn(page, outing, owner, '/dashboard/settings/promo-codes', 'Settings');
    await page.getByRole('heading', { level: 2, name: 'Promo codes' }).waitFor();
    await page.getByRole('heading', { name: 'New promo code' }).waitFor();
    await expect.poll(() => page.locator('.settings .status-line').innerText()).not.toContain('Loading');
    expect(await violations(page, 'html'), 'the list').toEqual([]);
    expect(await overflow(page)).toBeLessThanOrEqual(0);

    const k = keyboardOf(page, 200);
    await k.tabTo(/^input\|code\|/);
    await page.keyboard.type('summer15');
    await k.tabTo(/^input\|discountValue\|/);
    // A percentage over 100: the server's refusal lands beside Discount.
    await page.keyboard.type('150');
    await page.keyboard.press('Enter');
    const discount = page.locator('#promo-discountValue');
    await expect.poll(() => discount.getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator('#promo-discountValue-error').innerText()).toMatch(/1–100/);
    await expect.poll(() => k.focused()).toMatch(/^input\|discountValue\|true/);
    expect(await violations(page, 'html'), 'the form with errors').toEqual([]);
    expect(await overflow(page)).toBeLessThanOrEqual(0);

    await typeOver(page, '15');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 3, name: 'SUMMER15' }).waitFor();
    const card = page.locator('li.record').filter({ has: page.getByRole('heading', { name: 'SUMMER15' }) });
    expect(await card.innerText()).toMatch(/15%[\s\S]*0 \(no limit\)[\s\S]*Active/);
    const saved = (await api<{ id: string; code: string; discountType: string; discountValue: number; active: boolean }[]>('/v1/promo-codes')).data;
    expect(saved).toEqual([expect.objectContaining({ code: 'SUMMER15', discountType: 'PERCENT', discountValue: 15, active: true })]);

    // The same code again, in another case: the 409 is said beside Code.
    await page.keyboard.press('Shift+Tab');
    await k.tabTo(/^input\|code\|/);
    await page.keyboard.type('Summer15');
    await k.tabTo(/^input\|discountValue\|/);
    await page.keyboard.type('10');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('#promo-code').getAttribute('aria-invalid')).toBe('true');
    expect((await page.locator('#promo-code-error').innerText()).length).toBeGreaterThan(5);

    // Deactivate, by keyboard.
    await page.locator('#section-heading').focus();
    await k.tabTo(/^button\|Deactivate\|/);
    await page.keyboard.press('Enter');
    await expect.poll(() => card.innerText()).toContain('Inactive');
    expect((await api<{ active: boolean }>(`/v1/promo-codes/${saved[0]!.id}`)).data.active).toBe(false);
    expect(await violations(page, 'html'), 'an inactive code').toEqual([]);
    expect(unexpected(problems, 401, 400, 409)).toEqual([]);
    await page.context().close();
  });

  it('makes a gift voucher by keyboard at 375 px, copies its code, disables it and opens its page with its e-mail', async () => {
    const { page, problems } = await narrow(browser, 375, true);
    await openSignedIn(page, outing, owner, '/dashboard/settings/gift-vouchers', 'Settings');
    await page.getByRole('heading', { level: 2, name: 'Gift vouchers' }).waitFor();
    await page.getByRole('heading', { name: 'New gift voucher' }).waitFor();
    await expect.poll(() => page.locator('.settings .status-line').innerText()).not.toContain('Loading');
    const k = keyboardOf(page, 200);

    // An amount that is no amount is said beside it before anything is sent.
    await k.tabTo(/^input\|amount\|/);
    await page.keyboard.type('a lot');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('#voucher-amount').getAttribute('aria-invalid')).toBe('true');
    expect(await violations(page, 'html'), 'the voucher form with an error').toEqual([]);

    await typeOver(page, '50');
    await k.tabTo(/^input\|recipientName\|/);
    await page.keyboard.type('Rita Sousa');
    await k.tabTo(/^input\|recipientEmail\|/);
    await page.keyboard.type('rita@example.com');
    await page.keyboard.press('Enter');
    const made = page.getByRole('group', { name: 'Gift voucher of €50.00 made' });
    await made.waitFor();
    await expect.poll(() => k.focused()).toMatch(/^h3\|/);
    await page.keyboard.press('Tab');
    expect(await k.focused()).toMatch(/^input\|/);
    await page.keyboard.press('Tab');
    expect(await k.focused()).toMatch(/^button\|Copy\|true/);
    await page.keyboard.press('Enter');
    await made.getByText('Copied', { exact: true }).waitFor();
    const code = await page.evaluate(() => navigator.clipboard.readText());
    expect(code).toMatch(/^GV-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/);
    const listed = (await api<{ id: string; code: string; amount: string; balance: string; status: string; recipientEmail: string; expiresAt: string | null }[]>('/v1/gift-vouchers')).data;
    const voucher = listed.find((v) => v.code === code)!;
    expect(voucher).toMatchObject({ amount: '50.00', balance: '50.00', status: 'ACTIVE', recipientEmail: 'rita@example.com' });
    // Left as offered, the expiry is the server's default: about three years on.
    expect(Date.parse(voucher.expiresAt!) - Date.now()).toBeGreaterThan(3 * 365 * 86_400_000 - 2 * 86_400_000);
    expect(await violations(page, 'html'), 'the list with the new code').toEqual([]);
    expect(await overflow(page)).toBeLessThanOrEqual(0);

    // Disable, by keyboard; its row says so, and so does the API.
    await k.tabTo(/^button\|Disable\|/);
    await page.keyboard.press('Enter');
    const row = page.locator('tr').filter({ hasText: code });
    await expect.poll(() => row.innerText()).toContain('Disabled');
    expect((await api<{ status: string }>(`/v1/gift-vouchers/${voucher.id}`)).data.status).toBe('DISABLED');

    // Its page: redemptions (none yet) and the e-mail to the recipient, resent.
    await k.tabTo(/^a\|Details\|/);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 3, name: `Gift voucher ${code}` }).waitFor();
    expect(await page.getByRole('textbox', { name: 'Code' }).inputValue()).toBe(code);
    await page.getByRole('table', { name: 'Messages' }).waitFor();
    expect(await page.getByRole('table', { name: 'Messages' }).innerText()).toContain('rita@example.com');
    expect(await violations(page, 'html'), 'a voucher’s page').toEqual([]);
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    await k.tabTo(/^button\|Resend\|/);
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('.settings .status-line').innerText()).toContain('is queued');
    await expect.poll(() => page.getByRole('table', { name: 'Messages' }).locator('tbody tr').count()).toBe(2);

    // And Enable brings it back.
    await page.locator('#section-heading').focus();
    await k.tabTo(/^button\|Enable\|/);
    await page.keyboard.press('Enter');
    await expect.poll(async () => (await api<{ status: string }>(`/v1/gift-vouchers/${voucher.id}`)).data.status).toBe('ACTIVE');
    expect(unexpected(problems, 401, 400, 409)).toEqual([]);
    await page.context().close();
  });

  it('books at the desk with a promo code and a gift voucher by keyboard at 375 px, a refused code said beside it, and the booking shows the figures', async () => {
    const walk = (await api<{ id: string; name: string; price: number }[]>('/v1/experiences')).data.find((x) => x.name === 'Alfama Old Town Walk')!;
    const lisbonDate = (instant: string) => new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Lisbon' }).format(new Date(instant));
    const from = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
    const to = new Date(Date.now() + 12 * 86_400_000).toISOString().slice(0, 10);
    const { data: open } = await api<{ slots: { startTime: string; available: boolean }[] }>(`/v1/availability?experienceId=${walk.id}&startDate=${from}&endDate=${to}&participants=2`);
    const dates = [...new Set(open.slots.map((s) => lisbonDate(s.startTime)))];
    const date = dates.find((d) => open.slots.filter((s) => lisbonDate(s.startTime) === d).every((s) => s.available))!;
    expect((await api('/v1/promo-codes', { method: 'POST', body: JSON.stringify({ code: 'DESK10', discountType: 'PERCENT', discountValue: 10 }) })).status).toBe(201);
    const voucher = await api<{ id: string; code: string }>('/v1/gift-vouchers', { method: 'POST', body: JSON.stringify({ amount: '20.00' }) });
    expect(voucher.status).toBe(201);

    const { page, problems } = await narrow(browser, 375);
    await openSignedIn(page, outing, owner, `/dashboard/bookings/new?experienceId=${walk.id}&date=${date}`, 'New booking');
    await page.locator('#time option').first().waitFor({ state: 'attached' });
    const k = keyboardOf(page, 200);
    await k.tabTo(/^select\|/);
    await k.tabTo(/^select\|.*left/);
    await page.keyboard.press('ArrowDown');
    await k.tabTo(/^input\|participants\|/);
    await typeOver(page, '2');
    await k.tabTo(/^input\|name\|/);
    await page.keyboard.type('Desk Guest');
    await k.tabTo(/^input\|email\|/);
    await page.keyboard.type('desk.codes@e2e.example');
    await k.tabTo(/^input\|promoCode\|/);
    await page.keyboard.type('NOPE99');
    await k.tabTo(/^input\|voucherCode\|/);
    await page.keyboard.type(voucher.data.code.toLowerCase());
    await k.tabTo(/^button\|Create booking\|/);
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('#promoCode').getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator('#promoCode-error').innerText()).toBe('There is no promo code like this one. Check its spelling.');
    expect(await violations(page, 'html'), 'New booking with a refused code').toEqual([]);

    // The summary's link takes focus to the field.
    await k.tabTo(/^a\|Promo code:/);
    await page.keyboard.press('Enter');
    await expect.poll(() => k.focused()).toMatch(/^input\|promoCode\|/);
    await typeOver(page, 'desk10');
    await k.tabTo(/^button\|Create booking\|/);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: /^Booking BK-/ }).waitFor();
    const id = decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!);
    const b = (await api<{ subtotal: string; discount: { code: string; amount: string }; total: string; voucher: { code: string; amount: string }; amountDue: string }>(`/v1/bookings/${id}`)).data;
    const subtotal = (2 * walk.price) / 100;
    const discount = Math.round(2 * walk.price * 0.1) / 100;
    expect(b).toMatchObject({ subtotal: subtotal.toFixed(2), discount: { code: 'DESK10', amount: discount.toFixed(2) }, total: (subtotal - discount).toFixed(2) });
    expect(b.voucher).toEqual({ code: `GV-\u2022\u2022\u2022\u2022-\u2022\u2022\u2022\u2022-${voucher.data.code.slice(-4)}`, amount: Math.min(20, subtotal - discount).toFixed(2) });

    const details = await page.locator('.bk-details').innerText();
    const euros = (x: string) => `€${x}`;
    expect(details).toContain(`Subtotal\n${euros(b.subtotal)}`);
    expect(details).toContain(`−${euros(b.discount.amount)} (code DESK10)`);
    expect(details).toContain(`−${euros(b.voucher.amount)} (${b.voucher.code})`);
    expect(details).toContain(`Amount due\n${euros(b.amountDue)}`);
    expect(details).not.toContain(voucher.data.code);
    await page.getByRole('table', { name: 'Payments' }).getByText('Gift voucher', { exact: true }).waitFor();
    // Only the voucher paid: nothing to refund in money.
    expect(await page.getByRole('button', { name: 'Refund' }).count()).toBe(0);
    expect(await violations(page, 'html'), 'a booking with a code and a voucher').toEqual([]);
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    expect(unexpected(problems, 401, 400)).toEqual([]);
    await page.context().close();
  });
});
