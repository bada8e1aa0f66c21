/** The Calendar screens' state and actions. */
import type { Location } from '../router.js';
import type { Area, AreaContext } from './context.js';

export function createCalendarModel(ctx: AreaContext) {
  void ctx;
  const area = {
    enter(location: Location): void {
      void location;
    },
    reset(): void {},
  } satisfies Area;
  return area;
}

export type CalendarModel = ReturnType<typeof createCalendarModel>;
