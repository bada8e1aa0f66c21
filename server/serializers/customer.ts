import type { CustomerView } from '../store/customers.js';
import { formatMoney } from '../domain/money.js';
import { iso, isoOrNull } from './instant.js';
import type { Customer } from '../../shared/index.js';

export function serializeCustomer(c: CustomerView, currency: string): Customer {
  return {
    id: c.id,
    name: c.name,
    email: c.email,
    phone: c.phone,
    bookingCount: c.bookingCount,
    totalSpent: formatMoney(c.spentCents),
    currency,
    firstBookingAt: isoOrNull(c.firstBookingAt),
    lastBookingAt: isoOrNull(c.lastBookingAt),
    createdAt: iso(c.createdAt),
    updatedAt: iso(c.updatedAt),
  };
}
