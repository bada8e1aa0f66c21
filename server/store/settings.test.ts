import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Store } from './index.js';
import { openTestStore, testEngine } from '../test-helpers/index.js';
import { openTwoStores } from '../test-helpers/process-database.js';

describe(`settings store (${testEngine()})`, () => {
  let opened: Awaited<ReturnType<typeof openTestStore>>;
  let store: Store;
  beforeEach(async () => {
    opened = await openTestStore();
    store = opened.store;
  });
  afterEach(async () => {
    await opened.close();
  });

  it('reads, writes and overwrites settings; keys are case-sensitive and an empty text is a value', async () => {
    expect(await store.settings.getSetting('demo_org')).toBeUndefined();
    await store.settings.setSetting('demo_org', 'org_A');
    await store.settings.setSetting('Demo_org', '');
    expect(await store.settings.getSetting('demo_org')).toBe('org_A');
    expect(await store.settings.getSetting('Demo_org')).toBe('');
    await store.settings.setSetting('demo_org', 'org_B');
    expect(await store.settings.getSetting('demo_org')).toBe('org_B');
    expect(await store.settings.getSetting('DEMO_ORG')).toBeUndefined();
  });

  it('refuses no value (NOT NULL), and the setting keeps the one it had', async () => {
    await store.settings.setSetting('demo_org', 'org_A');
    await expect(store.settings.setSetting('demo_org', null as unknown as string)).rejects.toThrow();
    expect(await store.settings.getSetting('demo_org')).toBe('org_A');
  });

  it('forgets a setting written in a transaction that rolled back, though it was read inside it', async () => {
    await store.settings.setSetting('guest_mail', 'on');
    await expect(
      store.transaction(async () => {
        await store.settings.setSetting('guest_mail', 'off');
        await store.settings.setSetting('other', 'x');
        expect(await store.settings.getSetting('guest_mail')).toBe('off');
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await store.settings.getSetting('guest_mail')).toBe('on');
    expect(await store.settings.getSetting('other')).toBeUndefined();
  });
});

describe(`settings seen at once across connections (${testEngine()})`, () => {
  it('sees a setting changed through another connection (the CLI, another process)', async () => {
    const { store, other, close } = await openTwoStores();
    try {
      expect(await store.settings.getSetting('guest_mail')).toBeUndefined();
      await store.settings.setSetting('guest_mail', 'off');
      expect(await store.settings.getSetting('guest_mail')).toBe('off');
      await other.settings.setSetting('guest_mail', 'on');
      expect(await store.settings.getSetting('guest_mail')).toBe('on');
    } finally {
      await close();
    }
  });
});
