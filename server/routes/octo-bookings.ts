import type { OctoRoutes } from '../http/octo.js';
import type { RouteContext } from './context.js';

/** The OCTO booking operations (`/octo/bookings…`), added to the `/octo` sub-app by `routes/octo.ts`. */
export function registerOctoBookingRoutes(octo: OctoRoutes, ctx: RouteContext): void {
  void octo;
  void ctx;
}
