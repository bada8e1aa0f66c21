import type { Browser, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { violations } from './axe.js';
import { apiAs, dashboardPage, heading, openSignedIn, overflow, ownerOf, unexpected, type Owner } from './dashboard-helpers.js';
import type { OutingServer } from './outing-server.js';
import { useOutingAndChromium } from './suite.js';

/**
 * A walk-in taken at the desk: "New booking" from Today, by keyboard alone on a 375 px phone,
 * paid in cash; then the day list's links and its count of guests checked in. Real Chromium
 * against `outing serve --demo`; every outcome read back through the API.
 */
const suite = useOutingAndChromium();
let outing: OutingServer;
let browser: Browser;
let owner: Owner;
/** A Lisbon date with room on the Alfama walk, a few days ahead. */
let date: string;

const api = <T = any>(path: string, init: RequestInit = {}) => apiAs<T>(outing, path, init);
const lisbonDate = (instant: string) => new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Lisbon' }).format(new Date(instant));
const PHONE = '+351 912 000 777';
const EMAIL = 'walk.in@desk-e2e.example';
const NOTE = 'Walk-in at the kiosk; wants the front of the group';

interface ManifestBooking {
  id: string;
  guestEmail: string;
  totalParticipants: number;
  checkedInAt: string | null;
}
interface Manifest {
  slots: { timeSlot: { startTime: string }; experience: { title: string }; bookings: ManifestBooking[] }[];
}

beforeAll(async () => {
  ({ outing, browser } = suite());
  owner = ownerOf(outing);
  const walk = (await api<{ id: string; name: string }[]>('/v1/experiences')).data.find((x) => x.name === 'Alfama Old Town Walk')!;
  const from = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
  const to = new Date(Date.now() + 12 * 86_400_000).toISOString().slice(0, 10);
  const { data } = await api<{ slots: { startTime: string; available: boolean; remaining: number }[] }>(
    `/v1/availability?experienceId=${walk.id}&startDate=${from}&endDate=${to}&participants=2`,
  );
  // A date whose every walk has room for two more: whichever time the keyboard picks first.
  const dates = [...new Set(data.slots.map((s) => lisbonDate(s.startTime)))];
  date = dates.find((d) => data.slots.filter((s) => lisbonDate(s.startTime) === d).every((s) => s.available))!;
  expect(date).toBeTruthy();
});

/** Where keyboard focus is: `tag|text or name|whether its outline shows`. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLElement;
    const style = getComputedStyle(el);
    const visible = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2;
    return `${el.tagName.toLowerCase()}|${(el as HTMLInputElement).name || el.textContent?.trim().slice(0, 30) || ''}|${visible}`;
  });

async function tabTo(page: Page, wanted: RegExp): Promise<void> {
  for (let i = 0; i < 60; i++) {
    await page.keyboard.press('Tab');
    const at = await focused(page);
    if (!at.startsWith('body')) expect(at, 'focus visible').toMatch(/\|true$/);
    if (wanted.test(at)) return;
  }
  throw new Error(`Tab never reached ${wanted}`);
}

const manifest = async () => (await api<Manifest>(`/v1/manifest?date=${date}`)).data;

describe('New booking and the day list', () => {
  it('takes a walk-in paid in cash from Today by keyboard alone at 375 px, with no axe violation', async () => {
    const { page, problems } = await dashboardPage(browser, { bypassCSP: true, viewport: { width: 375, height: 800 } });
    await openSignedIn(page, outing, owner, `/dashboard?date=${date}`);
    await page.locator('.slot').first().waitFor();
    expect(await violations(page, 'html'), 'Today').toEqual([]);

    await tabTo(page, /^a\|New booking/);
    await page.keyboard.press('Enter');
    await heading(page, 'New booking');
    await expect.poll(() => page.locator('#time option:not([disabled])').count()).toBeGreaterThan(1);
    expect(await page.getByLabel('Date').inputValue()).toBe(date);

    // Experience: the walk, the first one offered. Time: the first with room.
    await tabTo(page, /^select\|experience/);
    expect(await page.locator('#experience option:checked').innerText()).toBe('Alfama Old Town Walk');
    await tabTo(page, /^select\|time/);
    await page.keyboard.press('ArrowDown');
    const startTime = await page.locator('#time').inputValue();
    expect(startTime).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect(await page.locator('#time option:checked').innerText()).toMatch(/places? left$/);

    await tabTo(page, /^input\|participants/);
    await page.keyboard.press('Control+A');
    await page.keyboard.type('2');
    await tabTo(page, /^input\|name/);
    await page.keyboard.type('Walk-in Guest');
    await tabTo(page, /^input\|email/);
    await page.keyboard.type(EMAIL);
    await tabTo(page, /^input\|phone/);
    await page.keyboard.type(PHONE);
    await tabTo(page, /^textarea\|internalNote/);
    await page.keyboard.type(NOTE);
    await tabTo(page, /^input\|paidNow/);
    await page.keyboard.press('Space');
    // "Paid now" shows the method (cash first) and the amount, the total: 2 × 25.00.
    await page.getByLabel('Payment method').waitFor();
    expect(await page.getByLabel('Payment method').inputValue()).toBe('CASH');
    expect(await page.getByLabel('Amount').inputValue()).toBe('50.00');
    expect(await page.getByLabel('Send confirmation e-mail').isChecked()).toBe(true);
    expect(await overflow(page), '375 px').toBeLessThanOrEqual(0);
    expect(await violations(page, 'html'), 'New booking').toEqual([]);

    await tabTo(page, /^button\|Create booking/);
    await page.keyboard.press('Enter');
    await heading(page, /^Booking BK-/);
    const id = decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!);
    const made = (await api<{ source: string; internalNote: string; guestPhone: string; totalParticipants: number; timeSlot: { startTime: string } }>(`/v1/bookings/${id}`)).data;
    expect(made).toMatchObject({ source: 'DASHBOARD', internalNote: NOTE, guestPhone: PHONE, totalParticipants: 2 });
    expect(Date.parse(made.timeSlot.startTime)).toBe(Date.parse(startTime));
    const payments = (await api<{ method: string; amount: string; status: string }[]>(`/v1/bookings/${id}/payments`)).data;
    expect(payments).toMatchObject([{ method: 'CASH', amount: '50.00', status: 'SUCCEEDED' }]);
    // The booking's page shows the note, and the payment's method.
    expect(await page.locator('textarea#internalNote').inputValue()).toBe(NOTE);
    await expect.poll(() => page.locator('table.bk-records tbody tr').first().innerText()).toContain('Cash');
    expect(await overflow(page), '375 px booking').toBeLessThanOrEqual(0);
    expect(unexpected(problems, 401)).toEqual([]);
    await page.context().close();
  });

  it('links each guest to the booking, a call and an e-mail, shows the note, and counts guests checked in', async () => {
    const day = await manifest();
    const slot = day.slots.find((s) => s.bookings.some((b) => b.guestEmail === EMAIL))!;
    const ours = slot.bookings.find((b) => b.guestEmail === EMAIL)!;
    const guests = slot.bookings.reduce((n, b) => n + b.totalParticipants, 0);
    const arrived = () => slot.bookings.reduce((n, b) => n + (b.checkedInAt ? b.totalParticipants : 0), 0);

    const { page, problems } = await dashboardPage(browser, { bypassCSP: true, viewport: { width: 375, height: 800 } });
    await openSignedIn(page, outing, owner, `/dashboard?date=${date}`);
    const row = page.locator('li.guest').filter({ hasText: EMAIL });
    await row.waitFor();
    expect(await row.getByRole('link', { name: 'Walk-in Guest' }).getAttribute('href')).toBe(`/dashboard/bookings/${ours.id}`);
    expect(await row.getByRole('link', { name: PHONE }).getAttribute('href')).toBe('tel:+351912000777');
    expect(await row.getByRole('link', { name: EMAIL }).getAttribute('href')).toBe(`mailto:${EMAIL}`);
    expect(await row.innerText()).toContain(NOTE);
    const section = page.locator('section.slot').filter({ has: row });
    const count = (n: number) => `${n} of ${guests} ${guests === 1 ? 'guest' : 'guests'} checked in`;
    expect(await section.locator('.arrived').innerText()).toBe(count(arrived()));

    await row.getByRole('button', { name: 'Check in' }).click();
    // Another day than today: the dashboard asks first.
    await page.getByRole('button', { name: 'Check in anyway' }).click();
    await expect.poll(() => section.locator('.arrived').innerText()).toBe(count(arrived() + 2));
    // The count moves at once (the dashboard shows a check-in before the server answers); the server has it soon after.
    const checkedInAt = async () =>
      (await manifest()).slots.find((s) => s.timeSlot.startTime === slot.timeSlot.startTime)!.bookings.find((b) => b.id === ours.id)?.checkedInAt ?? null;
    await expect.poll(checkedInAt).not.toBeNull();
    expect(await violations(page, 'html'), 'Today with the walk-in').toEqual([]);
    expect(await overflow(page), '375 px Today').toBeLessThanOrEqual(0);

    // The guest's name opens the booking's page.
    await row.getByRole('link', { name: 'Walk-in Guest' }).click();
    await heading(page, /^Booking BK-/);
    expect(unexpected(problems, 401)).toEqual([]);
    await page.context().close();
  });
});
