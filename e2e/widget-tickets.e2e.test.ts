import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Booking, Experience } from '../shared/index.js';
import { violations } from './axe.js';
import { openPage } from './browser.js';
import type { OutingServer } from './outing-server.js';
import { useOutingAndChromium } from './suite.js';
import { book, heading, pickExperience, pickFirstFreeDay, pickFirstTime, widgetOn } from './widget-steps.js';

const artifacts = resolve(import.meta.dirname, '../test-results');
const WORKSHOP = 'Pastel de Nata Workshop';

const suite = useOutingAndChromium();
let outing: OutingServer;
let browser: Browser;
let categories: Experience['priceCategories'];
let workshopId: string;

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

beforeAll(async () => {
  ({ outing, browser } = suite());
  await mkdir(artifacts, { recursive: true });
  // The demo's workshop (at most 4 places a booking) sold in categories, as an operator would set it;
  // with room for every test's booking in its first free time, so each meets the booking's limit.
  const workshop = (await api<Experience[]>('GET', 'experiences?limit=100')).find((e) => e.name === WORKSHOP)!;
  workshopId = workshop.id;
  const changed = await api<Experience>('PATCH', `experiences/${workshop.id}`, {
    maxParticipants: 40,
    priceCategories: [
      { name: 'Adult', price: 2500, type: 'ADULT' },
      { name: 'Child', price: 1200, type: 'CHILD', minAge: 4, maxAge: 17 },
      { name: 'Infant', price: 0, type: 'INFANT', occupiesPlace: false, maxAge: 2 },
    ],
  });
  categories = changed.priceCategories;
});

const idOf = (name: string) => categories.find((c) => c.name === name)!.id;

async function storedBooking(bookingNumber: string): Promise<Booking> {
  const [found] = await api<Booking[]>('GET', `bookings?q=${bookingNumber}`);
  return found!;
}

/** The demo page at the workshop's first free time, its tickets showing. */
async function toTickets(page: Page): Promise<Locator> {
  await page.goto(`${outing.origin}/demo`);
  const w = widgetOn(page);
  await heading(w, 'Choose an experience');
  await pickExperience(w, WORKSHOP);
  await pickFirstFreeDay(w);
  await pickFirstTime(w);
  await w.getByRole('group', { name: 'Tickets' }).waitFor();
  return w;
}

/** What is focused inside the widget's shadow root: its tag and its name (aria-label or label). */
function focused(page: Page): Promise<string> {
  return page.evaluate(() => {
    const root = document.querySelector('[data-outing]')?.shadowRoot;
    const el = root?.activeElement;
    if (!el) return `outside: ${document.activeElement?.tagName ?? 'none'}`;
    const label = el.getAttribute('aria-label') ?? (el.id && root!.querySelector(`label[for="${el.id}"]`)?.textContent);
    return `${el.tagName.toLowerCase()}: ${(label || el.textContent || '').trim()}`;
  });
}

async function tabTo(page: Page, wanted: string, max = 40): Promise<void> {
  for (let i = 0; i < max; i++) {
    if ((await focused(page)) === wanted) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${wanted}; focus is on ${await focused(page)}`);
}

const total = (w: Locator) => w.locator('.total strong').innerText();
/** The price's lines, one per category chosen. */
const lines = async (w: Locator) => (await w.locator('.lines li').allInnerTexts()).map((l) => l.replace(/\s+/g, ' '));
const quantity = (w: Locator, label: string) => w.getByLabel(label, { exact: true }).inputValue();

/** No horizontal scrolling of the page (WCAG 1.4.10 reflow at 320 CSS px). */
const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

describe('tickets in the widget on the demo site', () => {
  it('books 2 adults and a child at €62.00, and the booking keeps its tickets', async () => {
    const { page, problems } = await openPage(browser);
    const w = await toTickets(page);
    expect(await quantity(w, 'Adult, €25.00')).toBe('1');
    await w.getByText('Ages 4–17').waitFor();
    await w.getByText('Under 3').waitFor();
    await w.getByRole('button', { name: 'Adult: one ticket more' }).click();
    await w.getByRole('button', { name: 'Child: one ticket more' }).click();
    expect(await total(w)).toBe('€62.00');
    expect(await lines(w)).toEqual(['2 × Adult €50.00', '1 × Child €12.00']);

    await w.getByLabel('Name', { exact: true }).fill('Família Tickets');
    await w.getByLabel('E-mail', { exact: true }).fill('familia.tickets@example.com');
    const bookingNumber = await book(w);
    const summary = await w.locator('.summary').innerText();
    expect(summary).toContain('2 × Adult, 1 × Child');
    expect(summary).toContain('€62.00');

    const stored = await storedBooking(bookingNumber);
    expect(stored).toMatchObject({ source: 'WIDGET', status: 'CONFIRMED', totalParticipants: 3, total: '62.00', unitPrice: null });
    expect(stored.tickets).toEqual([
      { categoryId: idOf('Adult'), name: 'Adult', type: 'ADULT', quantity: 2, unitPrice: 2500 },
      { categoryId: idOf('Child'), name: 'Child', type: 'CHILD', quantity: 1, unitPrice: 1200 },
    ]);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('works the quantities by keyboard alone, up to the limit, and books', async () => {
    const { page, problems } = await openPage(browser);
    const w = await toTickets(page);

    await tabTo(page, 'input: Adult, €25.00');
    await page.keyboard.press('ArrowUp');
    expect(await quantity(w, 'Adult, €25.00')).toBe('2');
    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('button: Adult: one ticket more');
    await page.keyboard.press('Enter');
    expect(await quantity(w, 'Adult, €25.00')).toBe('3');
    await tabTo(page, 'button: Child: one ticket more');
    await page.keyboard.press('Space');
    // Four places: the most one booking of the workshop may have.
    const more = w.getByRole('button', { name: 'Child: one ticket more' });
    expect(await more.getAttribute('aria-disabled')).toBe('true');
    const reason = await more.getAttribute('aria-describedby');
    expect(await w.locator(`#${reason}`).innerText()).toBe('Up to 4 per booking.');
    await page.keyboard.press('Enter');
    expect(await quantity(w, 'Child, €12.00')).toBe('1');
    // Still focused: a limit reached never drops the guest out of the widget.
    expect(await focused(page)).toBe('button: Child: one ticket more');
    // The infant takes no place, so it can still come.
    await tabTo(page, 'button: Infant: one ticket more');
    await page.keyboard.press('Enter');
    expect(await quantity(w, 'Infant, €0.00')).toBe('1');
    expect(await total(w)).toBe('€87.00');

    await tabTo(page, 'input: Name');
    await page.keyboard.type('Keyboard Family');
    await page.keyboard.press('Tab');
    await page.keyboard.type('keyboard.family@example.com');
    await tabTo(page, 'button: Book');
    await page.keyboard.press('Enter');
    await heading(w, 'Booking confirmed');
    const bookingNumber = (await w.locator('.number strong').innerText()).trim();
    expect((await storedBooking(bookingNumber)).tickets.map((t) => `${t.quantity} × ${t.name}`)).toEqual(['3 × Adult', '1 × Child', '1 × Infant']);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('has no axe-core violation on the tickets, at the limit, with only an infant, and on the confirmation', async () => {
    const { page, problems } = await openPage(browser, { bypassCSP: true });
    const w = await toTickets(page);
    expect(await violations(page), 'tickets').toEqual([]);

    await w.getByRole('button', { name: 'Adult: one ticket more' }).click();
    await w.getByRole('button', { name: 'Adult: one ticket more' }).click();
    await w.getByRole('button', { name: 'Child: one ticket more' }).click();
    await w.getByText('Up to 4 per booking.').waitFor();
    expect(await violations(page), 'at the limit').toEqual([]);

    await w.getByLabel('Adult, €25.00', { exact: true }).fill('0');
    await w.getByLabel('Child, €12.00', { exact: true }).fill('0');
    await w.getByLabel('Infant, €0.00', { exact: true }).fill('1');
    await w.getByRole('button', { name: 'Book', exact: true }).click();
    await w.getByText('Choose at least one ticket that takes a place (Adult, Child).').waitFor();
    expect(await focused(page)).toBe('input: Adult, €25.00');
    expect(await violations(page), 'only an infant').toEqual([]);

    await w.getByRole('button', { name: 'Adult: one ticket more' }).click();
    await w.getByLabel('Name', { exact: true }).fill('Axe Family');
    await w.getByLabel('E-mail', { exact: true }).fill('axe.family@example.com');
    await book(w);
    expect(await w.locator('.summary').innerText()).toContain('1 × Adult, 1 × Infant');
    expect(await violations(page), 'confirmation').toEqual([]);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('fits 320 CSS px without horizontal scrolling, and 1280 px; screenshots in test-results/', async () => {
    for (const width of [320, 1280]) {
      const { page } = await openPage(browser, { viewport: { width, height: 900 } });
      const w = await toTickets(page);
      await w.getByRole('button', { name: 'Adult: one ticket more' }).click();
      await w.getByRole('button', { name: 'Child: one ticket more' }).click();
      await w.getByRole('button', { name: 'Infant: one ticket more' }).click();
      expect(await total(w)).toBe('€62.00');
      expect(await overflow(page), `${width}px tickets`).toBeLessThanOrEqual(0);
      await w.screenshot({ path: `${artifacts}/widget-tickets-${width}.png` });
      await page.context().close();
    }
  });

  it('says "from" the least price on the list, and the total follows each quantity as it is typed', async () => {
    const { page, problems } = await openPage(browser);
    await page.goto(`${outing.origin}/demo`);
    const w = widgetOn(page);
    await heading(w, 'Choose an experience');
    const card = w.locator('.card', { has: page.getByRole('heading', { name: WORKSHOP }) });
    expect(await card.locator('.meta').innerText()).toMatch(/· from €12\.00$/);
    await pickExperience(w, WORKSHOP);
    await pickFirstFreeDay(w);
    await pickFirstTime(w);
    const child = w.getByLabel('Child, €12.00', { exact: true });
    await child.click();
    await page.keyboard.press('Control+A');
    await page.keyboard.type('2');
    // Still in the field: the lines and the total already count the two children.
    expect(await focused(page)).toBe('input: Child, €12.00');
    expect(await lines(w)).toEqual(['1 × Adult €25.00', '2 × Child €24.00']);
    expect(await total(w)).toBe('€49.00');
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('shows a price changed meanwhile, focused, with the new total, and books at it only when the guest presses Book again', async () => {
    const { page, problems } = await openPage(browser, { bypassCSP: true });
    const w = await toTickets(page);
    await w.getByRole('button', { name: 'Child: one ticket more' }).click();
    expect(await total(w)).toBe('€37.00');
    await w.getByLabel('Name', { exact: true }).fill('Price Watcher');
    await w.getByLabel('E-mail', { exact: true }).fill('price.watcher@example.com');
    // The operator raises the child's ticket to €15.00 while the guest types.
    const raised = categories.map((c) => (c.name === 'Child' ? { ...c, price: 1500 } : c));
    await api<Experience>('PATCH', `experiences/${workshopId}`, { priceCategories: raised });
    try {
      await w.getByRole('button', { name: 'Book', exact: true }).click();
      const notice = w.getByText('The price has changed: the total is now €40.00. Please check it and press Book again to confirm.');
      await notice.waitFor();
      expect(await focused(page)).toMatch(/^p: The price has changed/);
      expect(await lines(w)).toEqual(['1 × Adult €25.00', '1 × Child €15.00']);
      expect(await total(w)).toBe('€40.00');
      expect(await violations(page), 'price changed').toEqual([]);
      await w.screenshot({ path: `${artifacts}/widget-price-changed.png` });
      // The next stop from the notice is Book.
      await page.keyboard.press('Tab');
      expect(await focused(page)).toBe('button: Book');
      await page.keyboard.press('Enter');
      await heading(w, 'Booking confirmed');
      const bookingNumber = (await w.locator('.number strong').innerText()).trim();
      expect(await storedBooking(bookingNumber)).toMatchObject({ total: '40.00' });
    } finally {
      await api<Experience>('PATCH', `experiences/${workshopId}`, { priceCategories: categories });
    }
    // The browser logs the 409 it was answered; nothing else went wrong.
    expect(problems).toEqual(['console.error: Failed to load resource: the server responded with a status of 409 (Conflict)']);
    await page.context().close();
  });
});
