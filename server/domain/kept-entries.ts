/**
 * The lists an experience keeps entry by entry (price categories, questions, extras): bookings refer
 * to their entries by id, so an edit must keep the ids it means to keep and give new ones to the rest.
 */
import { invalid } from './refusal.js';

/**
 * The list to store from the list sent: an entry without `id` is new (a fresh id, and the defaults
 * `shape` fills in); an entry with one must name an entry of `current`, and keeps it. Any other id is
 * refused at `{list}[i].id`, naming what the list holds (`noun`).
 */
export function keepEntries<Sent extends { id?: string | undefined }, Kept extends { id: string }>(
  sent: readonly Sent[],
  current: readonly Kept[],
  newId: () => string,
  where: { list: string; noun: string },
  shape: (entry: Sent, id: string) => Kept,
): Kept[] {
  const known = new Set(current.map((c) => c.id));
  return sent.map((entry, i) => {
    if (entry.id !== undefined && !known.has(entry.id)) {
      throw invalid(`${where.list}[${i}].id`, `Not ${where.noun} of this experience; leave id out to add a new one`);
    }
    return shape(entry, entry.id ?? newId());
  });
}
