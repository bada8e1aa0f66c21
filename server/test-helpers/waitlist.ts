import { newId } from '../domain/ids.js';
import type { Store } from '../store/index.js';
import type { WaitlistRow } from '../store/waitlist.js';
import { issueWaitlistToken } from '../services/waitlist-offer.js';

const HOUR = 3_600_000;

/**
 * An OFFERED entry made the way the offers engine makes one: its places taken in the slot's counter
 * (only if they fit) and the entry moved WAITING → OFFERED, in one transaction; then the token its
 * e-mail would carry.
 */
export async function offeredEntry(
  store: Store,
  exp: { id: string; maxParticipants: number; duration: number },
  orgId: string,
  startTime: string,
  now: number,
  more: Partial<WaitlistRow> & { expiresInMs?: number } = {},
): Promise<{ entry: WaitlistRow; token: string }> {
  const { expiresInMs = 12 * HOUR, ...fields } = more;
  const slotStart = Date.parse(startTime);
  const entry: WaitlistRow = {
    id: newId('waitlistEntry'), orgId, experienceId: exp.id, slotStart, slotEnd: slotStart + exp.duration * 60_000, status: 'WAITING',
    places: 2, totalParticipants: 2, tickets: '[]', answers: '[]', guestName: 'Wren Guest', guestEmail: 'wren@example.com',
    guestPhone: '+351 912 000 000', locale: 'en', tokenHash: null, offeredAt: null, offerExpiresAt: null, bookingId: null,
    createdAt: now - HOUR, updatedAt: now - HOUR, ...fields,
  };
  await store.transaction(async () => {
    await store.waitlist.insertEntry(entry);
    if (!(await store.bookings.takePlaces(exp.id, slotStart, entry.places, exp.maxParticipants))) throw new Error('The offer does not fit');
    const moved = await store.waitlist.moveEntry(entry.id, ['WAITING'], 'OFFERED', { offeredAt: now, offerExpiresAt: now + expiresInMs, updatedAt: now });
    if (!moved) throw new Error('Not moved');
  });
  const token = await issueWaitlistToken(store, entry.id, now);
  if (!token) throw new Error('No token');
  return { entry: { ...entry, status: 'OFFERED', offeredAt: now, offerExpiresAt: now + expiresInMs }, token };
}

