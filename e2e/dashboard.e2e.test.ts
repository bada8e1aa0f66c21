import { copyFile, mkdir, readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { violations } from './axe.js';
import type { openPage } from './browser.js';
import { apiAs, dashboardPage as openDashboard, heading, overflow, ownerOf, signIn as signInAs, unexpected, type Owner } from './dashboard-helpers.js';
import type { OutingServer } from './outing-server.js';
import { useOutingAndChromium } from './suite.js';

/**
 * The operator dashboard in real Chromium against a real server, under the CSP it is served with
 * (only the axe runs bypass it, to inject axe). The demo owner signs in with the password that
 * `outing serve --demo` prints.
 */
const artifacts = resolve(import.meta.dirname, '../test-results');
const docs = resolve(import.meta.dirname, '../docs');
const suite = useOutingAndChromium();
let outing: OutingServer;
let browser: Browser;
let owner: Owner;
/**
 * A day with guests: three bookings on the first day with an empty Alfama walk, past the week of
 * tours the demo has already sold places in (so the day after it has no bookings either).
 */
let busyDate: string;
/** A day the demo has tours on but no bookings: well beyond its seeded week. */
let emptyDate: string;
let bookingNumbers: string[];

const api = <T = any>(path: string, init: RequestInit = {}) => apiAs<T>(outing, path, init);
/** `Tuesday, December 1, 2026`, as the dashboard writes a date in an en-US browser. */
const longDateOf = (date: string) => new Intl.DateTimeFormat('en-US', { dateStyle: 'full', timeZone: 'UTC' }).format(new Date(`${date}T00:00:00Z`));

beforeAll(async () => {
  ({ outing, browser } = suite());
  await mkdir(artifacts, { recursive: true });
  owner = ownerOf(outing);

  const experiences = (await api<{ id: string; name: string }[]>('/v1/experiences')).data;
  const walk = experiences.find((x) => x.name === 'Alfama Old Town Walk')!;
  const from = new Date(Date.now() + 10 * 86_400_000).toISOString().slice(0, 10);
  const to = new Date(Date.now() + 24 * 86_400_000).toISOString().slice(0, 10);
  const { data: availability } = await api<{ slots: { startTime: string; available: boolean; booked: number }[] }>(
    `/v1/availability?experienceId=${walk.id}&startDate=${from}&endDate=${to}`,
  );
  const slot = availability.slots.find((s) => s.available && s.booked === 0)!;
  bookingNumbers = [];
  for (const [name, participants, email] of [
    ['Ana Lima', 2, 'ana@example.com'],
    ['Bruno Costa', 1, 'bruno@example.com'],
    ['Chloé Martin', 4, 'chloe@example.com'],
  ] as const) {
    const booked = await api<{ bookingNumber: string; status: string }>('/v1/bookings', {
      method: 'POST',
      body: JSON.stringify({
        experienceId: walk.id,
        startTime: slot.startTime,
        participants,
        customerName: name,
        customerEmail: email,
      }),
    });
    expect(booked.status).toBe(201);
    bookingNumbers.push(booked.data.bookingNumber);
  }
  // The manifest's day is read in the organization's zone, Lisbon for the demo.
  busyDate = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Lisbon' }).format(new Date(slot.startTime));
  emptyDate = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Lisbon' }).format(new Date(Date.now() + 200 * 86_400_000));
});

const dashboardPage = (options: Parameters<typeof openPage>[1] = {}) => openDashboard(browser, options);
const signIn = (page: Page, password = owner.password) => signInAs(page, owner, password);

describe('the dashboard', () => {
  it('is served under its strict headers at every path but its API', async () => {
    for (const path of ['/dashboard', '/dashboard/', '/dashboard/sign-in', '/dashboard/setup', '/dashboard/bookings/anything']) {
      const res = await fetch(`${outing.origin}${path}`);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(res.headers.get('content-security-policy')).toBe(
        "default-src 'self'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
      );
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      expect(res.headers.get('referrer-policy')).toBe('no-referrer');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      const html = await res.text();
      expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>|<style|style="/);
    }
    const html = await (await fetch(`${outing.origin}/dashboard`)).text();
    const script = /src="(\/dashboard\/assets\/[^"]+\.js)"/.exec(html)![1]!;
    const asset = await fetch(`${outing.origin}${script}`);
    expect(asset.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect((await fetch(`${outing.origin}/dashboard/assets/missing.js`)).status).toBe(404);
    const api404 = await fetch(`${outing.origin}/dashboard/api/missing`);
    expect(api404.status).toBe(404);
    expect(api404.headers.get('content-type')).toContain('application/json');
  });

  it('signs in, shows today in at most four requests, checks a guest in, downloads the CSV and signs out', async () => {
    const { page, problems, requests } = await dashboardPage();
    await page.goto(`${outing.origin}/dashboard`);
    // Signed out: the address keeps nothing to come back to but Today.
    await heading(page, 'Sign in');
    expect(new URL(page.url()).pathname).toBe('/dashboard/sign-in');

    // A wrong password is an alert, and nothing more.
    await signIn(page, 'not-the-password');
    await expect.poll(() => page.getByRole('alert').innerText()).toContain('not right');

    const before = requests.length;
    await signIn(page);
    await heading(page, 'Today');
    await page.getByRole('status').filter({ hasText: /booking/ }).waitFor();
    const calls = requests.slice(before).filter((r) => /\/(v1|dashboard\/api)\//.test(r));
    expect(calls.length, calls.join('\n')).toBeLessThanOrEqual(4);
    expect(calls).toEqual([
      `POST ${outing.origin}/dashboard/api/session`,
      expect.stringMatching(/^GET .*\/v1\/(manifest|experiences)/),
      expect.stringMatching(/^GET .*\/v1\/(manifest|experiences)/),
    ]);
    const today = await page.getByLabel('Date').inputValue();
    expect(today).toBe(new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Lisbon' }).format(new Date()));
    // The demo has guests today (it seeds a month of bookings): the screen shows what the API has.
    const manifest = (await api<{ slots: { bookings: { guestName: string }[] }[] }>(`/v1/manifest?date=${today}`)).data;
    const guests = manifest.slots.flatMap((s) => s.bookings);
    await expect.poll(() => page.getByRole('status').filter({ hasText: /booking/ }).innerText()).toMatch(new RegExp(`^${guests.length} bookings?,`));
    // Only on the days the demo has no tour at all (Christmas, New Year's Day) is today empty.
    if (guests.length) await page.getByText(guests[0]!.guestName).first().waitFor();

    // A day without bookings: the empty state says what to do.
    await page.getByLabel('Date').fill(emptyDate);
    await page.getByRole('heading', { name: 'No bookings on this day' }).waitFor();

    // Another day through the Date control.
    await page.getByLabel('Date').fill(busyDate);
    await page.getByText('Ana Lima').waitFor();
    expect(new URL(page.url()).searchParams.get('date')).toBe(busyDate);
    const slot = page.getByRole('region').filter({ hasText: 'Ana Lima' });
    await expect.poll(() => slot.innerText()).toContain('7/');
    expect(await slot.innerText()).toContain('Europe/Lisbon');
    expect(await slot.innerText()).toContain(bookingNumbers[0]);
    expect(await slot.innerText()).toMatch(/€50\.00/);

    // Check in Ana: the button is a toggle, and the server keeps it. Her tour is days away, so the
    // dashboard asks first; "Not now" changes nothing.
    const ana = page.getByRole('listitem').filter({ hasText: 'Ana Lima' });
    const toggle = ana.getByRole('button', { name: 'Check in' });
    expect(await toggle.getAttribute('aria-pressed')).toBe('false');
    await toggle.click();
    const question = page.getByRole('dialog', { name: 'Check in Ana Lima?' });
    expect(await question.innerText()).toContain(`This booking is for ${longDateOf(busyDate)}. Check in anyway?`);
    await question.getByRole('button', { name: 'Not now' }).click();
    await question.waitFor({ state: 'detached' });
    expect(await toggle.getAttribute('aria-pressed')).toBe('false');
    expect((await api<{ checkedInAt: string | null }[]>(`/v1/bookings?q=${bookingNumbers[0]}`)).data[0]!.checkedInAt).toBeNull();
    const patched = page.waitForResponse((r) => r.request().method() === 'PATCH' && r.url().includes('/v1/bookings/'));
    await toggle.click();
    await question.getByRole('button', { name: 'Check in anyway' }).click();
    expect((await patched).status()).toBe(200);
    await expect.poll(() => toggle.getAttribute('aria-pressed')).toBe('true');
    const stored = await api<{ checkedInAt: string | null }[]>(`/v1/bookings?q=${bookingNumbers[0]}`);
    expect(stored.data[0]!.checkedInAt).not.toBeNull();

    // A reload keeps the session and the day: three requests again.
    const reloadFrom = requests.length;
    await page.reload();
    await page.getByText('Ana Lima').waitFor();
    expect(await ana.getByRole('button', { name: 'Check in' }).getAttribute('aria-pressed')).toBe('true');
    expect(requests.slice(reloadFrom).filter((r) => /\/(v1|dashboard\/api)\//.test(r))).toHaveLength(3);

    // The CSV comes as a download (fetched with the CSRF header, saved from a Blob URL).
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download CSV' }).click()]);
    expect(download.suggestedFilename()).toMatch(/\.csv$/);
    const csv = await readFile((await download.path())!, 'utf8');
    for (const n of bookingNumbers) expect(csv).toContain(n);
    expect(csv).toMatch(new RegExp(`${bookingNumbers[0]}.*yes`));

    await page.getByRole('button', { name: 'Sign out' }).click();
    await heading(page, 'Sign in');
    await page.getByText('You have signed out.').waitFor();
    // The session is gone on the server too: the dashboard's own API says so.
    expect(await page.evaluate(async () => (await fetch('/dashboard/api/session')).status)).toBe(401);
    expect(unexpected(problems, 401)).toEqual([]);
    await page.context().close();
  });

  it('sets a password from a setup link, with errors next to the fields', async () => {
    const created = await api<{ setupUrl: string; email: string }>('/v1/users', {
      method: 'POST',
      body: JSON.stringify({ email: 'rita@lisbonwalks.example', name: 'Rita Guide', role: 'staff' }),
    });
    expect(created.status).toBe(201);
    const { page, problems } = await dashboardPage();
    await page.goto(created.data.setupUrl);
    await heading(page, 'Set password');
    await page.getByLabel('New password', { exact: true }).fill('short');
    await page.getByLabel('Repeat the new password').fill('shorter');
    await page.getByRole('button', { name: 'Set password' }).click();
    await page.getByText('Use at least 10 characters.').waitFor();
    await page.getByText('The two passwords are not the same.').waitFor();
    expect(await page.getByLabel('New password', { exact: true }).getAttribute('aria-invalid')).toBe('true');

    // The server's own rule, from details[].path: not the e-mail address.
    await page.getByLabel('New password', { exact: true }).fill('rita@lisbonwalks.example');
    await page.getByLabel('Repeat the new password').fill('rita@lisbonwalks.example');
    await page.getByRole('button', { name: 'Set password' }).click();
    const error = page.locator('#password-error');
    await error.waitFor();
    expect(await error.innerText()).toMatch(/e-mail/i);

    await page.getByLabel('New password', { exact: true }).fill('a long walk through Alfama');
    await page.getByLabel('Repeat the new password').fill('a long walk through Alfama');
    await page.getByRole('button', { name: 'Set password' }).click();
    await heading(page, 'Today');
    expect(new URL(page.url()).pathname).toBe('/dashboard');
    expect(await page.getByText('Rita Guide').count()).toBe(1);
    expect(unexpected(problems, 400)).toEqual([]);
    await page.context().close();
  });

  it('does every task by keyboard alone, with focus always visible', async () => {
    const { page, problems } = await dashboardPage();
    await page.goto(`${outing.origin}/dashboard?date=${busyDate}`);
    await heading(page, 'Sign in');
    const focusRing = () =>
      page.evaluate(() => {
        const el = document.activeElement as HTMLElement;
        const style = getComputedStyle(el);
        return `${el.tagName.toLowerCase()}#${el.id}|${el.textContent?.trim().slice(0, 20)}|${style.outlineStyle !== "none" && parseFloat(style.outlineWidth) >= 2}`;
      });
    /** Tabs until the focused element's description matches; each stop must show its focus. */
    const tabTo = async (wanted: RegExp, key = 'Tab') => {
      for (let i = 0; i < 40; i++) {
        await page.keyboard.press(key);
        const at = await focusRing();
        if (!at.startsWith('body')) expect(at, 'focus visible').toMatch(/\|true$/);
        if (wanted.test(at)) return;
      }
      throw new Error(`Tab never reached ${wanted}`);
    };
    await tabTo(/^input#email/);
    await page.keyboard.type(owner.email);
    await page.keyboard.press('Tab');
    await page.keyboard.type(owner.password);
    await page.keyboard.press('Enter');
    // Signed in, back at the address asked for: that day, named by its date.
    await page.getByText('Bruno Costa').waitFor();

    await tabTo(/^button#checkin-\w+\|Check in/);
    const bruno = page.getByRole('listitem').filter({ hasText: 'Bruno Costa' }).getByRole('button', { name: 'Check in' });
    // Ana is first and already checked in; Tab on to Bruno's.
    for (let i = 0; i < 5 && !(await bruno.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('Tab');
    await page.keyboard.press('Space');
    // Days before his tour: the question takes focus, its first button checks him in anyway.
    await page.getByRole('dialog', { name: 'Check in Bruno Costa?' }).waitFor();
    expect(await focusRing()).toMatch(/^button#\|Check in anyway\|true$/);
    await page.keyboard.press('Enter');
    await expect.poll(() => bruno.getAttribute('aria-pressed')).toBe('true');
    // Focus is back on his button.
    await expect.poll(() => bruno.evaluate((el) => el === document.activeElement)).toBe(true);
    // Undo by keyboard too, once the first press is saved (a press while saving is ignored).
    await expect.poll(() => bruno.getAttribute('aria-disabled')).toBeNull();
    await page.keyboard.press('Enter');
    await expect.poll(() => bruno.getAttribute('aria-pressed')).toBe('false');

    // Another day and back, and the CSV, by keyboard.
    await tabTo(/^button#\|Next day/, 'Shift+Tab');
    await page.keyboard.press('Enter');
    await expect.poll(() => new URL(page.url()).searchParams.get('date')).not.toBe(busyDate);
    await page.getByRole('heading', { name: 'No bookings on this day' }).waitFor();
    await page.keyboard.press('Shift+Tab');
    expect(await focusRing()).toMatch(/^button#\|Previous day\|true$/);
    await page.keyboard.press('Enter');
    await page.getByText('Bruno Costa').waitFor();
    await tabTo(/^button#\|Download CSV/);
    const [download] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('Enter')]);
    expect(await readFile((await download.path())!, 'utf8')).toContain(bookingNumbers[1]);

    // Sign out sits in the header, before the guests: back round with Shift+Tab.
    await tabTo(/^button#\|Sign out/, 'Shift+Tab');
    await page.keyboard.press('Enter');
    await heading(page, 'Sign in');
    expect(unexpected(problems, 401)).toEqual([]);
    await page.context().close();
  });

  it('has no axe-core WCAG 2.2 A/AA violation on any screen', async () => {
    const { page } = await dashboardPage({ bypassCSP: true });
    await page.goto(`${outing.origin}/dashboard/sign-in`);
    await heading(page, 'Sign in');
    expect(await violations(page, 'html'), 'sign in').toEqual([]);
    await signIn(page, 'wrong-password');
    await page.getByRole('alert').waitFor();
    expect(await violations(page, 'html'), 'sign in with an alert').toEqual([]);
    await signIn(page);
    await heading(page, 'Today');
    await page.getByRole('status').filter({ hasText: /booking/ }).waitFor();
    expect(await violations(page, 'html'), 'today, with the demo\'s guests').toEqual([]);
    await page.goto(`${outing.origin}/dashboard?date=${emptyDate}`);
    await page.getByRole('heading', { name: 'No bookings on this day' }).waitFor();
    expect(await violations(page, 'html'), 'a day without bookings').toEqual([]);
    await page.goto(`${outing.origin}/dashboard?date=${busyDate}`);
    await page.getByText('Ana Lima').waitFor();
    expect(await violations(page, 'html'), 'today with guests').toEqual([]);
    await page.getByRole('listitem').filter({ hasText: 'Chloé Martin' }).getByRole('button', { name: 'Check in' }).click();
    await page.getByRole('dialog', { name: 'Check in Chloé Martin?' }).waitFor();
    expect(await violations(page, 'html'), 'the question before checking in on another day').toEqual([]);
    await page.getByRole('button', { name: 'Not now' }).click();
    await page.goto(`${outing.origin}/dashboard/no-such-screen`);
    await heading(page, 'Page not found');
    expect(await violations(page, 'html'), 'not found').toEqual([]);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await heading(page, 'Sign in');

    await page.goto(`${outing.origin}/dashboard/setup#not-a-real-token`);
    await heading(page, 'Set password');
    expect(await violations(page, 'html'), 'set password').toEqual([]);
    await page.getByRole('button', { name: 'Set password' }).click();
    await page.getByText('Use at least 10 characters.').waitFor();
    expect(await violations(page, 'html'), 'set password with errors').toEqual([]);
    await page.context().close();
  });

  // Layout is the same on either database: the screenshots (one copied into docs/) are the SQLite run's alone.
  it.skipIf(process.env.OUTING_TEST_ENGINE === 'postgres')('fits 375 px without horizontal scrolling; screenshots at 375 and 1280 px in test-results/', async () => {
    for (const width of [375, 1280]) {
      const { page, problems } = await dashboardPage({ viewport: { width, height: 900 } });
      await page.goto(`${outing.origin}/dashboard`);
      await heading(page, 'Sign in');
      expect(await overflow(page), `${width}px sign in`).toBeLessThanOrEqual(0);
      await page.screenshot({ path: `${artifacts}/dashboard-sign-in-${width}.png`, fullPage: true });
      await signIn(page);
      await heading(page, 'Today');
      await page.goto(`${outing.origin}/dashboard?date=${busyDate}`);
      await page.getByText('Chloé Martin').waitFor();
      expect(await overflow(page), `${width}px today`).toBeLessThanOrEqual(0);
      await page.screenshot({ path: `${artifacts}/dashboard-today-${width}.png`, fullPage: true });
      await page.goto(`${outing.origin}/dashboard/setup#x`);
      await heading(page, 'Set password');
      expect(await overflow(page), `${width}px set password`).toBeLessThanOrEqual(0);
      expect(unexpected(problems, 401)).toEqual([]);
      await page.context().close();
    }
    await copyFile(`${artifacts}/dashboard-today-1280.png`, `${docs}/dashboard-today.png`);
  });
});
