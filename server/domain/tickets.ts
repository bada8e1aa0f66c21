/**
 * Price categories and the tickets a booking buys in them (adult, child, infant on a lap, …). Pure
 * rules: which categories an experience sells, what a list of tickets costs, how many places it
 * occupies, and which requests are refused before anything is written.
 */
import { invalid } from './refusal.js';
import { keepEntries } from './kept-entries.js';
import type { PriceCategory, PriceCategoryInput, Ticket, TicketInput } from '../../shared/index.js';

/** An experience's categories from their stored JSON; `[]`: it books by participants at its price. */
export const categoriesOf = (json: string): PriceCategory[] => JSON.parse(json) as PriceCategory[];

/**
 * A ticket as a booking stores it: the record's fields, and whether its category occupied a place
 * when booked (so that a later change of the category, or its removal, does not move the places a
 * booking already holds).
 */
export interface StoredTicket extends Ticket {
  occupiesPlace: boolean;
}

/** A booking's tickets as stored; null (a booking without categories) is `[]`. */
export const storedTicketsOf = (json: string | null): StoredTicket[] => (json === null ? [] : (JSON.parse(json) as StoredTicket[]));

/** A booking's tickets as the record shows them. */
export const ticketsOf = (json: string | null): Ticket[] =>
  storedTicketsOf(json).map(({ categoryId, name, type, quantity, unitPrice }) => ({ categoryId, name, type, quantity, unitPrice }));

/**
 * The list to store from the list sent: new entries get an id and the defaults, entries with an
 * id must name a category of this experience (they keep it, so bookings keep pointing at it).
 */
export function resolveCategories(sent: readonly PriceCategoryInput[], current: readonly PriceCategory[], newId: () => string): PriceCategory[] {
  return keepEntries(sent, current, newId, { list: 'priceCategories', noun: 'a price category' }, (c, id) => ({
    id,
    name: c.name.trim(),
    price: c.price,
    type: c.type ?? 'OTHER',
    occupiesPlace: c.occupiesPlace ?? true,
    minAge: c.minAge ?? null,
    maxAge: c.maxAge ?? null,
  }));
}

/** A priced list of tickets: what it stores and what it counts. */
export interface PricedTickets {
  tickets: StoredTicket[];
  /** Places in the slot: the tickets of categories that occupy one. */
  places: number;
  /** Every ticket: the booking's `totalParticipants`. */
  participants: number;
  totalCents: number;
}

/**
 * Prices the tickets a booking asks for. Categories the booking already has (`own`, on a change)
 * keep the name, type and unit price it was booked at, even if the experience has since changed or
 * dropped them; any other must be one of the experience's categories now, at today's price.
 * Refuses a category not on offer and a list that occupies no place; the path names the ticket.
 */
export function priceTickets(
  requested: readonly TicketInput[],
  offered: readonly PriceCategory[],
  own: readonly StoredTicket[] = [],
  participants?: number,
): PricedTickets {
  const byId = new Map(offered.map((c) => [c.id, c]));
  const ownById = new Map(own.map((t) => [t.categoryId, t]));
  let places = 0;
  let count = 0;
  let totalCents = 0;
  const tickets = requested.map((t, i): StoredTicket => {
    const kept = ownById.get(t.categoryId);
    const category = byId.get(t.categoryId);
    if (!kept && !category) throw invalid(`tickets[${i}].categoryId`, 'Not a price category of this experience');
    // A category the booking has keeps what it was booked at: name, price, and whether it takes a place.
    const ticket: StoredTicket = kept
      ? { ...kept, quantity: t.quantity }
      : {
          categoryId: t.categoryId,
          name: category!.name,
          type: category!.type,
          quantity: t.quantity,
          unitPrice: category!.price,
          occupiesPlace: category!.occupiesPlace,
        };
    if (ticket.occupiesPlace !== false) places += t.quantity;
    count += t.quantity;
    totalCents += t.quantity * ticket.unitPrice;
    return ticket;
  });
  if (places === 0) throw invalid('tickets', 'A booking needs at least one ticket that occupies a place (not only infants on a lap)');
  if (participants !== undefined && participants !== count) {
    throw invalid('participants', `participants must equal the number of tickets (${count})`);
  }
  return { tickets, places, participants: count, totalCents };
}

/** `2 × Adult, 1 × Child`: tickets in a line of text (iCal, activity). */
export const ticketsLine = (tickets: readonly Pick<Ticket, 'quantity' | 'name'>[], times = ' × ', between = ', '): string =>
  tickets.map((t) => `${t.quantity}${times}${t.name}`).join(between);
