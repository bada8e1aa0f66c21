import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { violations } from './axe.js';
import { launchChromium } from './browser.js';
import { apiAs, signedInState, dashboardPage as openPage, openSignedIn, overflow, ownerOf, unexpected, type Owner } from './dashboard-helpers.js';
import { startOuting, type OutingServer } from './outing-server.js';

/**
 * Settings in real Chromium against a real server that may call private addresses
 * (OUTBOUND_ALLOW_PRIVATE), so a receiver on 127.0.0.1 started here gets the webhooks and serves
 * the calendar to import. Everything is done as the demo owner would, and checked through the API.
 */
const artifacts = resolve(import.meta.dirname, '../test-results');
let outing: OutingServer;
let browser: Browser;
let owner: Owner;
let receiver: Server;
let receiverUrl: string;
let signedIn: BrowserContextOptions['storageState'];
/** What the receiver was sent, in order. */
const received: { path: string; headers: IncomingHttpHeaders; body: string }[] = [];

const ICS = [
  'BEGIN:VCALENDAR',
  'VERSION:2.0',
  'PRODID:-//e2e//settings//EN',
  'BEGIN:VEVENT',
  'UID:guide-holiday@e2e',
  'DTSTAMP:20260101T000000Z',
  'DTSTART:20300105T090000Z',
  'DTEND:20300105T170000Z',
  'SUMMARY:Guide on holiday',
  'END:VEVENT',
  'END:VCALENDAR',
  '',
].join('\r\n');

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      if (req.url === '/calendar.ics') {
        res.writeHead(200, { 'content-type': 'text/calendar' }).end(ICS);
        return;
      }
      received.push({ path: req.url ?? '', headers: req.headers, body });
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((done) => receiver.listen(0, '127.0.0.1', done));
  const address = receiver.address();
  receiverUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  [outing, browser] = await Promise.all([startOuting({ OUTBOUND_ALLOW_PRIVATE: 'true' }), launchChromium()]);
  owner = ownerOf(outing);
  await mkdir(artifacts, { recursive: true });
  signedIn = await signedInState(browser, outing, owner);
});

afterAll(async () => {
  await browser?.close();
  await outing?.stop();
  await new Promise((done) => receiver?.close(done));
});

const api = <T = any>(path: string, init: RequestInit = {}) => apiAs<T>(outing, path, init);
/** A page of a browser already signed in as the owner. */
const dashboardPage = (b: Browser, options: BrowserContextOptions = {}) => openPage(b, { storageState: signedIn, ...options });
const settings = (section = '') => `/dashboard/settings${section ? `/${section}` : ''}`;

/** Opens a Settings section signed in as the owner and waits for it to finish loading. */
async function openSection(page: Page, section: string, name: string): Promise<void> {
  await openSignedIn(page, outing, owner, settings(section), 'Settings');
  await page.getByRole('heading', { level: 2, name }).waitFor();
  await expect.poll(() => page.locator('.status-line').innerText()).not.toContain('Loading');
}

/** The focused element as `tag#id|text|ring`, ring true when its focus outline shows. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLElement;
    const style = getComputedStyle(el);
    return `${el.tagName.toLowerCase()}#${el.id}|${el.textContent?.trim().slice(0, 30)}|${style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2}`;
  });

async function tabTo(page: Page, wanted: RegExp, key = 'Tab'): Promise<void> {
  for (let i = 0; i < 60; i++) {
    await page.keyboard.press(key);
    const at = await focused(page);
    if (!at.startsWith('body') && !/^h\d/.test(at)) expect(at, 'focus visible').toMatch(/\|true$/);
    if (wanted.test(at)) return;
  }
  throw new Error(`Tab never reached ${wanted}`);
}

/** A booking through the API on the first free slot of the demo's walk. */
async function book(name: string): Promise<string> {
  const experiences = (await api<{ id: string; name: string }[]>('/v1/experiences')).data;
  const walk = experiences.find((x) => x.name === 'Alfama Old Town Walk')!;
  const from = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
  const to = new Date(Date.now() + 20 * 86_400_000).toISOString().slice(0, 10);
  const { data } = await api<{ slots: { startTime: string; available: boolean }[] }>(`/v1/availability?experienceId=${walk.id}&startDate=${from}&endDate=${to}`);
  const slot = data.slots.find((s) => s.available)!;
  const made = await api<{ id: string }>('/v1/bookings', {
    method: 'POST',
    body: JSON.stringify({ experienceId: walk.id, startTime: slot.startTime, participants: 1, customerName: name, customerEmail: 'webhook-guest@example.com' }),
  });
  expect(made.status).toBe(201);
  return made.data.id;
}

describe('Settings', () => {
  it('creates a secret key by keyboard, copies it, uses it, and revokes it by keyboard', async () => {
    const { page, problems } = await dashboardPage(browser, { permissions: ['clipboard-read', 'clipboard-write'] });
    await openSection(page, 'api-keys', 'API keys');
    // The demo's secret key is listed by prefix, never in full; its publishable key (public by
    // design, in every page with the widget) is listed whole, to copy.
    expect(await page.locator('.records').innerText()).not.toContain(outing.secretKey);
    expect(await page.locator('.records').innerText()).toContain(outing.secretKey.slice(0, 8));
    expect(await page.getByRole('textbox', { name: 'Publishable key “Default publishable key”' }).inputValue()).toBe(outing.publishableKey);
    expect(await page.content()).not.toContain(outing.secretKey);

    await tabTo(page, /^input#key-name/);
    await page.keyboard.type('Reporting script');
    // Secret is the first type, and with no scope ticked the key may do everything: Enter sends the form.
    await page.keyboard.press('Enter');
    const panel = page.getByRole('group', { name: 'Your new key “Reporting script”' });
    await panel.waitFor();
    expect(await focused(page)).toMatch(/^h3#revealed-title/);
    expect(await panel.innerText()).toContain('cannot show it again');
    await page.keyboard.press('Tab');
    expect(await focused(page)).toMatch(/^input#revealed-value/);
    await page.keyboard.press('Tab');
    expect(await focused(page)).toMatch(/^button#\|Copy\|true/);
    await page.keyboard.press('Enter');
    await panel.getByText('Copied', { exact: true }).waitFor();
    const key = await page.evaluate(() => navigator.clipboard.readText());
    expect(key).toMatch(/^osk_[A-Za-z0-9]+$/);
    expect(await page.getByRole('textbox', { name: 'Secret key' }).inputValue()).toBe(key);

    // The key works on /v1, and its card shows its use.
    const use = () => fetch(`${outing.origin}/v1/organization`, { headers: { authorization: `Bearer ${key}` } });
    expect((await use()).status).toBe(200);
    const listed = (await api<{ id: string; name: string; lastUsedAt: string | null; prefix: string }[]>('/v1/api-keys')).data.find((k) => k.name === 'Reporting script')!;
    expect(key.startsWith(listed.prefix)).toBe(true);
    expect(listed.lastUsedAt).not.toBeNull();

    // Done with it: the value leaves the page.
    await tabTo(page, /^button#\|I have copied it/);
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByRole('textbox', { name: 'Secret key' }).count()).toBe(0);

    // Revoke by keyboard: Escape backs out with focus back on the button, Enter on the dialog's button revokes.
    await page.reload();
    await page.getByRole('heading', { name: 'Reporting script' }).waitFor();
    await tabTo(page, new RegExp(`^button#revoke-${listed.id}`));
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Revoke the key “Reporting script”?' });
    await dialog.waitFor();
    expect(await focused(page)).toMatch(/^button#\|Revoke key\|true/);
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.count()).toBe(0);
    expect(await focused(page)).toMatch(new RegExp(`^button#revoke-${listed.id}\\|Revoke\\|true`));
    expect((await use()).status).toBe(200);
    await page.keyboard.press('Space');
    await dialog.waitFor();
    await page.keyboard.press('Enter');
    await page.getByText('The key “Reporting script” is revoked.').waitFor();
    expect(await page.getByRole('heading', { name: 'Reporting script' }).locator('..').innerText()).toMatch(/Revoked\s*\w{3}/i);
    const refused = await use();
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('INVALID_API_KEY');
    expect(unexpected(problems)).toEqual([]);
    await page.context().close();
  });

  it('edits the organization, with a refusal next to its field', async () => {
    const { page, problems } = await dashboardPage(browser);
    await openSection(page, '', 'Organization');
    expect(await page.getByLabel('Time zone').inputValue()).toBe('Europe/Lisbon');
    await page.getByLabel('Email').fill('not an address');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.locator('#org-email-error').waitFor();
    expect(await page.getByLabel('Email').getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByLabel('Email').inputValue()).toBe('not an address');

    const before = (await api<{ email: string }>('/v1/organization')).data;
    await page.getByLabel('Email').fill(before.email);
    await page.getByLabel('Phone').fill('+351 21 000 0000');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('The organization is saved.').waitFor();
    expect((await api<{ phone: string | null }>('/v1/organization')).data.phone).toBe('+351 21 000 0000');
    expect(unexpected(problems, 400)).toEqual([]);
    await page.context().close();
  });

  it('adds a webhook endpoint, sees a booking delivered and signed, retries it, disables it, rotates its secret and deletes it', async () => {
    const { page, problems } = await dashboardPage(browser);
    await openSection(page, 'webhooks', 'Webhooks');
    const url = `${receiverUrl}/hook`;
    await page.getByLabel('URL').fill(url);
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    await page.getByRole('group', { name: `Signing secret of ${url}` }).waitFor();
    const secret = await page.getByRole('textbox', { name: 'Signing secret' }).inputValue();
    expect(secret).toMatch(/^whsec_/);
    const endpoint = (await api<{ id: string; url: string; events: string[] }[]>('/v1/webhook-endpoints')).data.find((e) => e.url === url)!;
    expect(endpoint.events).toHaveLength(6);

    const bookingId = await book('Webhook Guest');
    await expect.poll(() => received.length, { timeout: 15_000 }).toBeGreaterThan(0);
    const first = received[0]!;
    // Signed with the secret the page showed once.
    const event = new Webhook(secret).verify(first.body, first.headers as Record<string, string>) as { event: string; data: { booking: { id: string } } };
    expect(event.event).toBe('BOOKING_CREATED');
    expect(event.data.booking.id).toBe(bookingId);

    await page.getByRole('link', { name: 'Delivery log' }).click();
    await page.getByRole('heading', { name: `Delivery log of ${url}` }).waitFor();
    expect(new URL(page.url()).searchParams.get('endpoint')).toBe(endpoint.id);
    const row = page.getByRole('row').filter({ hasText: 'BOOKING_CREATED' });
    for (let i = 0; i < 20 && !(await row.innerText()).includes('Succeeded'); i++) {
      await page.getByRole('button', { name: 'Refresh' }).click();
      await page.waitForTimeout(300);
    }
    expect(await row.innerText()).toMatch(/Succeeded \(HTTP 200\)/);
    expect(await row.innerText()).toContain('None');

    await row.getByRole('button', { name: 'Retry' }).click();
    await page.getByText(/Sent again/).waitFor();
    await expect.poll(() => received.filter((r) => r.headers['webhook-id'] === first.headers['webhook-id']).length, { timeout: 15_000 }).toBe(2);
    await page.getByRole('button', { name: 'Refresh' }).click();
    await expect.poll(() => row.innerText()).toMatch(/Succeeded[\s\S]*2/);

    // Back to the list: disable and enable again.
    await page.goBack();
    await page.getByRole('heading', { level: 3, name: url, exact: true }).waitFor();
    const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: url, exact: true }) });
    await card.getByRole('button', { name: 'Disable' }).click();
    await card.getByRole('button', { name: 'Enable' }).waitFor();
    expect((await api<{ enabled: boolean }>(`/v1/webhook-endpoints/${endpoint.id}`)).data.enabled).toBe(false);
    await card.getByRole('button', { name: 'Enable' }).click();
    await card.getByRole('button', { name: 'Disable' }).waitFor();
    expect((await api<{ enabled: boolean }>(`/v1/webhook-endpoints/${endpoint.id}`)).data.enabled).toBe(true);

    // Rotate: asked first, then the new secret once; the next delivery verifies with it.
    await card.getByRole('button', { name: 'Rotate secret' }).click();
    await page.getByRole('dialog', { name: `Rotate the signing secret of ${url}?` }).getByRole('button', { name: 'Rotate secret' }).click();
    await page.getByRole('group', { name: `New signing secret of ${url}` }).waitFor();
    const rotated = await page.getByRole('textbox', { name: 'Signing secret' }).inputValue();
    expect(rotated).toMatch(/^whsec_/);
    expect(rotated).not.toBe(secret);
    const count = received.length;
    await book('After Rotation');
    await expect.poll(() => received.length, { timeout: 15_000 }).toBeGreaterThan(count);
    const latest = received.at(-1)!;
    expect(() => new Webhook(rotated).verify(latest.body, latest.headers as Record<string, string>)).not.toThrow();

    await card.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete endpoint' }).click();
    await page.getByText(`The endpoint ${url} is deleted.`).waitFor();
    expect((await api(`/v1/webhook-endpoints/${endpoint.id}`)).status).toBe(404);
    expect(unexpected(problems)).toEqual([]);
    await page.context().close();
  });

  it('creates a bookings feed (address shown once), imports a calendar, syncs it, and deletes both', async () => {
    const { page, problems } = await dashboardPage(browser);
    await openSection(page, 'calendars', 'Calendars');
    await page.getByRole('textbox', { name: 'Name' }).first().fill('Guides’ calendar');
    await page.getByRole('button', { name: 'Create feed' }).click();
    await page.getByRole('group', { name: 'Address of the feed “Guides’ calendar”' }).waitFor();
    const feedUrl = await page.getByRole('textbox', { name: 'Feed address' }).inputValue();
    const ics = await fetch(feedUrl);
    expect(ics.status).toBe(200);
    expect(ics.headers.get('content-type')).toContain('text/calendar');

    const imports = page.getByRole('form', { name: 'Import a calendar' });
    await imports.getByLabel('Name').fill('Guide holidays');
    await imports.getByLabel('URL').fill(`${receiverUrl}/calendar.ics`);
    await imports.getByRole('button', { name: 'Add calendar' }).click();
    const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'Guide holidays' }) });
    await card.waitFor();
    expect(await card.innerText()).toMatch(/Events\s*1/i);
    expect(await card.innerText()).toMatch(/Last error\s*None/i);
    expect(await card.innerText()).not.toMatch(/Last synced\s*Never/i);
    await card.getByRole('button', { name: 'Sync now' }).click();
    await page.getByText('“Guide holidays” is synced.').waitFor();
    const stored = (await api<{ name: string; lastSyncedAt: string | null; eventCount: number }[]>('/v1/calendar-imports')).data.find((i) => i.name === 'Guide holidays')!;
    expect(stored.eventCount).toBe(1);

    await card.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete import' }).click();
    await page.getByText('The import “Guide holidays” is deleted.').waitFor();
    const feed = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'Guides’ calendar' }) });
    await feed.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete feed' }).click();
    await page.getByText('The feed “Guides’ calendar” is deleted.').waitFor();
    expect((await fetch(feedUrl)).status).toBe(404);
    expect((await api<unknown[]>('/v1/calendar-imports')).data).toHaveLength(0);
    expect(unexpected(problems)).toEqual([]);
    await page.context().close();
  });

  it('shows the activity log newest first, with pages', async () => {
    const { page, problems } = await dashboardPage(browser);
    await openSection(page, 'activity', 'Activity');
    const rows = page.getByRole('table', { name: 'Activity' }).getByRole('row');
    await expect.poll(() => rows.count()).toBe(21);
    // The last thing done in these tests comes first.
    expect(await rows.nth(1).innerText()).toMatch(/calendar_feed\.delete|booking\./);
    expect(await page.getByRole('table', { name: 'Activity' }).innerText()).toContain('calendar_feed.delete');
    // At 1280 px every action code stays on one line: none broken inside a word.
    const lines = await page.locator('table code.action').evaluateAll((codes) => codes.map((c) => [c.textContent, c.getClientRects().length] as const));
    expect(lines.length).toBe(20);
    expect(lines.filter(([, n]) => n !== 1)).toEqual([]);
    await page.getByRole('link', { name: 'Next page' }).click();
    await page.getByText(/^21–40 of/).waitFor();
    expect(new URL(page.url()).searchParams.get('offset')).toBe('20');
    expect(unexpected(problems)).toEqual([]);
    await page.context().close();
  });

  it('has no axe violation on any section or open dialog, fits 375 px, and is photographed at 375 and 1280 px', async () => {
    const { page, problems } = await dashboardPage(browser, { bypassCSP: true });
    const endpoint = await api<{ id: string }>('/v1/webhook-endpoints', { method: 'POST', body: JSON.stringify({ url: `${receiverUrl}/axe` }) });
    await book('Log Entry');
    await expect.poll(async () => (await api<unknown[]>(`/v1/webhook-endpoints/${endpoint.data.id}/deliveries`)).data.length, { timeout: 15_000 }).toBeGreaterThan(0);
    const sections: [string, string, string][] = [
      ['', 'Organization', 'organization'],
      ['api-keys', 'API keys', 'api-keys'],
      ['webhooks', 'Webhooks', 'webhooks'],
      [`webhooks?endpoint=${endpoint.data.id}`, 'Webhooks', 'delivery-log'],
      ['calendars', 'Calendars', 'calendars'],
      ['team', 'Team', 'team'],
      ['activity', 'Activity', 'activity'],
    ];
    await openSection(page, '', 'Organization');
    for (const [path, name, shot] of sections) {
      await page.setViewportSize({ width: 1280, height: 900 });
      // Moving inside the app, as a person would: no reload between sections.
      if (shot === 'delivery-log') await page.getByRole('link', { name: 'Delivery log' }).click();
      else await page.getByRole('navigation', { name: 'Settings sections' }).getByRole('link', { name }).click();
      await page.getByRole('heading', { level: 2, name }).waitFor();
      await expect.poll(() => page.url()).toContain(settings(path));
      await expect.poll(() => page.locator('.status-line').innerText()).not.toContain('Loading');
      if (shot === 'delivery-log') await page.getByRole('button', { name: 'Retry' }).first().waitFor();
      expect(await violations(page, 'html'), shot).toEqual([]);
      await page.screenshot({ path: `${artifacts}/dashboard-settings-${shot}-1280.png`, fullPage: true });
      await page.setViewportSize({ width: 375, height: 800 });
      expect(await overflow(page), `${shot} at 375 px`).toBeLessThanOrEqual(0);
      await page.screenshot({ path: `${artifacts}/dashboard-settings-${shot}-375.png`, fullPage: true });
    }

    // A key shown once, and a dialog open, at 375 px too.
    await page.setViewportSize({ width: 1280, height: 900 });
    await openSection(page, 'api-keys', 'API keys');
    await page.getByLabel('Name').fill('Axe key');
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.getByRole('group', { name: /Your new key/ }).waitFor();
    expect(await violations(page, 'html'), 'a key shown once').toEqual([]);
    await page.getByRole('button', { name: 'Revoke' }).first().click();
    await page.getByRole('dialog').waitFor();
    expect(await violations(page, 'html'), 'the revoke dialog').toEqual([]);
    await page.setViewportSize({ width: 375, height: 800 });
    expect(await overflow(page), 'dialog at 375 px').toBeLessThanOrEqual(0);
    await page.screenshot({ path: `${artifacts}/dashboard-settings-dialog-375.png` });
    await page.keyboard.press('Escape');

    // A refusal beside its field.
    await page.getByLabel('Name').fill('');
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.locator('#key-name-error').waitFor();
    expect(await violations(page, 'html'), 'a refused key').toEqual([]);
    expect(unexpected(problems, 400)).toEqual([]);
    await page.context().close();
  });
});
