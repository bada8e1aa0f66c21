import { ApiRoutes, type RouteContext } from '../http/router.js';
import { list, ok, pageOf } from '../http/reply.js';
import { notFound } from '../domain/refusal.js';
import { serializeBooking, serializeCustomer } from '../serialize.js';
import { eraseCustomer } from '../services/customers.js';
import { Customer, CustomerDetail, CustomerErased, CustomerListQuery } from '../../shared/index.js';

const HISTORY_LIMIT = 100;

export function customerRoutes(ctx: RouteContext): ApiRoutes {
  const tag = 'Customers';
  const { store } = ctx;
  const currencyOf = (orgId: string) => store.getOrganization(orgId)?.currency ?? 'USD';
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
      ({ caller, query }) => {
        const page = pageOf(query);
        const { rows, total } = store.listCustomers(caller.orgId, query.search, page);
        const currency = currencyOf(caller.orgId);
        return list(rows.map((r) => serializeCustomer(r, currency)), total, page);
      },
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
      ({ caller, params }) => {
        const customer = store.getCustomer(caller.orgId, params.id);
        if (!customer) throw notFound('Customer');
        const bookings = store.listCustomerBookings(customer.id, HISTORY_LIMIT).map(serializeBooking);
        return ok({ ...serializeCustomer(customer, currencyOf(caller.orgId)), bookings });
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
      ({ caller, params }) => {
        eraseCustomer(store, caller.orgId, params.id, ctx.now());
        return ok({ id: params.id, erased: true });
      },
    );
}
