import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { violations } from './axe.js';
import { openPage } from './browser.js';
import { startHostSite } from './host-page.js';
import type { HostSite } from './host-page.js';
import { useOutingAndChromium } from './suite.js';
import { book, fillDetails, heading, pickFirstFreeDay, pickFirstTime } from './widget-steps.js';

/**
 * The Book-now button (docs/book-now-button.md) in real Chromium against `outing serve --demo`, on a
 * page of another origin: a <button>, a link and a <span> as triggers beside an inline widget,
 * the dialog's focus, keys, scrolling, sizes, language and events, and `Outing.open()`.
 */
const env = useOutingAndChromium();
let host: HostSite;
let walk: { id: string; name: string };
let other: { id: string; name: string };

beforeAll(async () => {
  host = await startHostSite();
  const { outing } = env();
  const res = await fetch(`${outing.origin}/public/v1/experiences?key=${outing.publishableKey}`);
  const list = ((await res.json()) as { data: { id: string; name: string }[] }).data;
  [walk, other] = [list[0]!, list[1]!];
});

afterAll(async () => {
  await host?.stop();
});

const STRICT = (origin: string) => `default-src 'self'; script-src 'self' ${origin}; connect-src ${origin}; style-src 'self'`;

/**
 * A long page with three triggers and an inline widget; `css` in a <style> of the page's own. Under
 * the strict policy, the triggers alone (no inline style, nothing else asking Outing for anything).
 */
function triggersPage(path: string, options: { css?: string; csp?: boolean } = {}): string {
  const { outing } = env();
  const key = outing.publishableKey;
  const head = [
    '<meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">',
    options.csp ? `<meta http-equiv="Content-Security-Policy" content="${STRICT(outing.origin)}">` : '',
    options.css ? `<style>${options.css}</style>` : '',
  ].join('');
  return host.page(
    path,
    `<!doctype html><html lang="en"><head>${head}<title>Tours</title></head><body><main><h1>Our tours</h1>
<p><button id="now" data-outing-button data-key="${key}" data-experience="${walk.id}" data-locale="en">Book now</button>
<a id="link" href="/elsewhere" data-outing-button data-key="${key}" data-experience="${other.id}" data-locale="en">Book the other one</a>
<span id="de" data-outing-button data-key="${key}" data-experience="${walk.id}" data-locale="de">Jetzt buchen</span>
<button id="plain" type="button">Something else</button></p>
${options.csp ? '' : '<div style="height:3000px"></div>'}
${options.csp ? '' : `<div data-outing data-key="${key}" data-experience="${walk.id}" data-locale="en"></div>`}
</main><script src="${outing.origin}/widget.js" async></script></body></html>`,
  );
}

const dialogOn = (page: Page): Locator => page.locator('outing-dialog');

/** Where focus is: the page's active element, and inside open shadow roots the innermost one. */
function focusIn(page: Page): Promise<{ top: string; inner: string }> {
  return page.evaluate(() => {
    const top = document.activeElement;
    let el = top;
    while (el?.shadowRoot?.activeElement) el = el.shadowRoot.activeElement;
    const name = (e: Element | null) => (e ? `${e.localName}${e.id ? `#${e.id}` : ''}: ${(e.textContent ?? '').trim().slice(0, 30)}` : 'none');
    return { top: top ? `${top.localName}${top.id ? `#${top.id}` : ''}` : 'none', inner: name(el) };
  });
}

async function openPageAt(path: string, width = 1280, css?: string): Promise<{ page: Page; problems: string[]; requests: string[] }> {
  const watched = await openPage(env().browser, { viewport: { width, height: 800 }, bypassCSP: true });
  await watched.page.goto(triggersPage(path, { css }));
  await watched.page.locator('#now[aria-haspopup="dialog"]').waitFor({ state: 'attached' });
  return watched;
}

describe('a Book-now button', () => {
  it('is made a button for keyboards and assistive technology, keeping the page’s own content', async () => {
    const { page, problems } = await openPageAt('/attributes');
    const attributes = (id: string) =>
      page.locator(`#${id}`).evaluate((el) => [el.getAttribute('aria-haspopup'), el.getAttribute('role'), el.getAttribute('tabindex'), el.textContent]);
    expect(await attributes('now')).toEqual(['dialog', null, null, 'Book now']);
    expect(await attributes('link')).toEqual(['dialog', null, null, 'Book the other one']);
    expect(await attributes('de')).toEqual(['dialog', 'button', '0', 'Jetzt buchen']);
    expect(await attributes('plain')).toEqual([null, null, null, 'Something else']);
    // One added later is found too.
    await page.evaluate((experience) => {
      const late = document.createElement('div');
      late.id = 'late';
      late.dataset['outingButton'] = '';
      late.dataset['experience'] = experience;
      late.textContent = 'Late';
      document.querySelector('main')!.append(late);
    }, walk.id);
    await page.locator('#late[role="button"][tabindex="0"][aria-haspopup="dialog"]').waitFor({ state: 'attached' });
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('opens the widget in a modal dialog named after the experience: focus inside and kept there, Escape closes, focus back', async () => {
    const { page, problems } = await openPageAt('/focus');
    await page.locator('#now').click();
    const d = dialogOn(page);
    await page.getByRole('dialog', { name: walk.name }).waitFor();
    await heading(d, 'Choose a date');
    expect(await dialogOn(page).count()).toBe(1);
    expect((await focusIn(page)).top).toBe('outing-dialog');
    expect(await violations(page, 'outing-dialog')).toEqual([]);

    // Tab and Shift+Tab go round the dialog's controls and never reach the page or the browser's own.
    const seen = new Set<string>();
    for (const key of ['Tab', 'Shift+Tab']) {
      for (let i = 0; i < 45; i++) {
        await page.keyboard.press(key);
        const where = await focusIn(page);
        expect(where.top, `${key} ${i}: ${where.inner}`).toBe('outing-dialog');
        seen.add(where.inner);
      }
    }
    expect(seen.size).toBeGreaterThanOrEqual(4);

    await page.keyboard.press('Escape');
    await d.waitFor({ state: 'detached' });
    expect(await page.getByRole('dialog').count()).toBe(0);
    expect((await focusIn(page)).top).toBe('button#now');
    // The inline widget on the same page is still there, unchanged.
    await heading(page.locator('[data-outing]'), 'Choose a date');
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('books in the dialog with no axe violation at any step, and dispatches outing:booked on the trigger', async () => {
    const { page, problems } = await openPageAt('/book');
    await page.evaluate(() => {
      const w = window as unknown as { seen: string[] };
      w.seen = [];
      document.querySelector('#now')!.addEventListener('outing:booked', (e) => w.seen.push(`trigger ${(e as CustomEvent<{ bookingNumber: string }>).detail.bookingNumber}`));
      document.addEventListener('outing:booked', (e) => w.seen.push(`document from ${(e.target as Element).id}`));
    });
    await page.locator('#now').click();
    const d = dialogOn(page);
    await heading(d, 'Choose a date');
    await pickFirstFreeDay(d);
    expect(await violations(page, 'outing-dialog'), 'times').toEqual([]);
    await pickFirstTime(d);
    expect(await violations(page, 'outing-dialog'), 'details').toEqual([]);
    await fillDetails(d, { name: 'Dialog Guest', email: 'dialog@example.com' });
    const number = await book(d);
    expect(await violations(page, 'outing-dialog'), 'confirmation').toEqual([]);
    expect(await page.evaluate(() => (window as unknown as { seen: string[] }).seen)).toEqual([`trigger ${number}`, 'document from now']);
    await d.getByRole('button', { name: 'Close', exact: true }).click();
    await d.waitFor({ state: 'detached' });
    expect((await focusIn(page)).top).toBe('button#now');
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('opens by Enter or Space on a <span>, in German (Schließen), and a link does not navigate', async () => {
    const { page, problems } = await openPageAt('/keys');
    await page.locator('#de').focus();
    await page.keyboard.press('Enter');
    const d = dialogOn(page);
    await heading(d, 'Datum wählen');
    expect(await d.locator('dialog').getAttribute('lang')).toBe('de');
    await d.getByRole('button', { name: 'Schließen', exact: true }).click();
    await d.waitFor({ state: 'detached' });
    expect((await focusIn(page)).top).toBe('span#de');

    await page.keyboard.press(' ');
    await page.getByRole('button', { name: 'Schließen', exact: true }).waitFor();
    expect(await violations(page, 'outing-dialog')).toEqual([]);
    await page.keyboard.press('Escape');
    await d.waitFor({ state: 'detached' });

    const address = page.url();
    await page.locator('#link').click();
    await page.getByRole('dialog', { name: other.name }).waitFor();
    expect(page.url()).toBe(address);
    await page.keyboard.press('Escape');
    await page.locator('#link').focus();
    await page.keyboard.press('Enter');
    await page.getByRole('dialog', { name: other.name }).waitFor();
    expect(page.url()).toBe(address);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('keeps the page behind from scrolling while open, and lets it scroll once closed', async () => {
    const { page, problems } = await openPageAt('/scroll');
    await page.locator('#now').click();
    await heading(dialogOn(page), 'Choose a date');
    // Wheel and keys over the backdrop, left of the centred dialog.
    await page.mouse.move(40, 400);
    await page.mouse.wheel(0, 1500);
    await page.keyboard.press('PageDown');
    await page.keyboard.press('End');
    await page.waitForTimeout(300);
    expect(await page.evaluate(() => scrollY)).toBe(0);
    await page.keyboard.press('Escape');
    await dialogOn(page).waitFor({ state: 'detached' });
    await page.mouse.wheel(0, 1500);
    await page.waitForFunction(() => scrollY > 0);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('fills a 375 px viewport without scrolling sideways, and is centred over a backdrop at 1280 px', async () => {
    const narrow = await openPageAt('/narrow', 375);
    await narrow.page.locator('#now').click();
    const d = dialogOn(narrow.page);
    await heading(d, 'Choose a date');
    const box = await d.locator('dialog').boundingBox();
    expect(box).toEqual({ x: 0, y: 0, width: 375, height: 800 });
    expect(await d.locator('dialog').evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    expect(await narrow.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await pickFirstFreeDay(d);
    expect(await d.locator('dialog').evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    expect(await violations(narrow.page, 'outing-dialog')).toEqual([]);
    await narrow.page.context().close();

    const wide = await openPageAt('/wide', 1280);
    await wide.page.locator('#now').click();
    const w = dialogOn(wide.page);
    await heading(w, 'Choose a date');
    const centred = (await w.locator('dialog').boundingBox())!;
    expect(centred.width).toBeLessThan(700);
    expect(Math.abs(centred.x + centred.width / 2 - 640)).toBeLessThanOrEqual(1);
    expect(Math.abs(centred.y + centred.height / 2 - 400)).toBeLessThanOrEqual(1);
    const backdrop = await w.locator('dialog').evaluate((el) => getComputedStyle(el, '::backdrop').backgroundColor);
    expect(backdrop).not.toBe('rgba(0, 0, 0, 0)');
    expect(wide.problems).toEqual([]);
    await wide.page.context().close();
  });

  it('keeps its look on a page whose stylesheet targets everything', async () => {
    const hostile = `html { font-size: 30px; } * { font-size: 40px !important; color: red; font-family: serif; --a: lime; }
      body { line-height: 5; letter-spacing: 4px; text-transform: uppercase; text-align: right; direction: rtl; }
      dialog { display: none !important; } button { background: red !important; }`;
    const { page, problems } = await openPageAt('/hostile', 1280, hostile);
    await page.locator('#now').click();
    const d = dialogOn(page);
    await heading(d, 'Choose a date');
    const close = d.getByRole('button', { name: 'Close', exact: true });
    expect(await close.evaluate((el) => [getComputedStyle(el).fontSize, getComputedStyle(el).textTransform, getComputedStyle(el).color])).toEqual([
      '16px',
      'none',
      'rgb(11, 92, 173)',
    ]);
    expect(await d.locator('dialog').evaluate((el) => [getComputedStyle(el).display, getComputedStyle(el).direction])).toEqual(['block', 'ltr']);
    expect(await violations(page, 'outing-dialog')).toEqual([]);
    expect(problems).toEqual([]);
    await page.context().close();
  });
});

describe('Outing.open()', () => {
  it('opens one dialog at a time, returns close(), gives focus back and dispatches outing:booked on document', async () => {
    const { page, problems } = await openPageAt('/script');
    const { outing } = env();
    await page.locator('#plain').focus();
    await page.evaluate(
      ([key, experience, api]) => {
        const w = window as unknown as { seen: string[]; handle: { close(): void }; Outing: { open(o: object): { close(): void } } };
        w.seen = [];
        document.addEventListener('outing:booked', (e) => w.seen.push(e.target === document ? 'document' : 'elsewhere'));
        w.Outing.open({ key, experience, locale: 'en', api });
        w.handle = w.Outing.open({ key, experience, locale: 'en', api });
      },
      [outing.publishableKey, walk.id, outing.origin],
    );
    const d = dialogOn(page);
    await page.getByRole('dialog', { name: walk.name }).waitFor();
    expect(await d.count()).toBe(1);
    await pickFirstFreeDay(d);
    await pickFirstTime(d);
    await fillDetails(d, { name: 'Script Guest', email: 'script@example.com' });
    await book(d);
    expect(await page.evaluate(() => (window as unknown as { seen: string[] }).seen)).toEqual(['document']);
    await page.evaluate(() => (window as unknown as { handle: { close(): void } }).handle.close());
    await d.waitFor({ state: 'detached' });
    expect((await focusIn(page)).top).toBe('button#plain');
    expect(await page.evaluate(() => document.documentElement.style.overflow)).toBe('');
    expect(problems).toEqual([]);
    await page.context().close();
  });
});

describe('under the strict Content-Security-Policy of the README', () => {
  it('opens in German with no violation and at most five requests to Outing before the first times show', async () => {
    const { outing, browser } = env();
    const { page, problems, requests } = await openPage(browser, { viewport: { width: 1280, height: 800 } });
    await page.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (e) => console.error(`CSP violation: ${e.violatedDirective} ${e.blockedURI}`), true);
    });
    await page.goto(triggersPage('/strict', { csp: true }));
    await page.locator('#de[role="button"]').click();
    const d = dialogOn(page);
    await d.getByRole('button', { name: 'Schließen', exact: true }).waitFor();
    await d.locator('button.day.free').first().click();
    await d.locator('button.time').first().waitFor();
    const calls = requests.filter((r) => r.split(' ')[1]!.startsWith(outing.origin));
    expect(calls.length, calls.join('\n')).toBeLessThanOrEqual(5);
    expect(calls[0]).toBe(`GET ${outing.origin}/widget.js`);
    // The dialog's rules applied as a constructed sheet, which the policy allows.
    expect(await d.locator('dialog').evaluate((el) => getComputedStyle(el).position)).toBe('fixed');
    expect(problems).toEqual([]);
    await page.context().close();
  });
});
