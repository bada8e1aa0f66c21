import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPage } from './browser.js';
import { embedPage, startHostSite } from './host-page.js';
import type { HostSite } from './host-page.js';
import { useOutingAndChromium } from './suite.js';
import { pickFirstFreeDay, pickFirstTime, widgetOn } from './widget-steps.js';

/**
 * A page whose own styles reach the widget's host element every way they can: `*` rules with
 * !important (which beat the widget's :host rules), inherited text properties on the host and its
 * ancestors, a root font size for rem, and the widget's own short custom property names.
 */
const HOSTILE = `
  html { font-size: 30px; }
  * { font-size: 40px !important; color: red; font-family: serif; --a: lime; --r: 30px; }
  body {
    line-height: 5; letter-spacing: 4px; word-spacing: 9px; text-transform: uppercase; text-align: right;
    text-indent: 50px; white-space: pre; font-style: italic; font-weight: 900; direction: rtl;
    cursor: wait; color-scheme: dark; font-variant: small-caps; text-shadow: 2px 2px red;
  }
`;

/** Computed values compared element by element; the inherited ones are where a page could leak in. */
const PROPERTIES = [
  'font-family',
  'font-size',
  'font-weight',
  'font-style',
  'font-variant-caps',
  'line-height',
  'color',
  'background-color',
  'border-top-color',
  'border-top-left-radius',
  'letter-spacing',
  'word-spacing',
  'text-transform',
  'text-align',
  'text-indent',
  'text-shadow',
  'white-space',
  'direction',
  'cursor',
  'color-scheme',
  'visibility',
];

interface Seen {
  element: string;
  /** x, y relative to the widget's root box; width, height. */
  box: number[];
  style: string[];
}

/** Every element of the widget's shadow tree: what it looks like and where it sits. */
function look(page: Page): Promise<Seen[]> {
  return widgetOn(page).evaluate((host, properties) => {
    const root = host.shadowRoot!;
    const origin = root.querySelector('.outing')!.getBoundingClientRect();
    const round = (n: number) => Math.round(n * 100) / 100;
    return [...root.querySelectorAll('*')].map((el) => {
      const r = el.getBoundingClientRect();
      const style = getComputedStyle(el);
      return {
        element: `${el.localName}.${el.getAttribute('class') ?? ''}`,
        box: [r.x - origin.x, r.y - origin.y, r.width, r.height].map(round),
        style: properties.map((p) => `${p}: ${style.getPropertyValue(p)}`),
      };
    });
  }, PROPERTIES);
}

/** Computed style of the first element matching `selector` inside the widget. */
function styleOf(page: Page, selector: string, properties: string[]): Promise<Record<string, string>> {
  return widgetOn(page)
    .locator(selector)
    .first()
    .evaluate((el, names) => {
      const style = getComputedStyle(el);
      return Object.fromEntries(names.map((n) => [n, style.getPropertyValue(n)]));
    }, properties);
}

const withSheet = (html: string, css: string) => html.replace('</head>', `<style>${css}</style></head>`);

const env = useOutingAndChromium();
let host: HostSite;
let experienceId: string;

beforeAll(async () => {
  host = await startHostSite();
  const { outing } = env();
  const res = await fetch(`${outing.origin}/public/v1/experiences?key=${outing.publishableKey}`);
  experienceId = ((await res.json()) as { data: { id: string }[] }).data[0]!.id;
});

afterAll(async () => {
  await host?.stop();
});

/** The pinned widget on a page with `css`, open at the calendar (seen, unless the page hides it). */
async function open(path: string, css: string, state: 'visible' | 'attached' = 'visible'): Promise<{ page: Page; problems: string[] }> {
  const { outing, browser } = env();
  const html = embedPage(outing.origin, { key: outing.publishableKey, experience: experienceId, locale: 'en' });
  const url = host.page(path, css ? withSheet(html, css) : html);
  const { page, problems } = await openPage(browser);
  await page.goto(url);
  await widgetOn(page).locator('button.day.free').first().waitFor({ state });
  return { page, problems };
}

describe('on a page whose stylesheet targets everything', () => {
  it('looks and lays out exactly as on a plain page, step after step', async () => {
    const plain = await open('/plain', '');
    const hostile = await open('/hostile', HOSTILE);

    // The page's rules do reach what is the page's: the host element itself.
    const hostFont = await widgetOn(hostile.page).evaluate((el) => getComputedStyle(el).fontSize);
    expect(hostFont).toBe('40px');

    const steps = [
      async (page: Page) => void (await pickFirstFreeDay(widgetOn(page))),
      async (page: Page) => void (await pickFirstTime(widgetOn(page))),
    ];
    for (let step = 0; ; step++) {
      const [expected, seen] = [await look(plain.page), await look(hostile.page)];
      expect(seen.length).toBeGreaterThan(10);
      expect(seen).toEqual(expected);
      if (step === steps.length) break;
      await steps[step]!(plain.page);
      await steps[step]!(hostile.page);
    }

    // And the widget's own values, not merely equal ones: 1em is the browser's 16px, not 30px or 40px.
    expect(await styleOf(hostile.page, '.outing', ['font-size', 'line-height', 'color', 'font-family', 'letter-spacing'])).toEqual({
      'font-size': '16px',
      'line-height': '24px',
      color: 'rgb(29, 29, 31)',
      'font-family': 'system-ui, sans-serif',
      'letter-spacing': 'normal',
    });
    expect(await styleOf(hostile.page, 'h2', ['font-size', 'text-transform'])).toEqual({ 'font-size': '22px', 'text-transform': 'none' });
    const input = await widgetOn(hostile.page).getByLabel('Name', { exact: true }).boundingBox();
    expect(input!.height).toBe(44);
    const book = await styleOf(hostile.page, 'button.primary', ['background-color', 'border-top-left-radius', 'min-height']);
    expect(book).toEqual({ 'background-color': 'rgb(11, 92, 173)', 'border-top-left-radius': '8px', 'min-height': '44px' });

    expect(plain.problems).toEqual([]);
    expect(hostile.problems).toEqual([]);
    await plain.page.context().close();
    await hostile.page.context().close();
  });

  it('still takes its theme from --outing-accent, --outing-radius and --outing-font on the element', async () => {
    const themed = `${HOSTILE} [data-outing] { --outing-accent: rgb(120, 40, 140); --outing-radius: 3px; --outing-font: Georgia, serif; }`;
    const { page, problems } = await open('/themed', themed);
    expect(await styleOf(page, '.outing', ['font-family', 'font-size', 'border-top-left-radius'])).toEqual({
      'font-family': 'Georgia, serif',
      'font-size': '16px',
      'border-top-left-radius': '3px',
    });
    expect(await styleOf(page, 'button.day.free', ['border-top-color', 'color', 'font-family'])).toEqual({
      'border-top-color': 'rgb(120, 40, 140)',
      color: 'rgb(120, 40, 140)',
      'font-family': 'Georgia, serif',
    });
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('stays hidden inside a container the page hides', async () => {
    const { page } = await open('/hidden', 'main { visibility: hidden; }', 'attached');
    expect(await styleOf(page, 'h2', ['visibility'])).toEqual({ visibility: 'hidden' });
    await page.context().close();
  });
});
