import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, openPage } from './browser.js';
import { embedPage, startHostSite } from './host-page.js';
import type { HostSite } from './host-page.js';
import { startOuting } from './outing-server.js';
import type { OutingServer } from './outing-server.js';
import { heading, pickExperience, pickFirstFreeDay, pickFirstTime, widgetOn } from './widget-steps.js';

let outing: OutingServer;
let host: HostSite;
let browser: Browser;
let experienceId: string;

beforeAll(async () => {
  outing = await startOuting();
  host = await startHostSite();
  browser = await launchChromium();
  const res = await fetch(`${outing.origin}/public/v1/experiences?key=${outing.publishableKey}`);
  experienceId = ((await res.json()) as { data: { id: string }[] }).data[0]!.id;
});

afterAll(async () => {
  await browser?.close();
  await host?.stop();
  await outing?.stop();
});

const toOuting = (requests: string[]) => requests.filter((r) => r.split(' ')[1]!.startsWith(outing.origin));

describe('embedded on a customer’s site (another origin)', () => {
  it('makes widget.js and at most two JSON calls before the first times show (pinned experience)', async () => {
    const url = host.page('/pinned', embedPage(outing.origin, { key: outing.publishableKey, experience: experienceId, locale: 'en' }));
    const { page, requests, problems } = await openPage(browser);
    await page.goto(url);
    const w = widgetOn(page);
    await heading(w, 'Choose a date');
    await pickFirstFreeDay(w);
    await w.locator('button.time').first().waitFor();
    const calls = toOuting(requests);
    expect(calls).toHaveLength(3);
    expect(calls[0]).toBe(`GET ${outing.origin}/widget.js`);
    // No preflight: the GETs are CORS simple requests.
    expect(calls.filter((c) => c.startsWith('OPTIONS'))).toEqual([]);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('makes widget.js, the list, then one availability call before the times (no pinned experience)', async () => {
    const url = host.page('/list', embedPage(outing.origin, { key: outing.publishableKey, locale: 'en' }));
    const { page, requests } = await openPage(browser);
    await page.goto(url);
    const w = widgetOn(page);
    await pickExperience(w, 'Alfama Old Town Walk');
    await pickFirstFreeDay(w);
    expect(toOuting(requests).map((r) => new URL(r.split(' ')[1]!).pathname)).toEqual([
      '/widget.js',
      '/public/v1/experiences',
      '/public/v1/availability',
    ]);
    await page.context().close();
  });

  it('books across origins (CORS preflight for the POST) and sends no cookies', async () => {
    const url = host.page('/cross', embedPage(outing.origin, { key: outing.publishableKey, experience: experienceId, locale: 'en' }));
    const { page, problems } = await openPage(browser);
    await page.context().addCookies([{ name: 'outing_test', value: 'x', url: outing.origin }]);
    const cookies: string[] = [];
    page.on('request', (r) => {
      if (r.url().startsWith(`${outing.origin}/public/`)) cookies.push(r.headers()['cookie'] ?? '');
    });
    await page.goto(url);
    const w = widgetOn(page);
    await pickFirstFreeDay(w);
    await pickFirstTime(w);
    await w.getByLabel('Name', { exact: true }).fill('Cross Origin');
    await w.getByLabel('E-mail', { exact: true }).fill('cross@example.com');
    await w.getByRole('button', { name: 'Book', exact: true }).click();
    await heading(w, 'Booking confirmed');
    expect(cookies.length).toBeGreaterThan(0);
    expect(cookies.every((c) => c === '')).toBe(true);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('speaks Portuguese with data-locale="pt-PT", and by the browser’s language without it', async () => {
    const pinned = host.page('/pt', embedPage(outing.origin, { key: outing.publishableKey, experience: experienceId, locale: 'pt-PT' }, 'pt'));
    const { page, requests, problems } = await openPage(browser);
    await page.goto(pinned);
    const w = widgetOn(page);
    await heading(w, 'Escolha uma data');
    await w.locator('button.day.free').first().click();
    await heading(w, 'Escolha um horário');
    // widget.js speaks English alone: Portuguese is one request more, and nothing else.
    const calls = toOuting(requests).map((r) => new URL(r.split(' ')[1]!).pathname);
    expect(calls).toHaveLength(4);
    expect(calls.slice(0, 2)).toEqual(['/widget.js', '/widget/pt.json']);
    expect(calls.slice(2).sort()).toEqual(['/public/v1/availability', `/public/v1/experiences/${experienceId}`]);
    expect(problems).toEqual([]);
    expect(await w.getByText(/^Horários em Lisbon \(/).count()).toBe(1);
    await w.locator('button.time:not([disabled])').first().click();
    await heading(w, 'Os seus dados');
    for (const label of ['Participantes', 'Nome', 'E-mail', 'Telefone (opcional)']) {
      expect(await w.getByLabel(label, { exact: true }).count()).toBe(1);
    }
    expect(await w.getByRole('button', { name: 'Reservar', exact: true }).count()).toBe(1);
    await page.context().close();

    const byBrowser = host.page('/auto', embedPage(outing.origin, { key: outing.publishableKey, experience: experienceId }));
    const portuguese = await openPage(browser, { locale: 'pt-PT' });
    await portuguese.page.goto(byBrowser);
    await heading(widgetOn(portuguese.page), 'Escolha uma data');
    await portuguese.page.context().close();
  });
});

describe('under the strict Content-Security-Policy of the README', () => {
  it('works on /demo/csp.html with no violation, and adds no global but window.Outing', async () => {
    const { page, problems } = await openPage(browser);
    await page.addInitScript(() => {
      document.addEventListener(
        'securitypolicyviolation',
        (e) => console.error(`CSP violation: ${e.violatedDirective} ${e.blockedURI}`),
        true,
      );
    });
    const response = await page.goto(`${outing.origin}/demo/csp.html`);
    expect(response!.headers()['content-security-policy']).toBe(
      `default-src 'self'; script-src 'self' ${outing.origin}; connect-src ${outing.origin}; style-src 'self'; frame-ancestors 'none'`,
    );
    const w = widgetOn(page);
    await pickExperience(w, 'Alfama Old Town Walk');
    await pickFirstFreeDay(w);
    await pickFirstTime(w);
    // The constructed stylesheet applied: the primary button has the accent background.
    const background = await w.getByRole('button', { name: 'Book', exact: true }).evaluate((b) => getComputedStyle(b).backgroundColor);
    expect(background).toBe('rgb(11, 92, 173)');
    await w.getByLabel('Name', { exact: true }).fill('Strict Policy');
    await w.getByLabel('E-mail', { exact: true }).fill('csp@example.com');
    await w.getByRole('button', { name: 'Book', exact: true }).click();
    await heading(w, 'Booking confirmed');

    const globals = await page.evaluate(() => {
      const frame = document.createElement('iframe');
      document.body.append(frame);
      const pristine = new Set(Object.getOwnPropertyNames(frame.contentWindow));
      frame.remove();
      return Object.getOwnPropertyNames(window).filter((name) => !pristine.has(name));
    });
    expect(globals).toEqual(['Outing']);
    expect(problems).toEqual([]);
    await page.context().close();
  });
});
