/**
 * Places and guests: not the same count where some tickets take no place (an infant on a lap).
 * Places are what capacity, availability and "booked" count; guests are every ticket, as a
 * booking's `totalParticipants`. The API's tickets name their category but not whether it takes a
 * place, so that comes from the experience's price categories.
 */
import type { Ticket } from '../../shared/index.js';
import { plural } from '../format.js';

/** Price category id → whether its tickets take a place. */
export type PlaceRule = ReadonlyMap<string, boolean>;

/** The rule of every category of these experiences. */
export const placeRuleOf = (experiences: readonly { priceCategories: readonly { id: string; occupiesPlace: boolean }[] }[]): PlaceRule =>
  new Map(experiences.flatMap((x) => x.priceCategories.map((c) => [c.id, c.occupiesPlace] as const)));

/**
 * The places a booking takes: its tickets that take one, or its participants when it has no tickets.
 * A category since dropped from its experience is no longer listed; its tickets then count as the
 * widget's default would (every type but infants takes a place).
 */
export function placesOf(b: { totalParticipants: number; tickets: readonly Ticket[] }, rule: PlaceRule): number {
  if (!b.tickets.length) return b.totalParticipants;
  return b.tickets.reduce((n, t) => n + ((rule.get(t.categoryId) ?? t.type !== 'INFANT') ? t.quantity : 0), 0);
}

/** `3 guests`, or `501 guests (1 place)` when some take no place. */
export const guestsText = (guests: number, places: number): string =>
  plural(guests, 'guest', 'guests') + (places === guests ? '' : ` (${plural(places, 'place', 'places')})`);
