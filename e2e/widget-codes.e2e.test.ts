import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { violations } from './axe.js';
import { launchChromium, openPage } from './browser.js';
import { apiAs, dashboardPage, overflow } from './dashboard-helpers.js';
import { embedPage, startHostSite, type HostSite } from './host-page.js';
import { startOuting, type OutingServer } from './outing-server.js';
import { heading, pickFirstFreeDay, pickFirstTime, widgetOn } from './widget-steps.js';

/**
 * The widget's "Have a code?" in real Chromium against the real server (`outing serve --demo`): a
 * promo code and a gift voucher made through the API, checked with the public quote before booking,
 * the discount line and the new total, a refused code's words; by keyboard at 320 px, axe-clean with
 * the box open and with its error, and under the strict policy README gives host pages.
 */
let outing: OutingServer;
let host: HostSite;
let browser: Browser;
let experience = '';
let price = 0;
let voucher = '';

beforeAll(async () => {
  outing = await startOuting();
  host = await startHostSite();
  browser = await launchChromium();
  const list = await apiAs<{ id: string; price: number; priceCategories: unknown[]; questions: unknown[]; extras: unknown[] }[]>(outing, '/v1/experiences');
  const plain = list.data.find((x) => !x.priceCategories.length && !x.questions.length && !x.extras.length)!;
  experience = plain.id;
  price = plain.price;
  const promo = await apiAs(outing, '/v1/promo-codes', { method: 'POST', body: JSON.stringify({ code: 'TENOFF', discountType: 'PERCENT', discountValue: 10 }) });
  expect(promo.status, JSON.stringify(promo.body)).toBe(201);
  const gv = await apiAs<{ code: string }>(outing, '/v1/gift-vouchers', { method: 'POST', body: JSON.stringify({ amount: '5.00' }) });
  expect(gv.status, JSON.stringify(gv.body)).toBe(201);
  voucher = gv.data.code;
}, 90_000);

afterAll(async () => {
  await browser?.close();
  await host?.stop();
  await outing?.stop();
});

/** What is focused inside the widget's shadow root: `tag#id: name`. */
function focused(page: Page): Promise<string> {
  return page.evaluate(() => {
    const host = document.querySelector('[data-outing]');
    const el = host?.shadowRoot?.activeElement;
    if (document.activeElement !== host || !el) return `outside: ${document.activeElement?.tagName ?? 'none'}`;
    const label = el.getAttribute('aria-label') ?? (el.id && host!.shadowRoot!.querySelector(`label[for="${el.id}"]`)?.textContent);
    return `${el.tagName.toLowerCase()}#${el.id}: ${(label || el.textContent || '').trim()}`;
  });
}

async function tabTo(page: Page, wanted: RegExp, max = 40): Promise<void> {
  for (let i = 0; i < max; i++) {
    if (wanted.test(await focused(page))) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${wanted}; focus is on ${await focused(page)}`);
}

const euros = (cents: number) => `€${(cents / 100).toFixed(2)}`;

describe('Have a code? in the widget', () => {
  it('applies a promo code and a gift voucher by keyboard at 320 px, says a refused code in words, axe-clean, and books with them', async () => {
    const { page, problems, requests } = await openPage(browser, { bypassCSP: true, viewport: { width: 320, height: 900 } });
    await page.goto(host.page('/codes', embedPage(outing.origin, { key: outing.publishableKey, experience, locale: 'en' })));
    const w = widgetOn(page);
    await heading(w, 'Choose a date');
    await tabTo(page, /^button#day-/);
    await page.keyboard.press('Enter');
    await heading(w, 'Choose a time');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await heading(w, 'Your details');
    // Nothing of the box until it is asked for.
    expect(requests.filter((r) => r.includes('/widget/forms.js'))).toEqual([]);

    await tabTo(page, /^button#: Have a code\?$/);
    await page.keyboard.press('Enter');
    await w.getByLabel('Promo code or gift voucher').waitFor();
    expect(requests.filter((r) => r.includes('/widget/forms.js'))).toEqual([`GET ${outing.origin}/widget/forms.js`]);
    expect(await focused(page)).toBe('input#code: Promo code or gift voucher');
    expect(await violations(page), 'the box open').toEqual([]);
    expect(await overflow(page), 'the box at 320 px').toBeLessThanOrEqual(0);

    // A code the organization does not have: its words, tied to the box, focus kept there.
    await page.keyboard.type('NOSUCHCODE');
    await page.keyboard.press('Enter');
    await w.getByText('This code is not one we know.').waitFor();
    expect(await focused(page)).toBe('input#code: Promo code or gift voucher');
    expect(await w.locator('#code').getAttribute('aria-invalid')).toBe('true');
    expect(await violations(page), 'the box with its error').toEqual([]);
    expect(await overflow(page), 'the error at 320 px').toBeLessThanOrEqual(0);

    // The promo code, in any case: the discount line and the total after it.
    await page.keyboard.press('Control+A');
    await page.keyboard.type('tenoff');
    await page.keyboard.press('Enter');
    await w.getByText('Code applied.').waitFor();
    const discount = Math.floor((price * 10 + 50) / 100);
    expect((await w.locator('.lines li').allInnerTexts()).join('\n')).toMatch(/Discount \(TENOFF\)\s+-€/);
    expect(await w.locator('.total').first().innerText()).toContain(euros(price - discount));

    // Then the voucher, in the same box: its part and what is left to pay; the total stays.
    await page.keyboard.type(voucher);
    await page.keyboard.press('Enter');
    await w.getByText(/^Left to pay/).waitFor();
    expect(await w.locator('.total').first().innerText()).toContain(euros(price - discount));
    expect(await w.getByText(/^Left to pay/).innerText()).toContain(euros(Math.max(0, price - discount - 500)));
    expect(await w.getByText(/^Gift voucher \(GV-••••-••••-/).innerText()).toContain(voucher.slice(-4));
    expect(await violations(page), 'codes taken').toEqual([]);

    await tabTo(page, /^input#name: Name$/, 60);
    await page.keyboard.type('Coda Guest');
    await page.keyboard.press('Tab');
    await page.keyboard.type('coda@example.com');
    await tabTo(page, /^button#: Book$/);
    await page.keyboard.press('Enter');
    await heading(w, 'Booking confirmed');
    const number = (await w.locator('.number strong').innerText()).trim();
    await w.getByText(/^Discount \(TENOFF\)/).waitFor();
    expect(await violations(page), 'the confirmation').toEqual([]);

    const found = await apiAs<{ total: string; discount: { code: string; amount: string } | null; voucher: { code: string } | null; amountDue: string }[]>(
      outing,
      `/v1/bookings?q=${number}`,
    );
    expect(found.data[0]).toMatchObject({
      total: (price - discount) / 100 === 0 ? '0.00' : ((price - discount) / 100).toFixed(2),
      discount: { code: 'TENOFF', amount: (discount / 100).toFixed(2) },
      voucher: { code: `GV-••••-••••-${voucher.slice(-4)}` },
      amountDue: (Math.max(0, price - discount - 500) / 100).toFixed(2),
    });
    // A refused code is a 400 answer, which Chromium reports on the console; nothing else may show.
    expect(problems.filter((p) => !/status of 400/.test(p))).toEqual([]);
    await page.context().close();
  });

  it('loads the box and checks a code under the strict policy README gives host pages', async () => {
    const { page, problems } = await dashboardPage(browser, { viewport: { width: 320, height: 800 } });
    const csp = `default-src 'self'; script-src 'self' ${outing.origin}; connect-src ${outing.origin}; style-src 'self'`;
    const html = embedPage(outing.origin, { key: outing.publishableKey, experience, locale: 'en' }).replace(
      '<meta charset="utf-8">',
      `<meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="${csp}">`,
    );
    await page.goto(host.page('/codes-strict', html));
    const w = widgetOn(page);
    await heading(w, 'Choose a date');
    await pickFirstFreeDay(w);
    await pickFirstTime(w);
    await w.getByRole('button', { name: 'Have a code?' }).click();
    await w.getByLabel('Promo code or gift voucher').fill('GV-0000-0000-0000');
    await w.getByRole('button', { name: 'Apply' }).click();
    await w.getByText('This gift voucher is not one we know.').waitFor();
    // A refused code is a 400 answer, which Chromium reports on the console; nothing else may show.
    expect(problems.filter((p) => !/status of 400/.test(p))).toEqual([]);
    await page.context().close();
  });
});
