/** The Bookings screens' state and actions. */
import type { Location } from '../router.js';
import type { Area, AreaContext } from './context.js';

export function createBookingsModel(ctx: AreaContext) {
  void ctx;
  const area = {
    enter(location: Location): void {
      void location;
    },
    reset(): void {},
  } satisfies Area;
  return area;
}

export type BookingsModel = ReturnType<typeof createBookingsModel>;
