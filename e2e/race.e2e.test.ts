import type { Browser } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { openPage } from './browser.js';
import { useOutingAndChromium } from './suite.js';
import type { OutingServer } from './outing-server.js';
import { book, fillDetails, heading, pickExperience, pickFirstFreeDay, pickFirstTime, widgetOn } from './widget-steps.js';

const suite = useOutingAndChromium();
let outing: OutingServer;
let browser: Browser;
beforeAll(() => ({ outing, browser } = suite()));

describe('two guests after the last places', () => {
  it('tells the slower one clearly and shows fresh availability', async () => {
    // The sail takes 8 and one booking may take all 8; each of its days has one departure.
    const first = await openPage(browser);
    const second = await openPage(browser);
    const guests = [first, second].map(({ page }) => widgetOn(page));
    let day = '';
    let time = '';
    for (const [i, { page }] of [first, second].entries()) {
      const w = guests[i]!;
      await page.goto(`${outing.origin}/demo`);
      await pickExperience(w, 'Sunset Sail on the Tagus');
      const pickedDay = await pickFirstFreeDay(w);
      const pickedTime = await pickFirstTime(w);
      if (i === 0) [day, time] = [pickedDay, pickedTime];
      // Both look at the same departure with all eight places free.
      expect([pickedDay, pickedTime]).toEqual([day, time]);
      expect(pickedTime).toMatch(/8 places left$/);
    }
    const [fast, slow] = guests as [typeof guests[0], typeof guests[0]];

    await fillDetails(fast, { participants: 8, name: 'Fast Guest', email: 'fast@example.com' });
    await book(fast);

    await fillDetails(slow, { participants: 1, name: 'Slow Guest', email: 'slow@example.com' });
    await slow.getByRole('button', { name: 'Book', exact: true }).click();
    // The day had one departure, now full: back to the calendar, with the reason said out loud.
    await heading(slow, 'Choose a date');
    const alert = slow.getByRole('alert');
    expect(await alert.innerText()).toMatch(/that time has just been taken or has too few places left/);
    const gone = slow.getByRole('button', { name: day, exact: true });
    expect(await gone.getAttribute('aria-disabled')).toBe('true');
    // Fresh data came from the server: another day is still free (in the next month when the
    // taken departure was this month's last, as late on a month's final weekend).
    if ((await slow.locator('button.day.free').count()) === 0) {
      await slow.getByRole('button', { name: 'Next month' }).click();
      await slow.locator('button.day.free').first().waitFor();
    }
    expect(await slow.locator('button.day.free').count()).toBeGreaterThan(0);
    expect(second.requests.filter((r) => r.startsWith('POST ') && r.endsWith('/public/v1/bookings'))).toHaveLength(1);
    expect(first.problems.concat(second.problems).filter((p) => !/409/.test(p))).toEqual([]);
  });
});
