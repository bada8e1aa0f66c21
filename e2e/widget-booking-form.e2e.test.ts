import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { violations } from './axe.js';
import { launchChromium, openPage } from './browser.js';
import { apiAs, dashboardPage, overflow } from './dashboard-helpers.js';
import { embedPage, startHostSite, type HostSite } from './host-page.js';
import { startOuting, type OutingServer } from './outing-server.js';
import { heading, widgetOn } from './widget-steps.js';

/**
 * The widget's booking form step in real Chromium against the real server (`outing serve --demo`):
 * an experience that asks a required question and a select and sells lunch per person, booked with
 * the keyboard alone at 320 px, in English and in Portuguese, axe-core clean with and without the
 * step's errors; and an experience with neither, whose guest loads no chunk of the step.
 */
const artifacts = resolve(import.meta.dirname, '../test-results');
let outing: OutingServer;
let host: HostSite;
let browser: Browser;
let withForm = '';
let plain = '';

beforeAll(async () => {
  await mkdir(artifacts, { recursive: true });
  outing = await startOuting();
  host = await startHostSite();
  browser = await launchChromium();
  const list = await apiAs<{ id: string; name: string }[]>(outing, '/v1/experiences');
  withForm = list.data.find((x) => x.name === 'Alfama Old Town Walk')!.id;
  plain = list.data.find((x) => x.id !== withForm)!.id;
  const patched = await apiAs(outing, `/v1/experiences/${withForm}`, {
    method: 'PATCH',
    body: JSON.stringify({
      questions: [
        { label: 'Dietary needs', type: 'TEXT', required: true, help: 'Allergies, vegetarian…' },
        { label: 'T-shirt size', type: 'SELECT', options: ['S', 'M', 'L'] },
        { label: 'Anything else', type: 'LONG_TEXT' },
        { label: 'I can swim', type: 'CHECKBOX', help: 'For the boat part' },
      ],
      extras: [{ name: 'Lunch', description: 'Sandwich and fruit', price: 1200, per: 'PERSON', maxQuantity: 10 }],
    }),
  });
  expect(patched.status, JSON.stringify(patched.body)).toBe(200);
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

/** Presses Tab until the focused control matches; fails after `max` presses. */
async function tabTo(page: Page, wanted: RegExp, max = 40): Promise<void> {
  for (let i = 0; i < max; i++) {
    if (wanted.test(await focused(page))) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${wanted}; focus is on ${await focused(page)}`);
}

interface Words {
  locale: string;
  date: string;
  time: string;
  form: string;
  details: string;
  more: string;
  lunch: RegExp;
  cont: string;
  error: string;
  name: string;
  book: string;
  confirmed: string;
  money: (euros: string) => RegExp;
}

const en: Words = {
  locale: 'en',
  date: 'Choose a date',
  time: 'Choose a time',
  form: 'Extras and questions',
  details: 'Your details',
  more: 'One participant more',
  lunch: /^Lunch, €12\.00 per person$/,
  cont: 'Continue',
  error: 'Answer “Dietary needs”',
  name: 'Name',
  book: 'Book',
  confirmed: 'Booking confirmed',
  money: (euros) => new RegExp(`€${euros.replace('.', '\\.')}`),
};

const pt: Words = {
  locale: 'pt',
  date: 'Escolha uma data',
  time: 'Escolha um horário',
  form: 'Extras e perguntas',
  details: 'Os seus dados',
  more: 'Mais um participante',
  lunch: /^Lunch, .*12,00.* por pessoa$/,
  cont: 'Continuar',
  error: 'Responda a «Dietary needs»',
  name: 'Nome',
  book: 'Reservar',
  confirmed: 'Reserva confirmada',
  money: (euros) => new RegExp(euros.replace('.', ',')),
};

async function bookByKeyboard(words: Words): Promise<void> {
  const { page, problems, requests } = await openPage(browser, { bypassCSP: true, viewport: { width: 320, height: 800 } });
  await page.goto(host.page(`/form-${words.locale}`, embedPage(outing.origin, { key: outing.publishableKey, experience: withForm, locale: words.locale })));
  const w = widgetOn(page);
  await heading(w, words.date);

  await tabTo(page, /^button#day-/);
  await page.keyboard.press('Enter');
  await heading(w, words.time);
  await page.keyboard.press('Tab');
  expect(await focused(page)).toMatch(/^button#/);
  await page.keyboard.press('Enter');

  // The step, its chunk fetched from Outing once the experience showed it has a form.
  await heading(w, words.form);
  expect(requests.filter((r) => r.includes('/widget/forms.js'))).toEqual([`GET ${outing.origin}/widget/forms.js`]);
  expect(await w.locator('label[for^="x-"]').innerText()).toMatch(words.lunch);
  expect(await violations(page), `${words.locale} step`).toEqual([]);
  expect(await overflow(page), `${words.locale} step at 320 px`).toBeLessThanOrEqual(0);

  // Two participants, two lunches; Continue with the required question unanswered.
  await tabTo(page, new RegExp(`^button#: ${words.more}$`));
  await page.keyboard.press('Enter');
  await tabTo(page, /^button#: Lunch: /);
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  expect(await focused(page)).toMatch(/^button#: Lunch: /);
  await page.keyboard.press('Enter');
  await page.keyboard.press('Enter');
  expect(await w.locator('input[id^="x-"]').inputValue()).toBe('2');
  await tabTo(page, new RegExp(`^button#: ${words.cont}$`));
  await page.keyboard.press('Enter');
  await w.getByText(words.error).waitFor();
  expect(await focused(page)).toMatch(/^input#q-q_\w+: Dietary needs/);
  expect(await violations(page), `${words.locale} step with its error`).toEqual([]);
  await page.screenshot({ path: `${artifacts}/widget-booking-form-${words.locale}-320.png`, fullPage: true });
  expect(await overflow(page), `${words.locale} error at 320 px`).toBeLessThanOrEqual(0);

  await page.keyboard.type('Vegetarian');
  await page.keyboard.press('Tab');
  expect(await focused(page)).toMatch(/^select#q-q_\w+: T-shirt size/);
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  // 2 × €25.00 + 2 × €12.00
  expect(await w.locator('.total').innerText()).toMatch(words.money('74.00'));
  await tabTo(page, new RegExp(`^button#: ${words.cont}$`));
  await page.keyboard.press('Enter');

  await heading(w, words.details);
  expect(await w.locator('.lines li').allInnerTexts()).toEqual([expect.stringMatching(new RegExp(`^2 × Lunch\\s+\\S*\\s?${words.money('24.00').source}`))]);
  await tabTo(page, new RegExp(`^input#name: ${words.name}$`));
  await page.keyboard.type('Rita Keys');
  await page.keyboard.press('Tab');
  await page.keyboard.type(`rita.${words.locale}@example.com`);
  await tabTo(page, new RegExp(`^button#: ${words.book}$`));
  await page.keyboard.press('Enter');
  await heading(w, words.confirmed);
  const number = (await w.locator('.number strong').innerText()).trim();
  // The confirmation lists the extras too (its own chunk).
  await w.locator('.lines li').first().waitFor();
  expect(await w.locator('.lines li').allInnerTexts()).toEqual([expect.stringMatching(/^2 × Lunch/)]);
  expect(await violations(page), `${words.locale} confirmation`).toEqual([]);

  const found = await apiAs<{ bookingNumber: string; total: string; answers: unknown[]; extras: unknown[] }[]>(outing, `/v1/bookings?q=${number}`);
  expect(found.data[0]).toMatchObject({
    total: '74.00',
    answers: [
      { label: 'Dietary needs', type: 'TEXT', value: 'Vegetarian' },
      { label: 'T-shirt size', type: 'SELECT', value: 'M' },
    ],
    extras: [{ name: 'Lunch', per: 'PERSON', quantity: 2, unitPrice: 1200 }],
  });
  expect(problems).toEqual([]);
  await page.context().close();
}

describe('the booking form step in the widget', () => {
  it('books an experience with questions and extras by keyboard alone at 320 px, in English, axe-clean', async () => {
    await bookByKeyboard(en);
  });

  it('does the same in Portuguese', async () => {
    await bookByKeyboard(pt);
  });

  it('loads and styles the step under the strict policy README gives host pages', async () => {
    // dashboardPage reports every CSP violation as a console error.
    const { page, problems } = await dashboardPage(browser, { viewport: { width: 320, height: 800 } });
    const csp = `default-src 'self'; script-src 'self' ${outing.origin}; connect-src ${outing.origin}; style-src 'self'`;
    const html = embedPage(outing.origin, { key: outing.publishableKey, experience: withForm, locale: 'en' }).replace(
      '<meta charset="utf-8">',
      `<meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="${csp}">`,
    );
    await page.goto(host.page('/form-strict', html));
    const w = widgetOn(page);
    await heading(w, 'Choose a date');
    await w.locator('button.day.free').first().click();
    await heading(w, 'Choose a time');
    await w.locator('button.time:not([disabled])').first().click();
    await heading(w, 'Extras and questions');
    // The step's own sheet reached the shadow root: the select is as wide as the inputs.
    const select = w.locator('select');
    expect((await select.boundingBox())!.width).toBeGreaterThan(200);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('loads nothing but widget.js for an experience without questions or extras', async () => {
    const { page, problems, requests } = await openPage(browser, { viewport: { width: 320, height: 800 } });
    await page.goto(host.page('/plain', embedPage(outing.origin, { key: outing.publishableKey, experience: plain, locale: 'en' })));
    const w = widgetOn(page);
    await heading(w, 'Choose a date');
    await w.locator('button.day.free').first().click();
    await heading(w, 'Choose a time');
    await w.locator('button.time:not([disabled])').first().click();
    await heading(w, 'Your details');
    await w.getByLabel('Name', { exact: true }).fill('Plain Guest');
    await w.getByLabel('E-mail', { exact: true }).fill('plain@example.com');
    const scripts = () => requests.filter((r) => r.startsWith(`GET ${outing.origin}/`) && /\.js(\?|$)/.test(r));
    expect(scripts()).toEqual([`GET ${outing.origin}/widget.js`]);
    await w.getByRole('button', { name: 'Book', exact: true }).click();
    await heading(w, 'Booking confirmed');
    // Only once the booking is confirmed: the chunk with the confirmation's part (forms.js, which carries it).
    expect(scripts()).toEqual([`GET ${outing.origin}/widget.js`, `GET ${outing.origin}/widget/forms.js`]);
    expect(problems).toEqual([]);
    await page.context().close();
  });
});
