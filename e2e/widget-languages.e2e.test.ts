import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Booking, Experience, Locale } from '../shared/index.js';
import de from '../widget/i18n/de.json' with { type: 'json' };
import es from '../widget/i18n/es.json' with { type: 'json' };
import fr from '../widget/i18n/fr.json' with { type: 'json' };
import it_ from '../widget/i18n/it.json' with { type: 'json' };
import type { Messages } from '../widget/i18n/messages.js';
import nl from '../widget/i18n/nl.json' with { type: 'json' };
import pt from '../widget/i18n/pt.json' with { type: 'json' };
import { manageCatalogs } from '../widget/manage/messages.js';
import { startSmtpServer, type TestSmtpServer } from '../server/test-helpers/smtp.js';
import { violations } from './axe.js';
import { launchChromium, openPage } from './browser.js';
import { embedPage, startHostSite, type HostSite } from './host-page.js';
import { startOuting, type OutingServer } from './outing-server.js';
import { widgetOn } from './widget-steps.js';

/**
 * The widget and the manage page in each language but English, in real Chromium against one
 * `outing serve --demo` (e-mails to an SMTP server in this process), embedded on another origin:
 * the widget chosen by data-locale shows its texts, writes a price as its country does, books
 * with its code (stored on the booking), with no axe violation; the manage link of that booking
 * then speaks the same language. Last, the org's default language when the browser asks for none of ours.
 */
let smtp: TestSmtpServer | undefined;
let outing: OutingServer;
let host: HostSite;
let browser: Browser;
let walk: Experience;

const texts: Record<Exclude<Locale, 'en'>, Messages> = { pt, es, fr, de, it: it_, nl };
/** The tag data-locale names, and €25.00 as that country writes it. */
const cases: [Exclude<Locale, 'en'>, string, string][] = [
  ['pt', 'pt-PT', '25,00 €'],
  ['es', 'es-ES', '25,00 €'],
  ['fr', 'fr-FR', '25,00 €'],
  ['de', 'de-DE', '25,00 €'],
  ['it', 'it-IT', '25,00 €'],
  ['nl', 'nl-NL', '€ 25,00'],
];

async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${outing.origin}/v1/${path}`, {
    method,
    headers: { Authorization: `Bearer ${outing.secretKey}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const answer = (await res.json()) as { data: T };
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(answer)}`);
  return answer.data;
}

const mailTo = (address: string) => (smtp?.received ?? []).filter((r) => r.to.includes(address)).map((r) => r.mail);
/** Intl's no-break spaces as plain ones. */
const plain = (s: string) => s.replace(/[\s\u00a0\u202f]+/g, ' ').trim();

beforeAll(async () => {
  smtp = await startSmtpServer();
  outing = await startOuting({ SMTP_URL: smtp.url });
  host = await startHostSite();
  browser = await launchChromium();
  const list = await api<Experience[]>('GET', 'experiences?limit=100');
  const found = list.find((e) => e.name === 'Alfama Old Town Walk') ?? list[0]!;
  // €25.00 a person, by participants, with room for every language's booking.
  walk = await api<Experience>('PATCH', `experiences/${found.id}`, { price: 2500, priceCategories: [], maxParticipants: 40 });
}, 90_000);

afterAll(async () => {
  await browser?.close();
  await host?.stop();
  await outing?.stop();
  if (smtp) await smtp.close();
});

describe('the widget and the manage page in every language', () => {
  it.each(cases)('%s: texts, prices, booking locale, axe, then the manage page', async (code, tag, price) => {
    const t = texts[code];
    const url = host.page(`/${code}`, embedPage(outing.origin, { key: outing.publishableKey, experience: walk.id, locale: tag }, code));
    const { page, requests, problems } = await openPage(browser, { bypassCSP: true });
    await page.goto(url);
    const w = widgetOn(page);
    await w.getByRole('heading', { name: t.chooseDate, exact: true }).waitFor();
    expect(await w.locator('.outing').first().getAttribute('lang')).toBe(tag);
    await w.locator('button.day.free').first().waitFor();
    // One request more than English (its texts), and nothing else, before the first times show.
    const calls = requests.filter((r) => r.split(' ')[1]!.startsWith(outing.origin)).map((r) => new URL(r.split(' ')[1]!).pathname);
    expect(calls.slice(0, 2)).toEqual(['/widget.js', `/widget/${code}.json`]);
    expect(calls.length).toBeLessThanOrEqual(4);
    // A day weeks ahead, so that the manage page may still cancel it.
    await w.getByRole('button', { name: t.nextMonth, exact: true }).click();
    await w.locator('button.day.free').last().click();
    await w.getByRole('heading', { name: t.chooseTime, exact: true }).waitFor();
    await w.locator('button.time:not([disabled])').first().click();
    await w.getByRole('heading', { name: t.yourDetails, exact: true }).waitFor();
    expect(plain(await w.locator('.total strong').innerText())).toBe(price);
    expect(await violations(page)).toEqual([]);

    const email = `guest-${code}@e2e-languages.example`;
    await w.getByLabel(t.name, { exact: true }).fill(`Guest ${code}`);
    await w.getByLabel(t.email, { exact: true }).fill(email);
    await w.getByRole('button', { name: t.book, exact: true }).click();
    await w.getByRole('heading', { name: t.confirmed, exact: true }).waitFor();
    expect(await violations(page)).toEqual([]);
    const bookingNumber = plain(await w.locator('.number strong').innerText());
    const [stored] = await api<Booking[]>('GET', `bookings?q=${bookingNumber}`);
    expect(stored).toMatchObject({ bookingNumber, locale: code, source: 'WIDGET' });
    expect(problems).toEqual([]);
    await page.context().close();

    // The booking's manage link, from its confirmation e-mail, in a browser that asks for English.
    await expect.poll(() => mailTo(email).length, { timeout: 15_000 }).toBe(1);
    const mail = mailTo(email)[0]!;
    const link = new RegExp(`${outing.origin.replace(/[.]/g, '\\.')}/manage#[A-Za-z0-9_-]+`).exec(`${mail.text ?? ''} ${mail.html || ''}`)?.[0];
    expect(link, mail.text).toBeTruthy();
    const m = manageCatalogs[code];
    const manage = await openPage(browser, { bypassCSP: true });
    await manage.page.goto(link!);
    await manage.page.getByRole('heading', { level: 1, name: m.title }).waitFor();
    expect(await manage.page.evaluate(() => [document.documentElement.lang, document.title])).toEqual([code === 'pt' ? 'pt-PT' : code, expect.stringMatching(new RegExp(`^${m.title}`))]);
    expect(await manage.page.getByRole('button', { name: m.cancelBooking, exact: true }).count()).toBe(1);
    expect(plain(await manage.page.getByText(price, { exact: false }).first().innerText())).toContain(price);
    expect(await violations(manage.page, 'html')).toEqual([]);
    expect(manage.problems).toEqual([]);
    await manage.page.context().close();
  });

  it('speaks the org’s default language when the browser asks for none of ours', async () => {
    await api('PATCH', 'organization', { defaultLocale: 'nl' });
    try {
      const url = host.page('/default', embedPage(outing.origin, { key: outing.publishableKey, experience: walk.id }));
      const { page, problems, requests } = await openPage(browser, { locale: 'ja-JP' });
      await page.goto(url);
      const w = widgetOn(page);
      await w.getByRole('heading', { name: nl.chooseDate, exact: true }).waitFor();
      await w.locator('button.day.free').first().waitFor();
      expect(await w.locator('.outing').first().getAttribute('lang')).toBe('nl');
      // The experience answer names the language; its texts are still the only request more than English.
      const calls = requests.filter((r) => r.split(' ')[1]!.startsWith(outing.origin)).map((r) => new URL(r.split(' ')[1]!).pathname);
      expect(calls.length).toBeLessThanOrEqual(4);
      expect(calls).toContain('/widget/nl.json');
      expect(problems).toEqual([]);
      await page.context().close();
    } finally {
      await api('PATCH', 'organization', { defaultLocale: 'en' });
    }
  });
});
