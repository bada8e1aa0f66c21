import type { Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { launchChromium } from './browser.js';
import { startOuting, type OutingServer } from './outing-server.js';

/**
 * A real Outing server and one headless Chromium for the calling test file: started before its
 * tests, stopped after them. Returns the running pair.
 */
export function useOutingAndChromium(): () => { outing: OutingServer; browser: Browser } {
  let current: { outing: OutingServer; browser: Browser } | undefined;
  let outing: OutingServer | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    outing = await startOuting();
    browser = await launchChromium();
    current = { outing, browser };
  });
  afterAll(async () => {
    await browser?.close();
    await outing?.stop();
  });
  return () => {
    if (!current) throw new Error('useOutingAndChromium: only inside the test file’s hooks and tests');
    return current;
  };
}
