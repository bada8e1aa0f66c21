import type { Store } from '../store/index.js';
import { addOrganization } from './app.js';
import { openTestStore } from './process-database.js';

/**
 * A fresh store of the engine under test with two organizations, for the store's own suites (a row
 * of one must never show in the other's lists); `close` throws the database away.
 */
export async function openStoreWithTwoOrganizations(): Promise<{ store: Store; orgA: string; orgB: string; close(): Promise<void> }> {
  const { store, close } = await openTestStore();
  const orgA = (await addOrganization(store)).orgId;
  const orgB = (await addOrganization(store)).orgId;
  return { store, orgA, orgB, close };
}
