import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { violations } from './axe.js';
import { launchChromium } from './browser.js';
import { dashboardPage, unexpected } from './dashboard-helpers.js';
import { startOuting, type OutingServer } from './outing-server.js';
import { startSmtpServer, type TestSmtpServer } from '../server/test-helpers/smtp.js';

/**
 * The guests' manage page in real Chromium against `outing serve --demo`, which sends its e-mails
 * to an SMTP server in this process: bookings made through the public API as the widget makes
 * them, the manage link taken from the confirmation e-mail, then the page under its real CSP:
 * the booking shown, a change of time by keyboard alone, a cancellation with its e-mail,
 * Portuguese, a link that does not work; axe-core and 320 px on the side.
 */
const artifacts = resolve(import.meta.dirname, '../test-results');
const GUEST = 'lena@e2e-manage.example';
const GUEST_PT = 'joao@e2e-manage.example';

let smtp: TestSmtpServer | undefined;
let outing: OutingServer;
let browser: Browser;
/** The manage links of the English and the Portuguese booking, from their confirmation e-mails. */
const links: { en: string; pt: string } = { en: '', pt: '' };
let firstStart = '';

interface Managed {
  booking: { bookingNumber: string; status: string; timeSlot: { startTime: string } };
  canCancel: boolean;
  canReschedule: boolean;
}

const mailTo = (address: string) => (smtp?.received ?? []).filter((r) => r.to.includes(address)).map((r) => r.mail);
const tokenOf = (link: string) => new URL(link).hash.slice(1);

/** Waits for `done` (expect.poll works only inside a test, and the bookings are made before them). */
async function until(done: () => boolean, what: string, timeout = 15_000): Promise<void> {
  const deadline = Date.now() + timeout;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}:\n${outing.output()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** What the manage API says about the booking behind a link, as the page would ask. */
async function managed(link: string): Promise<Managed> {
  const res = await fetch(`${outing.origin}/public/v1/manage`, { headers: { 'X-Manage-Token': tokenOf(link) } });
  const body = (await res.json()) as { data: Managed };
  expect(res.status, JSON.stringify(body)).toBe(200);
  return body.data;
}

/** Books two places a few days ahead through the public API, as the widget does, and returns the link its e-mail carries. */
async function book(name: string, email: string, locale: 'en' | 'pt'): Promise<string> {
  const key = outing.publishableKey;
  const list = (await (await fetch(`${outing.origin}/public/v1/experiences?key=${key}`)).json()) as { data: { id: string; name: string }[] };
  const walk = list.data.find((x) => x.name === 'Alfama Old Town Walk') ?? list.data[0]!;
  const from = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
  const open = (await (
    await fetch(`${outing.origin}/public/v1/availability?key=${key}&experienceId=${walk.id}&startDate=${from}&participants=2`)
  ).json()) as { data: { slots: { startTime: string; available: boolean }[] } };
  const slot = open.data.slots.find((s) => s.available)!;
  const before = mailTo(email).length;
  const res = await fetch(`${outing.origin}/public/v1/bookings`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-outing-key': key },
    body: JSON.stringify({ experienceId: walk.id, startTime: slot.startTime, participants: 2, customerName: name, customerEmail: email, locale }),
  });
  expect(res.status, await res.clone().text()).toBe(201);
  await until(() => mailTo(email).length === before + 1, `the confirmation e-mail to ${email}`);
  const mail = mailTo(email).at(-1)!;
  const link = new RegExp(`${outing.origin.replace(/[.]/g, '\\.')}/manage#[A-Za-z0-9_-]+`).exec(`${mail.text ?? ''} ${mail.html || ''}`)?.[0];
  expect(link, mail.text).toBeTruthy();
  return link!;
}

/** The Manage page opened from a link, watched for console errors and CSP violations. */
async function openManage(link: string, options: Parameters<typeof dashboardPage>[1] = {}) {
  const watched = await dashboardPage(browser, options);
  const response = await watched.page.goto(link);
  expect(response?.status()).toBe(200);
  return { ...watched, response: response! };
}

const focused = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLElement;
    const style = getComputedStyle(el);
    const outlined = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2;
    return { tag: el.tagName.toLowerCase(), id: el.id, text: el.textContent?.trim() ?? '', cls: el.className, outlined };
  });

/** Presses Tab until the focused element's text is `text` (keyboard alone, as a guest would), each stop visibly focused. */
async function tabTo(page: Page, text: string | RegExp): Promise<void> {
  for (let i = 0; i < 40; i++) {
    await page.keyboard.press('Tab');
    const at = await focused(page);
    // Whatever Tab reaches shows that it has focus.
    if (at.tag !== 'body') expect(at.outlined, `focus visible on ${at.tag} ${at.text}`).toBe(true);
    if (typeof text === 'string' ? at.text === text : text.test(at.text)) return;
  }
  throw new Error(`Tab never reached ${String(text)}`);
}

beforeAll(async () => {
  await mkdir(artifacts, { recursive: true });
  smtp = await startSmtpServer();
  outing = await startOuting({ SMTP_URL: smtp.url });
  browser = await launchChromium();
  links.en = await book('Lena Berg', GUEST, 'en');
  links.pt = await book('João Matos', GUEST_PT, 'pt');
  firstStart = (await managed(links.en)).booking.timeSlot.startTime;
}, 90_000);

afterAll(async () => {
  await browser?.close();
  await outing?.stop();
  if (smtp) await smtp.close();
});

describe('the manage page', () => {
  it('shows the booking from the e-mail’s link under the strict CSP, sending the token nowhere but its header', async () => {
    const { page, problems, requests, response } = await openManage(links.en);
    const headers = response.headers();
    expect(headers['content-security-policy']).toContain("script-src 'self'");
    expect(headers['referrer-policy']).toBe('no-referrer');
    expect(headers['cache-control']).toBe('no-store');
    await page.getByRole('heading', { level: 1, name: 'Your booking' }).waitFor();
    const { bookingNumber } = (await managed(links.en)).booking;
    await page.getByText(bookingNumber).waitFor();
    const text = await page.locator('main').innerText();
    expect(text).toContain('Lena Berg');
    expect(text).toContain('Confirmed');
    expect(text).toMatch(/Lisbon \(/);
    expect(await page.getByRole('button', { name: 'Change time' }).isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: 'Cancel booking' }).isVisible()).toBe(true);
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('en-US');
    // The token is in the fragment, which no request carries.
    expect(requests.filter((r) => r.includes(tokenOf(links.en)))).toEqual([]);
    expect(problems, requests.join('\n')).toEqual([]);
    await page.context().close();
  });

  // Accessibility and layout are the same on either database: the checks and screenshots are the SQLite run's alone.
  it.skipIf(process.env.OUTING_TEST_ENGINE === 'postgres')('has no axe-core WCAG 2.2 A/AA violation, and fits 320 px without horizontal scrolling', async () => {
    const { page, problems } = await openManage(links.en, { bypassCSP: true });
    await page.getByRole('button', { name: 'Change time' }).waitFor();
    expect(await violations(page, 'html')).toEqual([]);
    await page.screenshot({ path: `${artifacts}/manage-1280.png`, fullPage: true });
    await page.setViewportSize({ width: 320, height: 800 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
    expect(await violations(page, 'html')).toEqual([]);
    await page.screenshot({ path: `${artifacts}/manage-320.png`, fullPage: true });

    // The calendar and the confirmation of a cancellation, at 320 px too.
    await page.getByRole('button', { name: 'Change time' }).click();
    await page.locator('.day.free').first().waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
    expect(await violations(page, 'html')).toEqual([]);
    await page.screenshot({ path: `${artifacts}/manage-calendar-320.png`, fullPage: true });
    await page.getByRole('button', { name: 'Keep the current time' }).click();
    await page.getByRole('button', { name: 'Cancel booking' }).click();
    await page.getByLabel('Reason (optional)').waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
    expect(await violations(page, 'html')).toEqual([]);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('changes the time by keyboard alone, and the API then shows the new time', async () => {
    const { page, problems } = await openManage(links.en);
    const mailsBefore = mailTo(GUEST).length;
    await page.getByRole('button', { name: 'Change time' }).waitFor();
    await tabTo(page, 'Change time');
    await page.keyboard.press('Enter');
    await page.locator('.day.free').first().waitFor();
    expect(await focused(page)).toMatchObject({ tag: 'h2', text: 'Choose a date' });

    // Into the grid, then along it to a free day at least three days ahead (beyond the cutoff).
    const earliest = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
    await tabTo(page, /^\d{1,2}$/);
    for (let i = 0; ; i++) {
      const at = await focused(page);
      if (at.cls.includes('free') && at.id.slice(4) >= earliest) break;
      if (i === 70) throw new Error('No free day reached');
      await page.keyboard.press('ArrowRight');
    }
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 2, name: 'Choose a time' }).waitFor();
    await tabTo(page, /place/);
    const chosen = (await focused(page)).text;
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 2, name: 'Confirm the new time' }).waitFor();
    await tabTo(page, 'Confirm change');
    await page.keyboard.press('Enter');
    const notice = page.getByText(/^Your booking now starts/);
    await notice.waitFor();
    expect(await focused(page)).toMatchObject({ id: 'notice' });

    const now = (await managed(links.en)).booking.timeSlot.startTime;
    expect(now).not.toBe(firstStart);
    // The page shows the time the API has: the clock read on the button chosen.
    const clock = chosen.split(/\s+\d+\s+place/)[0]!.trim();
    expect(await notice.innerText()).toContain(clock);
    // The guest hears of the change by e-mail too, with a fresh link to this page.
    await expect.poll(() => mailTo(GUEST).length, { timeout: 15_000 }).toBe(mailsBefore + 1);
    expect(mailTo(GUEST).at(-1)!.text).toContain(`${outing.origin}/manage#`);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('cancels after asking, the API shows it CANCELLED, and the guest gets the cancellation e-mail', async () => {
    const { page, problems } = await openManage(links.en);
    const mailsBefore = mailTo(GUEST).length;
    await page.getByRole('button', { name: 'Cancel booking' }).click();
    await page.getByRole('heading', { level: 2, name: 'Cancel this booking?' }).waitFor();
    // Asking changes nothing yet.
    expect((await managed(links.en)).booking.status).toBe('CONFIRMED');
    await page.getByLabel('Reason (optional)').fill('Our flight moved');
    await page.getByRole('button', { name: 'Yes, cancel booking' }).click();
    await page.getByText('Your booking is cancelled.').waitFor();
    expect(await page.getByRole('button', { name: 'Cancel booking' }).count()).toBe(0);
    const after = await managed(links.en);
    expect(after.booking.status).toBe('CANCELLED');
    expect(after.canCancel).toBe(false);
    await expect.poll(() => mailTo(GUEST).length, { timeout: 15_000 }).toBeGreaterThan(mailsBefore);
    const mail = mailTo(GUEST).at(-1)!;
    expect(`${mail.subject} ${mail.text}`).toMatch(/cancel/i);
    expect(mail.text).toContain(after.booking.bookingNumber);

    // A reload shows the cancelled booking, with no way to change it.
    await page.reload();
    await page.getByText(after.booking.bookingNumber).waitFor();
    expect(await page.locator('main').innerText()).toContain('Cancelled');
    expect(await page.getByRole('button', { name: 'Change time' }).count()).toBe(0);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('speaks Portuguese for a booking made in Portuguese', async () => {
    const { page, problems } = await openManage(links.pt);
    await page.getByRole('heading', { level: 1, name: 'A sua reserva' }).waitFor();
    await page.getByRole('button', { name: 'Alterar horário' }).waitFor();
    expect(await page.getByRole('button', { name: 'Cancelar reserva' }).isVisible()).toBe(true);
    expect(await page.evaluate(() => [document.documentElement.lang, document.title])).toEqual(['pt-PT', expect.stringMatching(/^A sua reserva/)]);
    expect(await page.locator('main').innerText()).toContain('Confirmada');
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('says the link does not work for an unknown token, with no booking', async () => {
    const { page, problems } = await openManage(`${outing.origin}/manage#${'x'.repeat(43)}`);
    await page.getByRole('heading', { level: 1, name: 'This link does not work' }).waitFor();
    expect(await page.locator('dl').count()).toBe(0);
    // The API's 404 is the answer expected here; Chromium logs it as a failed load.
    expect(unexpected(problems, 404)).toEqual([]);
    await page.context().close();
  });
});
