import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { violations } from './axe.js';
import { launchChromium } from './browser.js';
import { apiAs, dashboardPage, heading, openSignedIn, overflow, ownerOf, unexpected, type Owner } from './dashboard-helpers.js';
import { startOuting, type OutingServer } from './outing-server.js';
import { addressesOf, startSmtpServer, type TestSmtpServer } from '../server/test-helpers/smtp.js';

/**
 * A booking's guest e-mails on its dashboard page, in real Chromium against `outing serve --demo`
 * sending over SMTP to a server in this process: the confirmation listed as Sent, "Resend" by
 * keyboard, a second message listed and a second e-mail received.
 */
const artifacts = resolve(import.meta.dirname, '../test-results');
const GUEST = 'mira@e2e-mail.example';

let smtp: TestSmtpServer | undefined;
/** Every e-mail the SMTP server took, parsed as a mail client would. */
let outing: OutingServer;
let browser: Browser;
let owner: Owner;
let made: { id: string; bookingNumber: string };

interface Listed {
  id: string;
  kind: string;
  status: string;
  to: string;
}

const api = <T,>(path: string, init: RequestInit = {}) => apiAs<T>(outing, path, init);
const messagesOf = async () => (await api<Listed[]>(`/v1/bookings/${made.id}/messages`)).data;
const mailTo = (address: string) => (smtp?.received ?? []).filter((r) => r.to.includes(address));
const addresses = addressesOf;
const mailRows = (page: Page) => page.getByRole('region', { name: 'Messages' }).locator('tbody tr');

/** Waits for `done` (expect.poll works only inside a test, and the booking is made before them). */
async function until(done: () => boolean | Promise<boolean>, what: string, timeout = 15_000): Promise<void> {
  for (const end = Date.now() + timeout; !(await done()); ) {
    if (Date.now() > end) throw new Error(`Waited ${timeout} ms for ${what}:\n${outing.output()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

beforeAll(async () => {
  await mkdir(artifacts, { recursive: true });
  smtp = await startSmtpServer();
  outing = await startOuting({ SMTP_URL: smtp.url });
  browser = await launchChromium();
  owner = ownerOf(outing);

  const walk = (await api<{ id: string; name: string }[]>('/v1/experiences')).data.find((x) => x.name === 'Alfama Old Town Walk')!;
  const from = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
  const open = await api<{ slots: { startTime: string; available: boolean; remaining: number }[] }>(`/v1/availability?experienceId=${walk.id}&startDate=${from}`);
  const slot = open.data.slots.find((s) => s.available && s.remaining >= 2)!;
  const res = await api<{ id: string; bookingNumber: string }>('/v1/bookings', {
    method: 'POST',
    body: JSON.stringify({ experienceId: walk.id, startTime: slot.startTime, participants: 2, customerName: 'Mira Santos', customerEmail: GUEST }),
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  made = res.data;
  // The worker sends the confirmation on its own, at once.
  await until(() => mailTo(GUEST).length === 1, 'the confirmation e-mail');
  await until(async () => (await messagesOf()).map((x) => `${x.kind} ${x.status}`).join() === 'BOOKING_CONFIRMED SENT', 'the confirmation listed as SENT');
});

afterAll(async () => {
  await browser?.close();
  await outing?.stop();
  if (smtp) await smtp.close();
});

describe('a booking’s guest e-mails on the dashboard', () => {
  it('lists the confirmation as Sent, resends it by keyboard, and the guest gets a second e-mail', async () => {
    const { page, problems } = await dashboardPage(browser);
    await openSignedIn(page, outing, owner, `/dashboard/bookings/${made.id}`, `Booking ${made.bookingNumber}`);
    await expect.poll(() => mailRows(page).count()).toBe(1);
    const first = await mailRows(page).first().innerText();
    expect(first).toContain('Confirmation');
    expect(first).toContain(GUEST);
    expect(first).toMatch(/Sent/);

    const focused = () =>
      page.evaluate(() => {
        const el = document.activeElement as HTMLElement;
        const style = getComputedStyle(el);
        return `${el.tagName.toLowerCase()}|${el.textContent?.trim().slice(0, 30) ?? ''}|${style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2}`;
      });
    for (let i = 0; ; i++) {
      if (i === 60) throw new Error('Tab never reached Resend');
      await page.keyboard.press('Tab');
      const at = await focused();
      if (!at.startsWith('body')) expect(at, 'focus visible').toMatch(/\|true$/);
      if (at.startsWith('button|Resend|')) break;
    }
    await page.keyboard.press('Enter');
    await page.getByRole('region', { name: 'Messages' }).getByRole('status').getByText(`A new confirmation e-mail to ${GUEST} is queued`).waitFor();
    await expect.poll(() => mailRows(page).count()).toBe(2);
    expect(await mailRows(page).nth(1).innerText()).toContain('Confirmation');
    // Focus stays where it was: on the first message's Resend.
    expect(await focused()).toMatch(/^button\|Resend\|true$/);

    await expect.poll(() => mailTo(GUEST).length, { timeout: 15_000 }).toBe(2);
    const [a, b] = mailTo(GUEST).map((r) => r.mail);
    expect(addresses(b!.to)).toEqual([GUEST]);
    expect(b!.subject).toBe(a!.subject);
    expect(b!.text).toContain(made.bookingNumber);
    // A new message, so a Message-ID of its own.
    expect(b!.messageId).not.toBe(a!.messageId);
    await expect.poll(async () => (await messagesOf()).map((x) => x.status), { timeout: 15_000 }).toEqual(['SENT', 'SENT']);
    // The page shows the second one as Sent once read again.
    await page.reload();
    await heading(page, `Booking ${made.bookingNumber}`);
    await expect.poll(async () => (await mailRows(page).allInnerTexts()).every((t) => /Sent/.test(t))).toBe(true);
    expect(unexpected(problems, 401)).toEqual([]);
    await page.context().close();
  });

  it('has no axe-core WCAG 2.2 A/AA violation and fits 375 px without horizontal scrolling', async () => {
    const { page, problems } = await dashboardPage(browser, { bypassCSP: true });
    await openSignedIn(page, outing, owner, `/dashboard/bookings/${made.id}`, `Booking ${made.bookingNumber}`);
    await expect.poll(() => mailRows(page).count()).toBeGreaterThan(0);
    expect(await violations(page, 'html')).toEqual([]);
    await page.setViewportSize({ width: 375, height: 900 });
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    expect(await violations(page, 'html')).toEqual([]);
    await page.getByRole('region', { name: 'Messages' }).screenshot({ path: `${artifacts}/dashboard-messages-375.png` });
    expect(unexpected(problems, 401)).toEqual([]);
    await page.context().close();
  });
});
