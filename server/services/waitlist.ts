// The waitlist as use cases (§20): joining a full slot, the org's list, removing an entry, and the
// offers that hand freed places to waiting guests in turn.
import type { Store } from '../store/index.js';
import { offerFreedPlaces as offerInTurn } from './waitlist-offers.js';

/**
 * Offers the places free in one slot to its WAITING entries, oldest first: the first whose places fit
 * gets an offer that holds them, again until none fits. Called in the same transaction as every change
 * that frees places in the slot (a cancellation, a lapsed hold, a move away, a smaller party, a higher
 * capacity, an offer declined, removed or lapsed), so a freed place never goes to a booking while a
 * waiting guest it fits waits. Answers how many offers it made.
 */
export async function offerFreedPlaces(store: Store, orgId: string, experienceId: string, slotStart: number, now: number): Promise<number> {
  // The engine lives in waitlist-offers.ts, which the booking use cases import without importing this module.
  return await offerInTurn(store, orgId, experienceId, slotStart, now);
}
