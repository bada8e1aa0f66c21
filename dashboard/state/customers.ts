/** The Customers screens' state and actions. */
import type { Location } from '../router.js';
import type { Area, AreaContext } from './context.js';

export function createCustomersModel(ctx: AreaContext) {
  void ctx;
  const area = {
    enter(location: Location): void {
      void location;
    },
    reset(): void {},
  } satisfies Area;
  return area;
}

export type CustomersModel = ReturnType<typeof createCustomersModel>;
