import { readFile } from 'node:fs/promises';
import type { Browser, Download, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { violations } from './axe.js';
import { launchChromium } from './browser.js';
import { apiAs, dashboardPage } from './dashboard-helpers.js';
import { embedPage, startHostSite, type HostSite } from './host-page.js';
import { startOuting, type OutingServer } from './outing-server.js';
import { book, fillDetails, heading, pickFirstFreeDay, pickFirstTime, widgetOn } from './widget-steps.js';
import { startSmtpServer, type TestSmtpServer } from '../server/test-helpers/smtp.js';

/**
 * An experience's guest information and "Add to calendar", in real Chromium against `outing serve
 * --demo`: the widget on another origin's page under the strict policy README gives host pages
 * (its confirmation's part loaded from Outing in forms.js), then the manage page from the confirmation e-mail;
 * both calendar links followed, by keyboard; axe-core and 375 px.
 */
const GUEST = 'mira@e2e-guest-info.example';
const INFO = {
  meetingPoint: 'Largo do Chafariz de Dentro, by the fountain',
  meetingPointUrl: 'https://maps.example.com/?q=alfama',
  guestInstructions: 'Wear comfortable shoes.\nBring water.',
};

let smtp: TestSmtpServer;
let outing: OutingServer;
let host: HostSite;
let browser: Browser;
let experienceId = '';
let bookingNumber = '';

beforeAll(async () => {
  smtp = await startSmtpServer();
  outing = await startOuting({ SMTP_URL: smtp.url });
  host = await startHostSite();
  browser = await launchChromium();
  const list = await apiAs<{ id: string; name: string }[]>(outing, '/v1/experiences');
  experienceId = (list.data.find((x) => x.name === 'Alfama Old Town Walk') ?? list.data[0]!).id;
  const patched = await apiAs(outing, `/v1/experiences/${experienceId}`, { method: 'PATCH', body: JSON.stringify(INFO) });
  expect(patched.status, JSON.stringify(patched.body)).toBe(200);
}, 90_000);

afterAll(async () => {
  await browser?.close();
  await host?.stop();
  await outing?.stop();
  await smtp?.close();
});

/** The embed page with README's policy for host pages, as a <meta> (the host server sets no headers). */
function strictHostPage(name: string): string {
  const csp = `default-src 'self'; script-src 'self' ${outing.origin}; connect-src ${outing.origin}; style-src 'self'`;
  const html = embedPage(outing.origin, { key: outing.publishableKey, experience: experienceId, locale: 'en' }).replace(
    '<meta charset="utf-8">',
    `<meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="${csp}">`,
  );
  return host.page(`/${name}`, html);
}

/** Presses Tab until the focused element (in the page or the widget's shadow root) reads `text`. */
async function tabTo(page: Page, text: string | RegExp): Promise<void> {
  for (let i = 0; i < 60; i++) {
    await page.keyboard.press('Tab');
    const at = await page.evaluate(() => {
      let el = document.activeElement;
      while (el?.shadowRoot?.activeElement) el = el.shadowRoot.activeElement;
      return el?.textContent?.trim() ?? '';
    });
    if (typeof text === 'string' ? at === text : text.test(at)) return;
  }
  throw new Error(`Tab never reached ${String(text)}`);
}

const icsOf = async (download: Download) => readFile((await download.path())!, 'utf8');
const unfold = (ics: string) => ics.replace(/\r\n[ \t]/g, '');

describe('guest information and Add to calendar', () => {
  it('shows the meeting point on the widget’s confirmation under a strict host policy, and both calendar links work by keyboard', async () => {
    const { page, problems, requests } = await dashboardPage(browser, { acceptDownloads: true });
    // Google Calendar stands in: the test must not reach the internet.
    await page.context().route('https://calendar.google.com/**', (route) => route.fulfill({ status: 200, contentType: 'text/html', body: '<title>Google</title>' }));
    await page.goto(strictHostPage('strict'));
    const w = widgetOn(page);
    await heading(w, 'Choose a date');
    await pickFirstFreeDay(w);
    await pickFirstTime(w);
    await fillDetails(w, { name: 'Mira Santos', email: GUEST });
    bookingNumber = await book(w);

    await w.getByRole('heading', { name: 'Meeting point' }).waitFor();
    expect(await w.getByText(INFO.meetingPoint).isVisible()).toBe(true);
    expect(await w.getByRole('link', { name: /Open the map/ }).getAttribute('href')).toBe(INFO.meetingPointUrl);
    expect(await w.getByText('Wear comfortable shoes.').isVisible()).toBe(true);
    // The chunk came from Outing, once, after the booking.
    expect(requests.filter((r) => r.endsWith('/widget/forms.js'))).toEqual([`GET ${outing.origin}/widget/forms.js`]);

    await tabTo(page, /^Google Calendar/);
    const [popup] = await Promise.all([page.waitForEvent('popup'), page.keyboard.press('Enter')]);
    await popup.waitForLoadState();
    const google = new URL(popup.url());
    expect(google.origin + google.pathname).toBe('https://calendar.google.com/calendar/render');
    expect(google.searchParams.get('action')).toBe('TEMPLATE');
    expect(google.searchParams.get('text')).toBe('Alfama Old Town Walk');
    expect(google.searchParams.get('dates')).toMatch(/^\d{8}T\d{6}Z\/\d{8}T\d{6}Z$/);
    expect(google.searchParams.get('location')).toBe(INFO.meetingPoint);
    expect(google.searchParams.get('details')).toBe(bookingNumber);
    await popup.close();

    await tabTo(page, 'Download .ics file');
    const [download] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('Enter')]);
    expect(download.suggestedFilename()).toBe(`${bookingNumber}.ics`);
    const ics = unfold(await icsOf(download));
    expect(ics).toContain('BEGIN:VEVENT');
    expect(ics).toContain('SUMMARY:Alfama Old Town Walk');
    expect(ics).toContain('LOCATION:Largo do Chafariz de Dentro\\, by the fountain');
    expect(ics).toMatch(/\r\nDTSTART:\d{8}T\d{6}Z\r\n/);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('has no axe-core violation on the confirmation and fits 375 px', async () => {
    const { page, problems } = await dashboardPage(browser, { bypassCSP: true, viewport: { width: 375, height: 800 } });
    await page.goto(host.page('/plain', embedPage(outing.origin, { key: outing.publishableKey, experience: experienceId, locale: 'en' })));
    const w = widgetOn(page);
    await heading(w, 'Choose a date');
    await pickFirstFreeDay(w);
    await pickFirstTime(w);
    await fillDetails(w, { name: 'Mira Santos', email: 'mira.two@e2e-guest-info.example' });
    await book(w);
    await w.getByRole('heading', { name: 'Add to calendar' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    expect(await violations(page)).toEqual([]);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('shows the meeting point on the manage page, whose .ics (by keyboard) is the server’s file', async () => {
    const deadline = Date.now() + 15_000;
    let mail = smtp.received.find((r) => r.to.includes(GUEST))?.mail;
    while (!mail && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      mail = smtp.received.find((r) => r.to.includes(GUEST))?.mail;
    }
    expect(mail?.text).toContain(`Meeting point:\n${INFO.meetingPoint}`);
    const link = new RegExp(`${outing.origin.replace(/[.]/g, '\\.')}/manage#[A-Za-z0-9_-]+`).exec(mail?.text ?? '')?.[0];
    expect(link).toBeTruthy();

    const { page, problems } = await dashboardPage(browser, { acceptDownloads: true, viewport: { width: 375, height: 800 } });
    await page.goto(link!);
    await page.getByRole('heading', { level: 2, name: 'Meeting point' }).waitFor();
    expect(await page.getByText(INFO.meetingPoint).isVisible()).toBe(true);
    expect(await page.getByRole('heading', { level: 2, name: 'Before you come' }).isVisible()).toBe(true);
    const google = new URL((await page.getByRole('link', { name: /^Google Calendar/ }).getAttribute('href'))!);
    expect(google.searchParams.get('details')).toBe(bookingNumber);
    expect(google.searchParams.get('location')).toBe(INFO.meetingPoint);

    await tabTo(page, 'Download .ics file');
    const [download] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('Enter')]);
    expect(download.suggestedFilename()).toBe(`${bookingNumber}.ics`);
    const ics = unfold(await icsOf(download));
    expect(ics.match(/BEGIN:VEVENT/g)).toHaveLength(1);
    expect(ics).toMatch(/\r\nUID:bk_[A-Za-z0-9]+@/);
    expect(ics).toContain(`DESCRIPTION:Booking number: ${bookingNumber}\\nParticipants: 1 participant`);
    expect(ics).toContain('LOCATION:Largo do Chafariz de Dentro\\, by the fountain');
    expect(ics).toContain('STATUS:CONFIRMED');

    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    expect(problems).toEqual([]);
    await page.context().close();

    const checked = await dashboardPage(browser, { bypassCSP: true, viewport: { width: 375, height: 800 } });
    await checked.page.goto(link!);
    await checked.page.getByRole('heading', { level: 2, name: 'Add to calendar' }).waitFor();
    expect(await violations(checked.page, 'html')).toEqual([]);
    await checked.page.context().close();
  });
});
