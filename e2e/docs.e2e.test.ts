import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { openPage } from './browser.js';
import { useOutingAndChromium } from './suite.js';

const artifacts = resolve(import.meta.dirname, '../test-results');

/**
 * `/docs` in a real browser: Scalar, served by Outing, renders the whole reference from
 * `/v1/openapi.json` (and, at `/docs/octo`, `/octo/openapi.json`) and never reaches another origin. CSP violations surface as console errors.
 */
describe('/docs in Chromium', () => {
  const env = useOutingAndChromium();
  beforeAll(async () => {
    await mkdir(artifacts, { recursive: true });
  });

  it('renders the operations, Markdown and webhooks with requests to its own origin only; screenshots in test-results/', async () => {
    const { outing, browser } = env();
    const { page, problems, requests } = await openPage(browser, { viewport: { width: 1400, height: 1000 } });
    await page.goto(`${outing.origin}/docs`);
    await page.getByText('Get your organization').first().waitFor({ timeout: 30_000 });

    // The introduction's Markdown is rendered, not printed raw.
    await page.locator('h2, h3').filter({ hasText: 'Idempotency' }).first().waitFor();
    await page.locator('strong').filter({ hasText: 'secret key' }).first().waitFor();
    expect(await page.locator('body').innerText()).not.toContain('## Authentication');
    await page.screenshot({ path: `${artifacts}/docs-intro.png` });

    await page.goto(`${outing.origin}/docs#tag/bookings/POST/v1/bookings`);
    await page.getByText('Book a time slot').first().waitFor();
    await page.getByText('Checks, in order').first().waitFor();
    await page.waitForTimeout(500);
    await page.screenshot({ path: `${artifacts}/docs-operation.png` });

    await page.goto(`${outing.origin}/docs#tag/webhooks`);
    await page.getByText('A booking was made').first().click();
    await page.getByText('webhook-signature').first().waitFor({ timeout: 10_000 });
    await page.waitForTimeout(500);
    await page.screenshot({ path: `${artifacts}/docs-webhook.png` });

    // The OCTO supplier API's reference, linked from the introduction.
    await page.goto(`${outing.origin}/docs`);
    await page.locator('a[href="/docs/octo"]').first().click();
    await page.getByText('Outing OCTO supplier API').first().waitFor({ timeout: 30_000 });
    await page.getByText('Get the supplier').first().waitFor();
    expect(requests).toContain(`GET ${outing.origin}/octo/openapi.json`);

    const elsewhere = requests.filter((r) => !r.split(' ')[1]?.startsWith(`${outing.origin}/`) && !/ data:/.test(r));
    expect(elsewhere).toEqual([]);
    expect(requests).toContain(`GET ${outing.origin}/v1/openapi.json`);
    expect(problems.filter((p) => p.startsWith('console.error') || p.startsWith('pageerror'))).toEqual([]);
    expect(problems.filter((p) => /Content.Security.Policy|Refused to/i.test(p))).toEqual([]);
  });
});
