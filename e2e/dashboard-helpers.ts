import { expect } from 'vitest';
/**
 * What every dashboard e2e file shares: the demo owner's sign-in as `outing serve --demo` prints
 * it, a page that reports CSP violations, the API as the demo's secret key, and the checks each
 * screen runs (headings, overflow at 375 px, expected 4xx lines).
 */
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { openPage, type WatchedPage } from './browser.js';
import type { OutingServer } from './outing-server.js';

export interface Owner {
  email: string;
  password: string;
}

/** The demo owner's e-mail and one-time password, from what the server printed at start. */
export function ownerOf(outing: OutingServer): Owner {
  const printed = outing.output();
  const owner = {
    email: /Owner e-mail:\s+(\S+)/.exec(printed)?.[1] ?? '',
    password: /Owner password:\s+(\S+)/.exec(printed)?.[1] ?? '',
  };
  if (!owner.password) throw new Error(`No owner password in the server's output:\n${printed}`);
  return owner;
}

/** A call to /v1 with the demo's secret key; `data` is the envelope's data (or error). */
export async function apiAs<T = any>(outing: OutingServer, path: string, init: RequestInit = {}): Promise<{ status: number; data: T; body: any }> {
  const res = await fetch(`${outing.origin}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${outing.secretKey}`, 'content-type': 'application/json', ...init.headers },
  });
  const body = (await res.json()) as { data: T };
  return { status: res.status, data: body.data, body };
}

/** A page that also reports CSP violations, which Chromium may not always log as errors. */
export async function dashboardPage(browser: Browser, options: BrowserContextOptions = {}): Promise<WatchedPage> {
  const watched = await openPage(browser, options);
  await watched.page.addInitScript(() =>
    document.addEventListener('securitypolicyviolation', (e) => console.error(`CSP violation: ${e.violatedDirective} ${e.blockedURI}`)),
  );
  return watched;
}

/**
 * Signs `who` in once (a memory-hard hash: slow on purpose) and returns the cookies, for every
 * later page of the file to start with.
 */
export async function signedInState(browser: Browser, outing: OutingServer, who: Owner): Promise<BrowserContextOptions['storageState']> {
  const first = await dashboardPage(browser);
  await openSignedIn(first.page, outing, who, '/dashboard', 'Today');
  const state = await first.page.context().storageState();
  await first.page.context().close();
  return state;
}

/** Fills the sign-in form and submits it (the page must show it). */
export async function signIn(page: Page, who: Owner, password = who.password): Promise<void> {
  await page.getByLabel('Email').fill(who.email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** Opens a dashboard address signed in as `who` (signing in on the way when needed), and waits for its heading. */
export async function openSignedIn(page: Page, outing: OutingServer, who: Owner, path: string, heading?: string | RegExp): Promise<void> {
  await page.goto(`${outing.origin}${path}`);
  const signInHeading = page.getByRole('heading', { level: 1, name: 'Sign in' });
  const first = await Promise.race([
    signInHeading.waitFor().then(() => 'sign-in' as const),
    page.locator('h1#heading').filter({ hasNotText: /^(Sign in|Loading)$/ }).waitFor().then(() => 'in' as const),
  ]);
  if (first === 'sign-in') await signIn(page, who);
  if (heading !== undefined) await page.getByRole('heading', { level: 1, name: heading }).waitFor();
}

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  409: 'Conflict',
  422: 'Unprocessable Entity',
};

/**
 * Problems but the browser's own line for an answer the contract gives on purpose: Chromium logs
 * every 4xx of fetch ("Failed to load resource"), and the tests provoke some (a wrong password,
 * a refused form) to see the dashboard show them.
 */
export const unexpected = (problems: string[], ...statuses: number[]): string[] =>
  problems.filter(
    (p) => !statuses.some((s) => p === `console.error: Failed to load resource: the server responded with a status of ${s} (${STATUS_TEXT[s] ?? ''})`),
  );

export const heading = (page: Page, name: string | RegExp) => page.getByRole('heading', { level: 1, name }).waitFor();

/** How far the page scrolls sideways; ≤ 0 means none (WCAG 1.4.10 at 375 px). */
export const overflow = (page: Page): Promise<number> => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

/**
 * Keyboard-only use of a page: `focused()` names the focused element as `tag|text|outline shown`
 * (its first 40 characters of text, else its name), and `tabTo` presses Tab until that matches,
 * checking that every element it stops on shows its focus.
 */
export function keyboardOf(page: Page, maxTabs = 120): { focused: () => Promise<string>; tabTo: (wanted: RegExp) => Promise<void> } {
  const focused = () =>
    page.evaluate(() => {
      const el = document.activeElement as HTMLElement;
      const style = getComputedStyle(el);
      return `${el.tagName.toLowerCase()}|${el.textContent?.trim().slice(0, 40) || (el as HTMLInputElement).name}|${style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2}`;
    });
  const tabTo = async (wanted: RegExp) => {
    for (let i = 0; i < maxTabs; i++) {
      await page.keyboard.press('Tab');
      const at = await focused();
      if (!at.startsWith('body')) expect(at, 'focus visible').toMatch(/\|true$/);
      if (wanted.test(at)) return;
    }
    throw new Error(`Tab never reached ${wanted}`);
  };
  return { focused, tabTo };
}
