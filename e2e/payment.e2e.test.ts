/**
 * Online payment through the widget (docs/payments.md), in Chromium against `outing serve` pointed at a
 * local fake of Stripe's API. Stripe's hosted page is not reachable here, so the guest's trip
 * there is played by Stripe's part: the signed callback, then the return to the session's
 * success or cancel URL, which the server built from the widget's Referer.
 */
import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeStripe } from '../server/payments/test-helpers/fake-stripe.js';
import type { FakeSession, FakeStripe } from '../server/payments/test-helpers/fake-stripe.js';
import { violations } from './axe.js';
import { launchChromium, openPage } from './browser.js';
import { startHostSite } from './host-page.js';
import type { HostSite } from './host-page.js';
import { startOuting } from './outing-server.js';
import type { OutingServer } from './outing-server.js';
import { fillDetails, heading, pickFirstFreeDay, pickFirstTime, widgetOn } from './widget-steps.js';

const artifacts = resolve(import.meta.dirname, '../test-results');

let stripe: FakeStripe;
let outing: OutingServer;
let host: HostSite;
let browser: Browser;
let pageUrl: string;

/** A tour's page on the operator's own site, which tells its analytics about each booking. */
function tourPage(experienceId: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Alfama walk</title></head>
<body><main><h1>Book the walk</h1>
<div data-outing data-key="${outing.publishableKey}" data-experience="${experienceId}" data-locale="en"></div>
<ol id="booked"></ol></main>
<script>document.addEventListener('outing:booked', (e) => { const li = document.createElement('li'); li.textContent = JSON.stringify(e.detail); document.getElementById('booked').append(li); });</script>
<script src="${outing.origin}/widget.js" async></script></body></html>`;
}

beforeAll(async () => {
  await mkdir(artifacts, { recursive: true });
  stripe = await startFakeStripe();
  outing = await startOuting(stripe.env);
  host = await startHostSite();
  browser = await launchChromium();
  const org = await fetch(`${outing.origin}/v1/organization`, {
    method: 'PATCH',
    headers: { Authorization: `Bearer ${outing.secretKey}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ onlinePayments: true }),
  });
  expect(org.status).toBe(200);
  const res = await fetch(`${outing.origin}/public/v1/experiences?key=${outing.publishableKey}`);
  const priced = ((await res.json()) as { data: { id: string; price: number }[] }).data.find((e) => e.price > 0);
  if (!priced) throw new Error('The demo has no priced experience');
  pageUrl = host.page('/tours/alfama', tourPage(priced.id)) + '?lang=en';
});

afterAll(async () => {
  await browser?.close();
  await host?.stop();
  await outing?.stop();
  await stripe?.close();
});

/** Books the first free time in the widget; returns the Checkout Session the booking opened. */
async function bookAndReachPayment(page: Page, email: string): Promise<FakeSession> {
  await page.goto(pageUrl);
  const w = widgetOn(page);
  await heading(w, 'Choose a date');
  await pickFirstFreeDay(w);
  await pickFirstTime(w);
  await fillDetails(w, { participants: 2, name: 'Ana Lima', email });
  await w.getByRole('button', { name: 'Book', exact: true }).click();
  await heading(w, 'Almost done: payment');
  const session = stripe.lastSession();
  expect(await w.getByRole('link', { name: 'Continue to payment' }).getAttribute('href')).toBe(session.url);
  return session;
}

/** Stripe's signed `checkout.session.completed` callback for a paid session. */
async function paid(session: FakeSession): Promise<void> {
  const { payload } = stripe.event('checkout.session.completed', stripe.pay(session.id));
  const res = await fetch(`${outing.origin}/payments/stripe/webhook`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'Stripe-Signature': stripe.sign(payload) },
    body: payload,
  });
  expect(res.status).toBe(200);
}

/** The text of what has focus inside the widget's shadow root. */
const focused = (page: Page) =>
  page.evaluate(() => document.querySelector('[data-outing]')?.shadowRoot?.activeElement?.textContent?.trim() ?? 'nothing');

const bookedOnHostPage = (page: Page) => page.locator('#booked li').allInnerTexts();

describe('paying online', () => {
  it('sends the guest to pay, and back on the booking page shows the booking confirmed by the callback', async () => {
    const { page, problems } = await openPage(browser, { bypassCSP: true });
    const session = await bookAndReachPayment(page, 'ana.pays@example.com');
    expect(await bookedOnHostPage(page)).toEqual([]);
    // The way back is this very page (the Referer's full address), not the site's root.
    const bookingNumber = new URL(session.success_url!).searchParams.get('outing_booking')!;
    expect(session.success_url).toBe(`${pageUrl}&outing_booking=${bookingNumber}&outing_status=success`);

    await paid(session);
    await page.goto(session.success_url!);
    const w = widgetOn(page);
    await heading(w, 'Booking confirmed');
    expect((await w.locator('.number strong').innerText()).trim()).toBe(bookingNumber);
    expect(await w.locator('.summary').innerText()).toMatch(/Lisbon \(/);
    expect((await bookedOnHostPage(page)).map((d) => JSON.parse(d) as Record<string, unknown>)).toEqual([
      expect.objectContaining({ bookingNumber, participants: 2, currency: 'EUR' }),
    ]);
    // Taken off the address: a reload shows a fresh widget and tells the host page nothing again.
    expect(page.url()).toBe(pageUrl);
    expect(await violations(page), 'confirmed after paying').toEqual([]);
    await w.screenshot({ path: `${artifacts}/widget-paid-1280.png` });
    await page.reload();
    await heading(widgetOn(page), 'Choose a date');
    expect(await bookedOnHostPage(page)).toEqual([]);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('says the payment is being confirmed until the callback arrives', async () => {
    const { page, problems } = await openPage(browser, { bypassCSP: true });
    const session = await bookAndReachPayment(page, 'ana.waits@example.com');
    stripe.pay(session.id);
    await page.goto(session.success_url!);
    const w = widgetOn(page);
    await heading(w, 'Confirming your payment…');
    expect(await w.locator('[aria-busy="true"]').count()).toBe(1);
    expect(await violations(page), 'confirming').toEqual([]);
    await paid(session);
    await heading(w, 'Booking confirmed');
    expect(await bookedOnHostPage(page)).toHaveLength(1);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('offers the way back to the payment page after giving up, or a new booking, by keyboard', async () => {
    const { page, problems } = await openPage(browser, { bypassCSP: true });
    const session = await bookAndReachPayment(page, 'ana.gives.up@example.com');
    await page.goto(session.cancel_url!);
    const w = widgetOn(page);
    await heading(w, 'Payment not completed');
    expect(await w.getByRole('link', { name: 'Return to payment' }).getAttribute('href')).toBe(session.url);
    expect(await violations(page), 'payment not completed').toEqual([]);
    expect(page.url()).toBe(pageUrl);
    // At 320 CSS px the link and the button wrap, with no horizontal scrolling (WCAG 1.4.10).
    await page.setViewportSize({ width: 320, height: 900 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await w.screenshot({ path: `${artifacts}/widget-not-paid-320.png` });

    // Focus is on the heading: Tab reaches the link, then "Book again".
    expect(await focused(page)).toBe('Payment not completed');
    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('Return to payment');
    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('Book again');
    await page.keyboard.press('Enter');
    await heading(w, 'Choose a date');
    await w.locator('button.day.free').first().waitFor();
    expect(await bookedOnHostPage(page)).toEqual([]);
    expect(problems).toEqual([]);
    await page.context().close();
  });
});
