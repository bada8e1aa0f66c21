// Who on a slot's waitlist gets an offer, and until when: pure rules of the offers (docs/waitlist.md, "Offers").

const MINUTE_MS = 60_000;

/**
 * The entries that get an offer of `remaining` places, in the order given (oldest first): each in
 * turn gets one if its places fit what is left, so a later, smaller party may pass a larger one
 * that does not fit; repeated until none fits (one pass does it: what is left only shrinks).
 */
export function entriesToOffer<E extends { places: number }>(waiting: readonly E[], remaining: number): E[] {
  const chosen: E[] = [];
  let left = remaining;
  for (const entry of waiting) {
    if (entry.places > left) continue;
    chosen.push(entry);
    left -= entry.places;
  }
  return chosen;
}

/**
 * When an offer made at `now` stops holding its places: after the organization's offer time, but
 * never after the slot stops taking bookings (its start less the experience's notice).
 */
export function offerEndsAt(now: number, offerMinutes: number, slotStart: number, minNoticeMinutes: number): number {
  return Math.min(now + offerMinutes * MINUTE_MS, slotStart - minNoticeMinutes * MINUTE_MS);
}
