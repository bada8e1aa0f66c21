import { OctoRoutes } from '../http/octo.js';
import type { RouteContext } from './context.js';
import { registerOctoBookingRoutes } from './octo-bookings.js';
import { OCTO_CAPABILITIES } from '../serializers/octo.js';

/** The OCTO supplier API, mounted at `/octo`: the supplier, its products and their availability, and the bookings. */
export function octoRoutes(ctx: RouteContext): OctoRoutes {
  const octo = new OctoRoutes(ctx);
  octo.op({ method: 'get', path: '/capabilities' }, () => OCTO_CAPABILITIES);
  registerOctoBookingRoutes(octo, ctx);
  return octo.closeUnknownPaths();
}
