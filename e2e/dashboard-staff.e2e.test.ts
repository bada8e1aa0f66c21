import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { violations } from './axe.js';
import { apiAs, dashboardPage, heading, openSignedIn, overflow, ownerOf, signIn, unexpected, type Owner } from './dashboard-helpers.js';
import type { OutingServer } from './outing-server.js';
import { useOutingAndChromium } from './suite.js';

/**
 * The team in Settings › Team, and what a staff member sees: the owner invites them, they set a
 * password through the setup link in a browser of their own, and the dashboard shows them only
 * Today, Bookings, Calendar and Customers.
 */
const artifacts = resolve(import.meta.dirname, '../test-results');
const suite = useOutingAndChromium();
let outing: OutingServer;
let browser: Browser;
let owner: Owner;
const staff = { email: 'joana@lisbonwalks.example', password: 'the tram goes up to the castle' };

beforeAll(async () => {
  ({ outing, browser } = suite());
  owner = ownerOf(outing);
  await mkdir(artifacts, { recursive: true });
});

const api = <T = any>(path: string, init: RequestInit = {}) => apiAs<T>(outing, path, init);
const card = (page: Page, name: string) => page.getByRole('listitem').filter({ has: page.getByRole('heading', { name, exact: true }) });

async function openTeam(page: Page): Promise<void> {
  await openSignedIn(page, outing, owner, '/dashboard/settings/team', 'Settings');
  await page.getByRole('heading', { level: 2, name: 'Team' }).waitFor();
  await page.getByRole('heading', { level: 3, name: /\(you\)$/ }).waitFor();
}

describe('the team and staff', () => {
  it('invites a staff member, who sets a password through the link and sees only the staff screens', async () => {
    const { page, problems } = await dashboardPage(browser, { bypassCSP: true });
    await openTeam(page);
    const invite = page.getByRole('form', { name: 'Invite someone' });
    await invite.getByLabel('Name').fill('Joana Guide');
    await invite.getByLabel('Email').fill(staff.email);
    await page.getByRole('button', { name: 'Invite' }).click();
    const panel = page.getByRole('group', { name: 'Setup link for Joana Guide' });
    await panel.waitFor();
    expect(await panel.innerText()).toContain('expires in 72 hours');
    expect(await violations(page, 'html'), 'a setup link shown once').toEqual([]);
    const link = await page.getByRole('textbox', { name: 'Setup link' }).inputValue();
    expect(link).toMatch(new RegExp(`^${outing.origin}/dashboard/setup#`));
    const joana = card(page, 'Joana Guide');
    expect(await joana.innerText()).toMatch(/Role\s*Staff/i);
    expect(await joana.innerText()).toMatch(/Last sign-in\s*Never/i);

    // The staff member, in a browser of their own.
    const other = await dashboardPage(browser, { bypassCSP: true });
    const p = other.page;
    await p.goto(link);
    await heading(p, 'Set password');
    await p.getByLabel('New password', { exact: true }).fill(staff.password);
    await p.getByLabel('Repeat the new password').fill(staff.password);
    await p.getByRole('button', { name: 'Set password' }).click();
    await heading(p, 'Today');
    const nav = p.getByRole('navigation', { name: 'Dashboard' });
    expect(await nav.getByRole('link').allInnerTexts()).toEqual(['Today', 'Bookings', 'Calendar', 'Customers']);

    for (const path of ['settings', 'settings/api-keys', 'experiences', 'insights']) {
      await p.goto(`${outing.origin}/dashboard/${path}`);
      await heading(p, 'Not available to your role');
      expect(await nav.getByRole('link', { name: 'Settings' }).count()).toBe(0);
    }
    expect(await violations(p, 'html'), 'not available to staff').toEqual([]);
    await p.setViewportSize({ width: 375, height: 800 });
    expect(await overflow(p)).toBeLessThanOrEqual(0);
    await p.screenshot({ path: `${artifacts}/dashboard-staff-forbidden-375.png`, fullPage: true });
    await p.setViewportSize({ width: 1280, height: 900 });
    for (const [path, name] of [
      ['', 'Today'],
      ['bookings', 'Bookings'],
      ['calendar', 'Calendar'],
      ['customers', 'Customers'],
    ] as const) {
      await p.goto(`${outing.origin}/dashboard${path ? `/${path}` : ''}`);
      await p.locator('h1#heading').filter({ hasNotText: /^(Sign in|Loading)$/ }).waitFor();
      expect(await p.locator('h1#heading').innerText(), path).not.toBe('Not available to your role');
      await expect.poll(() => nav.getByRole('link', { name }).getAttribute('aria-current')).toBe('page');
    }
    // The API agrees: the staff session may not read keys.
    expect(await p.evaluate(async () => (await fetch('/v1/api-keys')).status)).toBe(403);

    // The owner sees the sign-in, disables Joana (her session ends), enables her, and deletes her.
    await page.reload();
    await joana.waitFor();
    expect(await joana.innerText()).not.toMatch(/Last sign-in\s*Never/i);
    await joana.getByRole('button', { name: 'Disable' }).click();
    await joana.getByRole('button', { name: 'Enable' }).waitFor();
    expect(await joana.innerText()).not.toMatch(/Disabled\s*No/i);
    await p.goto(`${outing.origin}/dashboard/bookings`);
    await heading(p, 'Sign in');
    await signIn(p, staff);
    await p.getByRole('alert').waitFor();
    await joana.getByRole('button', { name: 'Enable' }).click();
    await joana.getByRole('button', { name: 'Disable' }).waitFor();
    await signIn(p, staff);
    await heading(p, /Bookings/);

    await joana.getByRole('button', { name: 'Make owner' }).click();
    await joana.getByRole('button', { name: 'Make staff' }).waitFor();
    const users = (await api<{ email: string; role: string }[]>('/v1/users')).data;
    expect(users.find((u) => u.email === staff.email)?.role).toBe('owner');
    await joana.getByRole('button', { name: 'Make staff' }).click();
    await joana.getByRole('button', { name: 'Make owner' }).waitFor();

    await joana.getByRole('button', { name: 'Delete' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete the user Joana Guide?' });
    await dialog.waitFor();
    expect(await violations(page, 'html'), 'the delete dialog').toEqual([]);
    await dialog.getByRole('button', { name: 'Delete user' }).click();
    await page.getByText('The user Joana Guide is deleted.').waitFor();
    expect((await api<{ email: string }[]>('/v1/users')).data.map((u) => u.email)).not.toContain(staff.email);
    await p.reload();
    await heading(p, 'Sign in');

    expect(unexpected(problems, 401)).toEqual([]);
    expect(unexpected(other.problems, 401, 403)).toEqual([]);
    await p.context().close();
    await page.context().close();
  });

  it('offers the last owner no way to stop being one, and says why', async () => {
    const { page, problems } = await dashboardPage(browser, { bypassCSP: true });
    await openTeam(page);
    const me = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: /\(you\)$/ }) });
    await me.getByText('The only active owner: make someone else an owner before changing your role.').waitFor();
    // Nobody disables or deletes themselves from here, and nothing is offered only to be refused.
    for (const name of ['Disable', 'Delete', 'Make staff']) expect(await me.getByRole('button', { name }).count(), name).toBe(0);
    expect(await me.innerText()).toMatch(/Role\s*Owner/i);
    expect(await violations(page, 'html'), 'the team with its last owner').toEqual([]);
    expect(unexpected(problems, 401)).toEqual([]);
    await page.context().close();
  });
});
