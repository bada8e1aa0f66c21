import type { Browser, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { openPage } from './browser.js';
import { useOutingAndChromium } from './suite.js';
import type { OutingServer } from './outing-server.js';
import { book, fillDetails, heading, pickExperience, pickFirstFreeDay, pickFirstTime, widgetOn } from './widget-steps.js';

const suite = useOutingAndChromium();
let outing: OutingServer;
let browser: Browser;
beforeAll(() => ({ outing, browser } = suite()));

async function bookingsNamed(bookingNumber: string) {
  const res = await fetch(`${outing.origin}/v1/bookings?q=${bookingNumber}`, {
    headers: { Authorization: `Bearer ${outing.secretKey}` },
  });
  const body = (await res.json()) as { data: { bookingNumber: string; source: string; guestEmail: string; totalParticipants: number; status: string }[] };
  return body.data;
}

/** What is focused inside the widget's shadow root, described for assertions. */
function focused(page: Page): Promise<string> {
  return page.evaluate(() => {
    const host = document.querySelector('[data-outing]');
    const el = host?.shadowRoot?.activeElement;
    if (document.activeElement !== host || !el) return `outside: ${document.activeElement?.tagName ?? 'none'}`;
    const label = el.getAttribute('aria-label') ?? (el.id && host!.shadowRoot!.querySelector(`label[for="${el.id}"]`)?.textContent);
    return `${el.tagName.toLowerCase()}: ${(label || el.textContent || '').trim()}`;
  });
}

/** Presses Tab until the focused control's description matches; fails after `max` presses. */
async function tabTo(page: Page, wanted: RegExp, max = 40): Promise<void> {
  for (let i = 0; i < max; i++) {
    if (wanted.test(await focused(page))) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${wanted}; focus is on ${await focused(page)}`);
}

describe('booking on the demo site', () => {
  it('books by mouse, fires outing:booked for the host page, and the booking is a WIDGET booking', async () => {
    const { page, problems } = await openPage(browser);
    await page.goto(`${outing.origin}/demo`);
    const w = widgetOn(page);
    await heading(w, 'Choose an experience');
    await pickExperience(w, 'Alfama Old Town Walk');
    await pickFirstFreeDay(w);
    expect(await w.getByText(/^Times in Lisbon \(/).count()).toBe(1);
    await pickFirstTime(w);
    // A party past the limit becomes the limit, and the note beside the field says so.
    const party = w.getByLabel('Participants', { exact: true });
    await party.fill('50');
    const max = await party.getAttribute('max');
    expect(await party.inputValue()).toBe(max);
    expect(await w.locator('#party-note').innerText()).toMatch(new RegExp(`^(Up to ${max} per booking\\.|${max} places left)$`));
    await fillDetails(w, { participants: 2, name: 'Ana Lima', email: 'ana.mouse@example.com' });
    expect(await w.locator('#party-note').count()).toBe(0);
    expect(await w.locator('.total strong').innerText()).toBe('€50.00');
    const bookingNumber = await book(w);
    expect(bookingNumber).toMatch(/^BK-[0-9A-HJKMNP-TV-Z]{8}$/);

    // demo.js listens for the event on the host page.
    await page.locator('#thanks').waitFor();
    expect(await page.locator('#thanks').innerText()).toContain(bookingNumber);

    const [stored] = await bookingsNamed(bookingNumber);
    expect(stored).toMatchObject({ bookingNumber, source: 'WIDGET', guestEmail: 'ana.mouse@example.com', totalParticipants: 2, status: 'CONFIRMED' });
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('books with the keyboard alone', async () => {
    const { page, problems } = await openPage(browser);
    await page.goto(`${outing.origin}/demo`);
    const w = widgetOn(page);
    await heading(w, 'Choose an experience');

    await tabTo(page, /^button: Select: Sunset Sail on the Tagus/);
    await page.keyboard.press('Enter');
    await heading(w, 'Choose a date');
    expect(await focused(page)).toBe('h2: Choose a date');

    // Into the grid: its one tab stop is the first day with places.
    await tabTo(page, /^button: \w+, \w+ \d+, \d{4}$/);
    const firstFree = await focused(page);
    await page.keyboard.press('ArrowRight');
    expect(await focused(page)).not.toBe(firstFree);
    await page.keyboard.press('ArrowLeft');
    expect(await focused(page)).toBe(firstFree);
    await page.keyboard.press('Enter');
    await heading(w, 'Choose a time');
    expect(await focused(page)).toBe('h2: Choose a time');

    await page.keyboard.press('Tab');
    expect(await focused(page)).toMatch(/^button: \d{1,2}:\d{2}/);
    await page.keyboard.press('Enter');
    await heading(w, 'Your details');

    await tabTo(page, /^input: Participants$/);
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('button: One participant more');
    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('input: Name');
    // Book with an empty e-mail first: the error takes focus to the field.
    await page.keyboard.type('João Keyboard');
    await tabTo(page, /^button: Book$/);
    await page.keyboard.press('Enter');
    await w.getByText('Please fill this in.').waitFor();
    expect(await focused(page)).toBe('input: E-mail');
    await page.keyboard.type('joao.keys@example.com');
    await tabTo(page, /^button: Book$/);
    await page.keyboard.press('Enter');
    await heading(w, 'Booking confirmed');
    const bookingNumber = (await w.locator('.number strong').innerText()).trim();

    const [stored] = await bookingsNamed(bookingNumber);
    expect(stored).toMatchObject({ source: 'WIDGET', guestEmail: 'joao.keys@example.com', totalParticipants: 2 });
    expect(problems).toEqual([]);
    await page.context().close();
  });
});
