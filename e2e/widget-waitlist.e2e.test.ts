import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { violations } from './axe.js';
import { launchChromium, openPage } from './browser.js';
import { apiAs, dashboardPage, overflow } from './dashboard-helpers.js';
import { embedPage, startHostSite, type HostSite } from './host-page.js';
import { startOuting, type OutingServer } from './outing-server.js';
import { heading, widgetOn } from './widget-steps.js';

/**
 * The widget's waitlist in real Chromium against the real server (`outing serve --demo`): an
 * experience that takes a waitlist, one of its times filled by bookings made through the API. The
 * full time stays choosable as "Full – join the waitlist"; the guest joins with the keyboard alone
 * at 320 px and reads the position, axe-clean at each step; a second guest is number 2, the first
 * again is told she is on the list already; and the same under the strict policy README gives host
 * pages, the chunk coming from Outing's origin.
 */
let outing: OutingServer;
let host: HostSite;
let browser: Browser;
let experience = '';
/** The full time: its start and its local date (the calendar's day id). */
let full = { startTime: '', date: '' };

interface AvailableSlot {
  id: string;
  startTime: string;
  booked: number;
  available: boolean;
}

beforeAll(async () => {
  outing = await startOuting();
  host = await startHostSite();
  browser = await launchChromium();
  const list = await apiAs<{ id: string; priceCategories: unknown[]; questions: unknown[]; extras: unknown[] }[]>(outing, '/v1/experiences');
  experience = list.data.find((x) => !x.priceCategories.length && !x.questions.length && !x.extras.length)!.id;
  const patched = await apiAs(outing, `/v1/experiences/${experience}`, { method: 'PATCH', body: JSON.stringify({ waitlist: true }) });
  expect(patched.status, JSON.stringify(patched.body)).toBe(200);

  // The first time the widget shows, made full: one place more than the demo booked there, and a booking of it.
  const availability = await apiAs<{ timezone: string; slots: AvailableSlot[] }>(outing, `/v1/availability?experienceId=${experience}`);
  const slot = availability.data.slots.find((s) => s.available)!;
  const capped = await apiAs(outing, `/v1/slots/${slot.id}`, { method: 'PATCH', body: JSON.stringify({ capacity: slot.booked + 1 }) });
  expect(capped.status, JSON.stringify(capped.body)).toBe(200);
  const booked = await apiAs(outing, '/v1/bookings', {
    method: 'POST',
    body: JSON.stringify({ experienceId: experience, startTime: slot.startTime, participants: 1, customerName: 'Early Bird', customerEmail: 'early@example.com' }),
  });
  expect(booked.status, JSON.stringify(booked.body)).toBe(201);
  full = {
    startTime: slot.startTime,
    date: new Intl.DateTimeFormat('en-CA', { timeZone: availability.data.timezone }).format(new Date(slot.startTime)),
  };
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
    return `${el.tagName.toLowerCase()}#${el.id}: ${(label || el.textContent || '').replace(/\s+/g, ' ').trim()}`;
  });
}

async function tabTo(page: Page, wanted: RegExp, max = 40): Promise<void> {
  for (let i = 0; i < max; i++) {
    if (wanted.test(await focused(page))) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${wanted}; focus is on ${await focused(page)}`);
}

/** By keyboard: the full time's day (arrowing to it in the grid), its time, to the waitlist's form. */
async function toWaitlist(page: Page): Promise<void> {
  const w = widgetOn(page);
  await heading(w, 'Choose a date');
  await tabTo(page, /^button#day-/);
  for (let i = 0; i < 62 && !(await focused(page)).startsWith(`button#day-${full.date}:`); i++) await page.keyboard.press('ArrowRight');
  expect(await focused(page)).toMatch(new RegExp(`^button#day-${full.date}:`));
  await page.keyboard.press('Enter');
  await heading(w, 'Choose a time');
  await tabTo(page, /^button#: .*Full – join the waitlist$/);
  await page.keyboard.press('Enter');
  await heading(w, 'Join the waitlist');
}

/** By keyboard: name and e-mail, then "Join the waitlist". */
async function join(page: Page, name: string, email: string): Promise<void> {
  await tabTo(page, /^input#name: Name$/);
  await page.keyboard.type(name);
  await page.keyboard.press('Tab');
  await page.keyboard.type(email);
  await tabTo(page, /^button#: Join the waitlist$/);
  await page.keyboard.press('Enter');
}

describe('the waitlist in the widget', () => {
  it('joins a full time by keyboard at 320 px, says the position, axe-clean; the next guest is number 2, the first again is told so', async () => {
    const { page, problems, requests } = await openPage(browser, { bypassCSP: true, viewport: { width: 320, height: 900 } });
    await page.goto(host.page('/waitlist', embedPage(outing.origin, { key: outing.publishableKey, experience, locale: 'en' })));
    const w = widgetOn(page);
    await toWaitlist(page);
    expect(requests.filter((r) => r.includes('/widget/forms.js'))).toEqual([`GET ${outing.origin}/widget/forms.js`]);
    await w.getByText(/^This time is full\./).waitFor();
    expect(await violations(page), 'the waitlist’s form').toEqual([]);
    expect(await overflow(page), 'the form at 320 px').toBeLessThanOrEqual(0);

    // Nothing typed: the problems beside their fields, focus on the first.
    await tabTo(page, /^button#: Join the waitlist$/);
    await page.keyboard.press('Enter');
    await w.locator('#name-error').waitFor();
    expect(await focused(page)).toBe('input#name: Name');
    expect(await violations(page), 'the form with its problems').toEqual([]);

    await join(page, 'Wanda Waits', 'wanda@example.com');
    await heading(w, 'You are on the waitlist');
    expect(await w.locator('.lead').innerText()).toBe('You are number 1 on the waitlist');
    await w.getByText('If places come free, we will e-mail wanda@example.com an offer to book them.').waitFor();
    expect(await focused(page)).toMatch(/^h2#heading: You are on the waitlist$/);
    expect(await violations(page), 'the confirmation').toEqual([]);
    expect(await overflow(page), 'the confirmation at 320 px').toBeLessThanOrEqual(0);

    // The server holds the entry: WAITING, first, the guest's details, nothing booked.
    const entries = await apiAs<{ status: string; position: number; guestName: string; guestEmail: string; places: number; timeSlot: { startTime: string } }[]>(
      outing,
      `/v1/waitlist?experienceId=${experience}`,
    );
    expect(entries.status, JSON.stringify(entries.body)).toBe(200);
    expect(entries.data).toEqual([
      expect.objectContaining({ status: 'WAITING', position: 1, guestName: 'Wanda Waits', guestEmail: 'wanda@example.com', places: 1, timeSlot: expect.objectContaining({ startTime: full.startTime }) }),
    ]);

    // The next guest, in the same page: number 2.
    await tabTo(page, /^button#: Make another booking$/);
    await page.keyboard.press('Enter');
    await toWaitlist(page);
    await tabTo(page, /^input#name: Name$/);
    await page.keyboard.press('Control+A');
    await page.keyboard.type('Walter Waits');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Control+A');
    await page.keyboard.type('walter@example.com');
    await tabTo(page, /^button#: Join the waitlist$/);
    await page.keyboard.press('Enter');
    await heading(w, 'You are on the waitlist');
    expect(await w.locator('.lead').innerText()).toBe('You are number 2 on the waitlist');

    // The first guest again, with her e-mail in capitals: told she is on the list already.
    await tabTo(page, /^button#: Make another booking$/);
    await page.keyboard.press('Enter');
    await toWaitlist(page);
    await tabTo(page, /^input#name: Name$/);
    await page.keyboard.press('Control+A');
    await page.keyboard.type('Wanda Waits');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Control+A');
    await page.keyboard.type('WANDA@example.com');
    await tabTo(page, /^button#: Join the waitlist$/);
    await page.keyboard.press('Enter');
    await w.getByText('You are already on the waitlist for this time with this e-mail address.').waitFor();
    expect(await focused(page)).toBe('p#wl-said: You are already on the waitlist for this time with this e-mail address.');
    expect(await violations(page), 'the form with the refusal').toEqual([]);
    expect(await overflow(page), 'the refusal at 320 px').toBeLessThanOrEqual(0);

    // The refusal is a 409 answer, which Chromium reports on the console; nothing else may show.
    expect(problems.filter((p) => !/status of 409/.test(p))).toEqual([]);
    await page.context().close();
  });

  it('leads back to booking a time that has places again by the time the guest joins (SLOT_HAS_PLACES)', async () => {
    // Another day's time, made full.
    const availability = await apiAs<{ timezone: string; slots: AvailableSlot[] }>(outing, `/v1/availability?experienceId=${experience}`);
    const local = (s: AvailableSlot) => new Intl.DateTimeFormat('en-CA', { timeZone: availability.data.timezone }).format(new Date(s.startTime));
    const slot = availability.data.slots.find((s) => s.available && local(s) !== full.date)!;
    expect((await apiAs(outing, `/v1/slots/${slot.id}`, { method: 'PATCH', body: JSON.stringify({ capacity: slot.booked }) })).status).toBe(200);

    const { page, problems } = await openPage(browser, { bypassCSP: true, viewport: { width: 320, height: 900 } });
    await page.goto(host.page('/waitlist-places', embedPage(outing.origin, { key: outing.publishableKey, experience, locale: 'en' })));
    const w = widgetOn(page);
    await heading(w, 'Choose a date');
    await w.locator(`#day-${local(slot)}`).click();
    await heading(w, 'Choose a time');
    await w.getByRole('button', { name: /Full – join the waitlist$/ }).first().click();
    await heading(w, 'Join the waitlist');
    // The operator adds a place while the guest types.
    expect((await apiAs(outing, `/v1/slots/${slot.id}`, { method: 'PATCH', body: JSON.stringify({ capacity: slot.booked + 1 }) })).status).toBe(200);
    await w.getByLabel('Name', { exact: true }).fill('Hopeful Guest');
    await w.getByLabel('E-mail', { exact: true }).fill('hopeful@example.com');
    await w.getByRole('button', { name: 'Join the waitlist' }).click();
    await w.getByText('Places have just come free at this time: you can book it now.').waitFor();
    expect(await focused(page)).toBe('p#wl-said: Places have just come free at this time: you can book it now.');
    expect(await violations(page), 'the form saying the time has places').toEqual([]);
    await w.getByRole('button', { name: 'Book this time' }).click();
    await heading(w, 'Your details');
    expect(await w.getByLabel('Name', { exact: true }).inputValue()).toBe('Hopeful Guest');
    await w.getByRole('button', { name: 'Book', exact: true }).click();
    await heading(w, 'Booking confirmed');
    const number = (await w.locator('.number strong').innerText()).trim();
    const found = await apiAs<{ timeSlot: { startTime: string } }[]>(outing, `/v1/bookings?q=${number}`);
    expect(found.data[0]!.timeSlot.startTime).toBe(slot.startTime);
    expect(problems.filter((p) => !/status of 409/.test(p))).toEqual([]);
    await page.context().close();
  });

  it('loads the waitlist’s chunk and joins under the strict policy README gives host pages', async () => {
    const { page, problems, requests } = await dashboardPage(browser, { viewport: { width: 320, height: 800 } });
    const csp = `default-src 'self'; script-src 'self' ${outing.origin}; connect-src ${outing.origin}; style-src 'self'`;
    const html = embedPage(outing.origin, { key: outing.publishableKey, experience, locale: 'pt' }, 'pt').replace(
      '<meta charset="utf-8">',
      `<meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="${csp}">`,
    );
    await page.goto(host.page('/waitlist-strict', html));
    const w = widgetOn(page);
    await heading(w, 'Escolha uma data');
    await w.locator(`#day-${full.date}`).click();
    await heading(w, 'Escolha um horário');
    await w.getByRole('button', { name: /Esgotado – entrar na lista de espera$/ }).click();
    await heading(w, 'Entrar na lista de espera');
    await w.getByLabel('Nome', { exact: true }).fill('Paula Espera');
    await w.getByLabel('E-mail', { exact: true }).fill('paula@example.com');
    await w.getByRole('button', { name: 'Entrar na lista de espera' }).click();
    await heading(w, 'Está na lista de espera');
    expect(await w.locator('.lead').innerText()).toMatch(/^É o número \d+ na lista de espera$/);
    expect(requests.filter((r) => r.includes('/widget/forms.js'))).toEqual([`GET ${outing.origin}/widget/forms.js`]);
    const entries = await apiAs<{ guestEmail: string; locale: string }[]>(outing, `/v1/waitlist?experienceId=${experience}`);
    expect(entries.data.find((e) => e.guestEmail === 'paula@example.com')).toMatchObject({ locale: 'pt' });
    expect(problems).toEqual([]);
    await page.context().close();
  });
});
