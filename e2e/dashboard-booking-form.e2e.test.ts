import type { Browser, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { violations } from './axe.js';
import { apiAs, dashboardPage, heading, keyboardOf, openSignedIn, overflow, ownerOf, unexpected, type Owner } from './dashboard-helpers.js';
import type { OutingServer } from './outing-server.js';
import { useOutingAndChromium } from './suite.js';

/**
 * The booking form in the dashboard, in real Chromium against `outing serve --demo`, by keyboard
 * alone on a 375 px phone: the experience editor's "Questions" and "Extras" edited, then a desk
 * booking that answers the required question and takes an extra, and its page showing both.
 * Every outcome is read back through the API.
 */
const suite = useOutingAndChromium();
let outing: OutingServer;
let browser: Browser;
let owner: Owner;
let walk: { id: string; name: string; price: number };
/** A Lisbon date whose every walk has room for two more. */
let date: string;
/** The booking the desk made. */
let booked: string;

const api = <T = any>(path: string, init: RequestInit = {}) => apiAs<T>(outing, path, init);
const lisbonDate = (instant: string) => new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Lisbon' }).format(new Date(instant));
const euros = (cents: number) => `€${(cents / 100).toFixed(2)}`;

interface Saved {
  questions: { id: string; label: string; type: string; options: string[]; required: boolean; help: string | null }[];
  extras: { id: string; name: string; price: number; per: string; maxQuantity: number; active: boolean }[];
}

beforeAll(async () => {
  ({ outing, browser } = suite());
  owner = ownerOf(outing);
  walk = (await api<{ id: string; name: string; price: number }[]>('/v1/experiences')).data.find((x) => x.name === 'Alfama Old Town Walk')!;
  const from = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
  const to = new Date(Date.now() + 12 * 86_400_000).toISOString().slice(0, 10);
  const { data } = await api<{ slots: { startTime: string; available: boolean }[] }>(`/v1/availability?experienceId=${walk.id}&startDate=${from}&endDate=${to}&participants=2`);
  const dates = [...new Set(data.slots.map((s) => lisbonDate(s.startTime)))];
  date = dates.find((d) => data.slots.filter((s) => lisbonDate(s.startTime) === d).every((s) => s.available))!;
  expect(date).toBeTruthy();
});

const phone = (b: Browser) => dashboardPage(b, { bypassCSP: true, viewport: { width: 375, height: 800 } });

/** Selects all of the focused field's text and types over it. */
async function typeOver(page: Page, text: string): Promise<void> {
  await page.keyboard.press('Control+A');
  await page.keyboard.type(text);
}

describe('the booking form in the dashboard', () => {
  it('edits an experience’s questions and extras by keyboard alone at 375 px, with no axe violation', async () => {
    const { page, problems } = await phone(browser);
    await openSignedIn(page, outing, owner, `/dashboard/experiences/${walk.id}`, walk.name);
    const questions = page.getByRole('region', { name: 'Questions' });
    await questions.waitFor();
    const k = keyboardOf(page, 200);

    // A required text question: "Add question" puts focus on its label.
    await k.tabTo(/^button\|Add question/);
    await page.keyboard.press('Enter');
    await expect.poll(() => k.focused()).toMatch(/^input\|question-\d+-label/);
    await page.keyboard.type('Any food allergies?');
    await k.tabTo(/^input\|question-\d+-required/);
    await page.keyboard.press('Space');
    await k.tabTo(/^input\|question-\d+-help/);
    await page.keyboard.type('We pack lunch for you.');

    // A choice from a list: its options appear once the type says so.
    await k.tabTo(/^button\|Add question/);
    await page.keyboard.press('Enter');
    await expect.poll(() => k.focused()).toMatch(/^input\|question-\d+-label/);
    await page.keyboard.type('T-shirt size');
    // A select is named by its options' text.
    await k.tabTo(/^select\|Short text/);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await questions.getByLabel('Options').waitFor();
    await k.tabTo(/^textarea\|question-\d+-options/);
    await page.keyboard.type('S\nM\nL');

    // An extra, per person.
    await k.tabTo(/^button\|Add extra/);
    await page.keyboard.press('Enter');
    await expect.poll(() => k.focused()).toMatch(/^input\|extra-\d+-name/);
    await page.keyboard.type('Lunch');
    await k.tabTo(/^textarea\|extra-\d+-description/);
    await page.keyboard.type('Sandwich, fruit and water');
    await k.tabTo(/^input\|extra-\d+-price/);
    await page.keyboard.type('12.50');
    await k.tabTo(/^select\|Per booking/);
    await page.keyboard.press('ArrowDown');
    await k.tabTo(/^input\|extra-\d+-maxQuantity/);
    await typeOver(page, '6');

    expect(await overflow(page), '375 px editor').toBeLessThanOrEqual(0);
    expect(await violations(page, 'html'), 'the editor').toEqual([]);
    await k.tabTo(/^button\|Save changes/);
    await page.keyboard.press('Enter');
    await page.getByText('Saved.').waitFor();

    const saved = (await api<Saved>(`/v1/experiences/${walk.id}`)).data;
    expect(saved.questions).toMatchObject([
      { label: 'Any food allergies?', type: 'TEXT', options: [], required: true, help: 'We pack lunch for you.' },
      { label: 'T-shirt size', type: 'SELECT', options: ['S', 'M', 'L'], required: false, help: null },
    ]);
    expect(saved.questions.every((q) => q.id.startsWith('q_'))).toBe(true);
    expect(saved.extras).toMatchObject([{ name: 'Lunch', price: 1250, per: 'PERSON', maxQuantity: 6, active: true }]);

    // A refusal from the server sits beside its field: a second extra with the same name.
    await k.tabTo(/^button\|Add extra/);
    await page.keyboard.press('Enter');
    await expect.poll(() => k.focused()).toMatch(/^input\|extra-\d+-name/);
    await page.keyboard.type('lunch');
    await k.tabTo(/^input\|extra-\d+-price/);
    await page.keyboard.type('3');
    await k.tabTo(/^button\|Save changes/);
    await page.keyboard.press('Enter');
    const summary = page.getByRole('region', { name: 'There is a problem' });
    await summary.waitFor();
    expect(await summary.innerText()).toMatch(/Extra 2, name: /);
    expect(await page.getByRole('group', { name: 'Extra 2' }).getByLabel('Name').getAttribute('aria-invalid')).toBe('true');
    expect(await violations(page, 'html'), 'the editor with an error').toEqual([]);
    // Removed again, the list saves as it was: the ids are kept, nothing changed.
    await page.getByRole('button', { name: 'Remove extra 2' }).focus();
    await page.keyboard.press('Enter');
    await k.tabTo(/^button\|Save changes/);
    await page.keyboard.press('Enter');
    await page.getByText('Nothing has changed since the last save.').waitFor();
    expect((await api<Saved>(`/v1/experiences/${walk.id}`)).data).toMatchObject({ questions: saved.questions, extras: saved.extras });
    expect(unexpected(problems, 400, 401)).toEqual([]);
    await page.context().close();
  });

  it('books at the desk answering the required question and adding an extra, then shows both on the booking’s page', async () => {
    const { page, problems } = await phone(browser);
    await openSignedIn(page, outing, owner, `/dashboard/bookings/new?experienceId=${walk.id}&date=${date}`, 'New booking');
    await expect.poll(() => page.locator('#time option:not([disabled])').count()).toBeGreaterThan(1);
    const k = keyboardOf(page, 200);
    await k.tabTo(/^select\|Choose a time/);
    await page.keyboard.press('ArrowDown');
    await k.tabTo(/^input\|participants/);
    await typeOver(page, '2');
    const lunch = page.getByLabel('Lunch, €12.50 per person');
    await k.tabTo(/^input\|extra-qty-/);
    expect(await lunch.evaluate((el) => el === document.activeElement)).toBe(true);
    await typeOver(page, '2');
    await expect.poll(() => page.locator('#new-booking-total').innerText()).toBe(`Total: ${euros(2 * walk.price + 2500)}`);
    await k.tabTo(/^input\|name/);
    await page.keyboard.type('Inês Rocha');
    await k.tabTo(/^input\|email/);
    await page.keyboard.type('ines@form-e2e.example');

    // Sent without the required answer: the form says so beside the field and sends nothing.
    await k.tabTo(/^button\|Create booking/);
    await page.keyboard.press('Enter');
    const summary = page.getByRole('region', { name: 'There is a problem' });
    await summary.waitFor();
    expect(await summary.innerText()).toContain('Any food allergies?');
    const allergies = page.getByLabel('Any food allergies? (required)');
    expect(await allergies.getAttribute('aria-invalid')).toBe('true');
    expect(await allergies.getAttribute('aria-required')).toBe('true');
    expect(await overflow(page), '375 px form').toBeLessThanOrEqual(0);
    expect(await violations(page, 'html'), 'New booking with an error').toEqual([]);

    await allergies.focus();
    await page.keyboard.type('Peanuts');
    await k.tabTo(/^select\|Choose…S/);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await k.tabTo(/^button\|Create booking/);
    await page.keyboard.press('Enter');
    await heading(page, /^Booking BK-/);
    const id = decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!);
    const made = (await api<{ total: string; answers: { label: string; value: unknown }[]; extras: { name: string; quantity: number; unitPrice: number }[] }>(`/v1/bookings/${id}`)).data;
    expect(made.answers).toMatchObject([
      { label: 'Any food allergies?', value: 'Peanuts' },
      { label: 'T-shirt size', value: 'M' },
    ]);
    expect(made.extras).toMatchObject([{ name: 'Lunch', quantity: 2, unitPrice: 1250 }]);
    expect(made.total).toBe(((2 * walk.price + 2500) / 100).toFixed(2));

    const extras = page.getByRole('region', { name: 'Extras' });
    expect(await extras.innerText()).toContain('2 × Lunch, €25.00');
    const answers = page.getByRole('region', { name: 'Answers' });
    expect(await answers.innerText()).toContain('Any food allergies?: Peanuts');
    expect(await answers.innerText()).toContain('T-shirt size: M');
    expect(await overflow(page), '375 px booking').toBeLessThanOrEqual(0);
    expect(await violations(page, 'html'), 'the booking’s page').toEqual([]);
    booked = id;
    expect(unexpected(problems, 401)).toEqual([]);
    await page.context().close();
  });

  it('refuses a smaller party over a per-person extra and says why, then changes the extras by keyboard (PATCH extras), the total following', async () => {
    const { page, problems } = await phone(browser);
    const id = booked;
    await openSignedIn(page, outing, owner, `/dashboard/bookings/${id}`, /^Booking BK-/);
    const k = keyboardOf(page, 200);
    const extras = page.getByRole('region', { name: 'Extras' });
    const dialog = page.getByRole('dialog');

    // Two lunches per person cannot go with one participant: the dialog says so, nothing changes.
    await k.tabTo(/^button\|Change participants/);
    await page.keyboard.press('Enter');
    await dialog.getByLabel('Participants').focus();
    await typeOver(page, '1');
    await page.keyboard.press('Enter');
    const alert = dialog.getByRole('alert');
    await alert.waitFor();
    expect(await alert.innerText()).toContain('The booking\'s extras do not fit the new party');
    expect(await violations(page, 'html'), 'the refused party change').toEqual([]);
    expect((await api<{ totalParticipants: number }>(`/v1/bookings/${id}`)).data.totalParticipants).toBe(2);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });

    await k.tabTo(/^button\|Change extras and answers/);
    await page.keyboard.press('Enter');
    await dialog.getByLabel('Lunch, €12.50 per person').waitFor();
    expect(await violations(page, 'html'), 'Change extras and answers').toEqual([]);
    await dialog.getByLabel('Lunch, €12.50 per person').focus();
    await typeOver(page, '1');
    await k.tabTo(/^button\|Save extras and answers/);
    await page.keyboard.press('Enter');
    await page.getByText(/is saved with its new extras/).waitFor();
    expect(await extras.innerText()).toContain('1 × Lunch, €12.50');
    const changed = (await api<{ total: string; extras: { quantity: number }[] }>(`/v1/bookings/${id}`)).data;
    expect(changed.extras).toMatchObject([{ quantity: 1 }]);
    expect(changed.total).toBe(((2 * walk.price + 1250) / 100).toFixed(2));
    expect(unexpected(problems, 400, 401)).toEqual([]);
    await page.context().close();
  });
});
