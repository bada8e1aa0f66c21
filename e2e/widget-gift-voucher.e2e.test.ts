import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeStripe, type FakeStripe } from '../server/payments/test-helpers/fake-stripe.js';
import { violations } from './axe.js';
import { launchChromium } from './browser.js';
import { apiAs, dashboardPage, overflow } from './dashboard-helpers.js';
import { embedPage, startHostSite, type HostSite } from './host-page.js';
import { startOuting, type OutingServer } from './outing-server.js';
import { heading, widgetOn } from './widget-steps.js';

/**
 * The widget's gift-voucher mode in real Chromium against `outing serve --demo`, online payment
 * through the local fake of Stripe's API: the org's amounts as a radio group, bought with the
 * keyboard alone at 320 px under the strict policy README gives host pages, axe-core clean with and
 * without errors; and a purchase refused 409 once online payment is turned off. Stripe's hosted page
 * is not reachable here: the browser's trip there is answered by a stand-in page.
 */
const artifacts = resolve(import.meta.dirname, '../test-results');
let stripe: FakeStripe;
let outing: OutingServer;
let host: HostSite;
let browser: Browser;

const STRICT = (origin: string) => `default-src 'self'; script-src 'self' ${origin}; connect-src ${origin}; style-src 'self'`;

beforeAll(async () => {
  await mkdir(artifacts, { recursive: true });
  stripe = await startFakeStripe();
  // The code travels by e-mail: a server without SMTP does not sell vouchers. Nothing is sent before a payment.
  outing = await startOuting({ ...stripe.env, SMTP_URL: 'smtp://127.0.0.1:2525' });
  host = await startHostSite();
  browser = await launchChromium();
  const org = await apiAs(outing, '/v1/organization', { method: 'PATCH', body: JSON.stringify({ onlinePayments: true, giftVoucherAmounts: ['25.00', '50.00', '100.00'] }) });
  expect(org.status, JSON.stringify(org.body)).toBe(200);
}, 90_000);

afterAll(async () => {
  await browser?.close();
  await host?.stop();
  await outing?.stop();
  await stripe?.close();
});

/** The host page; `strict` adds the policy README gives host pages (axe cannot run under it: it is an inline script). */
async function giftPage(path: string, strict = false): Promise<{ page: Page; problems: string[] }> {
  // dashboardPage reports every CSP violation as a console error.
  const { page, problems } = await dashboardPage(browser, { viewport: { width: 320, height: 900 } });
  const plain = embedPage(outing.origin, { key: outing.publishableKey, mode: 'gift-voucher', locale: 'en' });
  const html = strict
    ? plain.replace('<meta charset="utf-8">', `<meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="${STRICT(outing.origin)}">`)
    : plain;
  await page.route('https://checkout.stripe.com/**', (route) => route.fulfill({ contentType: 'text/html', body: '<title>Stripe Checkout</title><h1>Pay</h1>' }));
  await page.goto(host.page(path, html));
  await heading(widgetOn(page), 'Gift voucher');
  await widgetOn(page).getByRole('group', { name: /Amount/ }).waitFor();
  return { page, problems };
}

/** What is focused inside the widget's shadow root: `tag#id` or its label's text. */
const focused = (page: Page): Promise<string> =>
  page.evaluate(() => {
    const el = document.querySelector('[data-outing]')?.shadowRoot?.activeElement as HTMLInputElement | null | undefined;
    if (!el) return 'none';
    return `${el.tagName.toLowerCase()}#${el.id || el.name}${el.type === 'radio' ? `=${el.value}` : ''}`;
  });

async function tabTo(page: Page, wanted: string, max = 20): Promise<void> {
  for (let i = 0; i < max; i++) {
    if ((await focused(page)) === wanted) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${wanted}; focus is on ${await focused(page)}`);
}

describe('the widget’s gift-voucher mode', () => {
  it('loads and styles the mode under the strict policy README gives host pages, and goes to the payment page', async () => {
    const { page, problems } = await giftPage('/gifts-strict', true);
    const w = widgetOn(page);
    // The mode's own sheet reached the shadow root: a radio is its own size, not a text box's.
    expect((await w.locator('input[type=radio]').first().boundingBox())!.width).toBeLessThan(40);
    expect((await w.locator('textarea').boundingBox())!.width).toBeGreaterThan(200);
    await w.getByRole('radio', { name: '€100.00' }).check();
    await w.getByLabel(/Your name/).fill('Ana Costa');
    await w.getByLabel(/Your e-mail/).fill('ana@example.com');
    await w.getByRole('button', { name: 'Buy gift voucher' }).click();
    await page.waitForURL(/^https:\/\/checkout\.stripe\.com\//);
    expect(stripe.lastSession().amount_total).toBe(10000);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('shows the errors beside the fields, focus on the first, and buys a voucher by keyboard alone at 320 px, axe-clean', async () => {
    const { page, problems } = await giftPage('/gifts');
    const w = widgetOn(page);
    expect(await violations(page)).toEqual([]);
    expect(await overflow(page)).toBeLessThanOrEqual(0);

    // "Buy" with nothing filled in: the server's problems beside their fields, focus on the amounts.
    await page.keyboard.press('Tab');
    await tabTo(page, 'button#');
    await page.keyboard.press('Enter');
    await w.getByText('Choose an amount.').waitFor();
    await expect.poll(() => focused(page)).toBe('input#amount=25.00');
    expect(await w.locator('#buyerEmail').getAttribute('aria-describedby')).toBe('buyerEmail-error');
    expect(await violations(page)).toEqual([]);
    await page.screenshot({ path: resolve(artifacts, 'widget-gift-voucher-errors-320.png'), fullPage: true });

    // The keyboard alone: an arrow key picks 50.00, Tab to each field.
    await page.keyboard.press('ArrowDown');
    expect(await focused(page)).toBe('input#amount=50.00');
    await tabTo(page, 'input#buyerName');
    await page.keyboard.type('Ana Costa');
    await page.keyboard.press('Tab');
    await page.keyboard.type('ana@example.com');
    await page.keyboard.press('Tab');
    await page.keyboard.type('Rui Costa');
    await tabTo(page, 'textarea#message');
    await page.keyboard.type('Happy birthday!');
    await tabTo(page, 'button#');
    await page.keyboard.press('Enter');
    await page.waitForURL(/^https:\/\/checkout\.stripe\.com\//);

    const session = stripe.lastSession();
    expect(session.amount_total).toBe(5000);
    expect(page.url()).toBe(session.url);
    expect(new URL(session.success_url ?? '').pathname).toBe('/gifts');
    // The empty "Buy" was answered 400 on purpose; the browser logs that, nothing else.
    expect(problems.filter((p) => !p.includes('status of 400'))).toEqual([]);
    await page.context().close();
  });

  it('says calmly that vouchers are not sold online when online payment was turned off after the form showed (409)', async () => {
    const { page } = await giftPage('/gifts-off');
    const w = widgetOn(page);
    const off = await apiAs(outing, '/v1/organization', { method: 'PATCH', body: JSON.stringify({ onlinePayments: false }) });
    expect(off.status).toBe(200);
    try {
      await w.getByRole('radio', { name: '€25.00' }).check();
      await w.getByLabel(/Your name/).fill('Ana Costa');
      await w.getByLabel(/Your e-mail/).fill('ana@example.com');
      await w.getByRole('button', { name: 'Buy gift voucher' }).click();
      await w.getByRole('alert').filter({ hasText: 'Gift vouchers are not sold online here.' }).waitFor();
      expect(await w.locator('form').count()).toBe(0);
    } finally {
      await apiAs(outing, '/v1/organization', { method: 'PATCH', body: JSON.stringify({ onlinePayments: true }) });
      await page.context().close();
    }
  });
});
