import type { Sql } from './sql.js';
import { bookingStore, type BookingStore } from './bookings.js';
import { eventStore, type EventStore } from './events.js';
import { userStore, type UserStore } from './users.js';

/**
 * The store's slices written once over the port, one per resource: a service asks for the slice it
 * needs (`store.users`), and two modules can never answer to one name.
 */
export interface WrittenOnce {
  users: UserStore;
  bookings: BookingStore;
  events: EventStore;
}

/** Every slice written once, over one engine's driver. */
export function slicesOver(sql: Sql): WrittenOnce {
  return {
    users: userStore(sql),
    bookings: bookingStore(sql),
    events: eventStore(sql),
  };
}
