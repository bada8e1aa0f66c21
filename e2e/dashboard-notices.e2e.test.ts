import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSmtpServer, type TestSmtpServer } from '../server/test-helpers/smtp.js';
import { violations } from './axe.js';
import { launchChromium } from './browser.js';
import { apiAs, signedInState, dashboardPage, openSignedIn, overflow, ownerOf, unexpected, type Owner } from './dashboard-helpers.js';
import { startOuting, type OutingServer } from './outing-server.js';

/**
 * Settings › Organization's booking notices and brand in real Chromium, by keyboard only, against
 * `outing serve --demo` sending over SMTP to a real server in this process: the settings are read
 * back through the API, and a booking made afterwards brings the notice to the address typed.
 */
const artifacts = resolve(import.meta.dirname, '../test-results');
let outing: OutingServer;
let browser: Browser;
let owner: Owner;
let smtp: TestSmtpServer;
/** The owner's session, signed in once: each test's browser starts with it. */
let signedIn: BrowserContextOptions['storageState'];

beforeAll(async () => {
  smtp = await startSmtpServer();
  [outing, browser] = await Promise.all([startOuting({ SMTP_URL: smtp.url, MAIL_FROM: 'Bookings <bookings@e2e-notices.example>' }), launchChromium()]);
  owner = ownerOf(outing);
  await mkdir(artifacts, { recursive: true });
  signedIn = await signedInState(browser, outing, owner);
});

afterAll(async () => {
  await browser?.close();
  await outing?.stop();
  await smtp?.close();
});

const api = <T = any>(path: string, init: RequestInit = {}) => apiAs<T>(outing, path, init);

/** The focused element as `tag#id|ring`, ring true when its focus outline shows. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLElement;
    const style = getComputedStyle(el);
    return `${el.tagName.toLowerCase()}#${el.id}|${style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2}`;
  });

/** Tabs forward until `wanted` has focus, every stop's focus visible. */
async function tabTo(page: Page, wanted: RegExp): Promise<void> {
  for (let i = 0; i < 80; i++) {
    await page.keyboard.press('Tab');
    const at = await focused(page);
    if (!at.startsWith('body') && !/^h\d/.test(at)) expect(at, 'focus visible').toMatch(/\|true$/);
    if (wanted.test(at)) return;
  }
  throw new Error(`Tab never reached ${wanted}`);
}

async function openOrganization(page: Page): Promise<void> {
  await openSignedIn(page, outing, owner, '/dashboard/settings', 'Settings');
  await page.getByRole('heading', { level: 2, name: 'Organization' }).waitFor();
  await page.getByLabel('Send notices to').waitFor();
}

/** A booking through the API on the first free slot of the demo's walk. */
async function book(name: string, email: string): Promise<{ id: string; bookingNumber: string }> {
  const experiences = (await api<{ id: string; name: string }[]>('/v1/experiences')).data;
  const walk = experiences.find((x) => x.name === 'Alfama Old Town Walk')!;
  const from = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
  const to = new Date(Date.now() + 20 * 86_400_000).toISOString().slice(0, 10);
  const { data } = await api<{ slots: { startTime: string; available: boolean }[] }>(`/v1/availability?experienceId=${walk.id}&startDate=${from}&endDate=${to}`);
  const slot = data.slots.find((s) => s.available)!;
  const made = await api<{ id: string; bookingNumber: string }>('/v1/bookings', {
    method: 'POST',
    body: JSON.stringify({ experienceId: walk.id, startTime: slot.startTime, participants: 2, customerName: name, customerEmail: email }),
  });
  expect(made.status).toBe(201);
  return made.data;
}

describe('Settings › Organization: notices and brand', () => {
  it('sets notices and the brand by keyboard, says a refused address beside its field, and the next booking brings the notice', async () => {
    const { page, problems } = await dashboardPage(browser, { storageState: signedIn });
    await openOrganization(page);
    expect(await page.getByLabel('New bookings').isChecked()).toBe(true);
    expect(await page.getByLabel('Cancellations').isChecked()).toBe(true);
    expect(await page.getByLabel('Changes to bookings (not check-ins)').isChecked()).toBe(false);

    await tabTo(page, /^textarea#org-notificationEmails/);
    await page.keyboard.type('desk@e2e-notices.example');
    await page.keyboard.press('Enter');
    await page.keyboard.type('not an address');
    await tabTo(page, /^input#org-notifyOn-BOOKING_UPDATED/);
    await page.keyboard.press('Space');
    await tabTo(page, /^input#org-brandColor/);
    await page.keyboard.type('#0B7285');
    await page.keyboard.press('Tab');
    expect(await focused(page)).toMatch(/^input#org-logoUrl/);
    await page.keyboard.type('https://cdn.e2e-notices.example/logo.png');
    await page.keyboard.press('Enter'); // submits the form

    // The refusal names the address and sits beside the field, which takes focus.
    await page.getByText('not an address: Expected an e-mail address.').waitFor();
    await expect.poll(() => focused(page)).toMatch(/^textarea#org-notificationEmails/);
    expect(await page.getByLabel('Send notices to').getAttribute('aria-invalid')).toBe('true');
    expect((await api<{ notificationEmails: string[] }>('/v1/organization')).data.notificationEmails).toEqual([]);

    // Fix it by keyboard: the last line goes.
    await page.keyboard.press('Control+End');
    for (let i = 0; i < 'not an address'.length + 1; i++) await page.keyboard.press('Backspace');
    await tabTo(page, /^button#\|/);
    while (!(await page.evaluate(() => document.activeElement?.textContent === 'Save changes'))) await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await page.getByText('The organization is saved.').waitFor();
    const org = (await api<Record<string, unknown>>('/v1/organization')).data;
    expect(org).toMatchObject({
      notificationEmails: ['desk@e2e-notices.example'],
      notifyOn: ['BOOKING_CREATED', 'BOOKING_CANCELED', 'BOOKING_UPDATED'],
      brandColor: '#0b7285',
      logoUrl: 'https://cdn.e2e-notices.example/logo.png',
    });

    // The next booking brings the notice, from the organization's name, replying to the guest.
    const before = smtp.received.length;
    const booking = await book('Notice Guest', 'notice-guest@example.com');
    await expect.poll(() => smtp.received.slice(before).some((r) => r.to.includes('desk@e2e-notices.example')), { timeout: 15_000 }).toBe(true);
    const notice = smtp.received.slice(before).find((r) => r.to.includes('desk@e2e-notices.example'))!;
    expect(notice.mail.subject).toContain(booking.bookingNumber);
    expect(notice.mail.from?.value[0]).toMatchObject({ name: org['name'], address: 'bookings@e2e-notices.example' });
    expect(notice.mail.replyTo?.value[0]?.address).toBe('notice-guest@example.com');
    expect(notice.mail.text).toContain(`${outing.origin}/dashboard/bookings/${booking.id}`);
    expect(notice.mail.html).toContain('<img src="https://cdn.e2e-notices.example/logo.png"');
    // Listed with the booking's e-mails.
    const messages = (await api<{ kind: string; to: string }[]>(`/v1/bookings/${booking.id}/messages`)).data;
    expect(messages).toEqual(expect.arrayContaining([expect.objectContaining({ kind: 'OPERATOR_NOTICE', to: 'desk@e2e-notices.example' })]));
    expect(unexpected(problems, 400)).toEqual([]);
    await page.context().close();
  });

  it('has no axe violation and fits 375 px, a refusal showing too', async () => {
    const { page, problems } = await dashboardPage(browser, { storageState: signedIn, bypassCSP: true });
    await openOrganization(page);
    expect(await violations(page, 'html')).toEqual([]);
    await page.screenshot({ path: `${artifacts}/dashboard-notices-1280.png`, fullPage: true });
    await page.setViewportSize({ width: 375, height: 800 });
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    await page.getByLabel('Brand colour').fill('teal');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.locator('#org-brandColor-error').waitFor();
    expect(await violations(page, 'html')).toEqual([]);
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    await page.screenshot({ path: `${artifacts}/dashboard-notices-375.png`, fullPage: true });
    expect(unexpected(problems, 400)).toEqual([]);
    await page.context().close();
  });
});
