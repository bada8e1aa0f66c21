import { ApiRoutes } from '../http/router.js';
import type { RouteContext } from './context.js';
import { list, ok, pageOf } from '../http/reply.js';
import { AnswerCache, cachedAnswer } from '../http/answer-cache.js';
import { canonicalJson } from '../http/idempotency.js';
import { serializeBooking } from '../serializers/booking.js';
import { serializeCustomer } from '../serializers/customer.js';
import { eraseCustomer, getCustomerWithBookings, listCustomers } from '../services/customers.js';
import { getOrganization } from '../services/organizations.js';
import { Customer, CustomerDetail, CustomerErased, CustomerListQuery } from '../../shared/index.js';

const HISTORY_LIMIT = 100;

export function customerRoutes(ctx: RouteContext): ApiRoutes {
  const tag = 'Customers';
  const { store } = ctx;
  const answers = new AnswerCache();
  const currencyOf = async (orgId: string) => (await getOrganization(store, orgId)).currency;
  return new ApiRoutes(ctx)
    .op(
      {
        method: 'get',
        path: '/customers',
        summary: 'List customers, latest booking first',
        description: 'One customer per e-mail address (compared case-insensitively), created or updated by each booking.',
        tag,
        auth: 'secret',
        scope: 'customers:read',
        query: CustomerListQuery,
        response: Customer,
        list: true,
      },
      async ({ caller, query }) =>
        await cachedAnswer(answers, store, `${caller.orgId}|${canonicalJson(query)}`, ctx.now(), async () => {
          const page = pageOf(query);
          const { rows, total } = await listCustomers(store, caller.orgId, query.search, page);
          const currency = await currencyOf(caller.orgId);
          return list(rows.map((r) => serializeCustomer(r, currency)), total, page);
        }),
    )
    .op(
      {
        method: 'get',
        path: '/customers/:id',
        summary: 'Get a customer with their bookings (latest slot first, at most 100)',
        tag,
        auth: 'secret',
        scope: 'customers:read',
        params: { id: 'customer' },
        response: CustomerDetail,
      },
      async ({ caller, params }) => {
        const { customer, bookings } = await getCustomerWithBookings(store, caller.orgId, params.id, HISTORY_LIMIT);
        return ok({ ...serializeCustomer(customer, await currencyOf(caller.orgId)), bookings: bookings.map(serializeBooking) });
      },
    )
    .op(
      {
        method: 'delete',
        path: '/customers/:id',
        summary: 'Erase a customer’s personal data',
        description:
          'Name, e-mail and phone are replaced by "erased" placeholders in the customer, its bookings and stored event payloads. ' +
          'Bookings keep their places and numbers.',
        tag,
        auth: 'secret',
        scope: 'customers:write',
        params: { id: 'customer' },
        response: CustomerErased,
      },
      async ({ caller, params }) => {
        await eraseCustomer(store, caller.orgId, params.id, ctx.now(), caller.actor);
        return ok({ id: params.id, erased: true });
      },
    );
}
