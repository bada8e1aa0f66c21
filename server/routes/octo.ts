import { OctoRoutes } from '../http/octo.js';
import { OCTO_PRICING, OctoAvailabilityRequest, OctoCalendarRequest } from '../../shared/schemas/octo.js';
import { getOctoProduct, getOctoSupplier, listOctoProducts, octoAvailability, octoCalendar } from '../services/octo.js';
import {
  OCTO_CAPABILITIES,
  serializeOctoAvailability,
  serializeOctoCalendarEntry,
  serializeOctoProduct,
  serializeOctoSupplier,
} from '../serializers/octo.js';
import type { RouteContext } from './context.js';
import { registerOctoBookingRoutes } from './octo-bookings.js';

/** The OCTO supplier API, mounted at `/octo`: the supplier, its products and their availability, and the bookings. */
export function octoRoutes(ctx: RouteContext): OctoRoutes {
  const octo = new OctoRoutes(ctx);

  octo.op({ method: 'get', path: '/supplier' }, async ({ caller }) =>
    serializeOctoSupplier(await getOctoSupplier(ctx.store, caller.orgId), ctx.config.publicUrl),
  );

  octo.op({ method: 'get', path: '/capabilities' }, () => OCTO_CAPABILITIES);

  octo.op({ method: 'get', path: '/products' }, async ({ caller, capabilities }) => {
    const { org, products } = await listOctoProducts(ctx.store, caller.orgId, ctx.now());
    const pricing = capabilities.includes(OCTO_PRICING);
    return products.map((product) => serializeOctoProduct(product, org, pricing));
  });

  octo.op({ method: 'get', path: '/products/:id' }, async ({ caller, capabilities, params }) => {
    const { org, product } = await getOctoProduct(ctx.store, caller.orgId, params.id ?? '', ctx.now());
    return serializeOctoProduct(product, org, capabilities.includes(OCTO_PRICING));
  });

  octo.op({ method: 'post', path: '/availability/calendar', body: OctoCalendarRequest }, async ({ caller, capabilities, body }) => {
    const { org, product, dates } = await octoCalendar(ctx.store, caller.orgId, body, ctx.now());
    const pricing = capabilities.includes(OCTO_PRICING);
    return dates.map((day) => serializeOctoCalendarEntry(day, product, org.currency, pricing));
  });

  octo.op({ method: 'post', path: '/availability', body: OctoAvailabilityRequest }, async ({ caller, capabilities, body }) => {
    const { org, product, slots } = await octoAvailability(ctx.store, caller.orgId, body, ctx.now());
    const pricing = capabilities.includes(OCTO_PRICING);
    return slots.map((slot) => serializeOctoAvailability(slot, product, org.currency, pricing));
  });

  registerOctoBookingRoutes(octo, ctx);
  return octo.closeUnknownPaths();
}
