/**
 * A quote: what a booking of the given parts would cost if made now, made by the very checks and
 * lines a booking is made with (`pricedParts`), never against the slot. It reads and writes nothing
 * else: no code is used, no voucher spent, no failure counted here.
 */
import { formatMoney } from '../domain/money.js';
import type { Store } from '../store/index.js';
import type { Quote, QuoteLine, QuoteRequest } from '../../shared/index.js';
import { getOrganization } from './organizations.js';
import { getActiveExperience, getExperience } from './experiences.js';
import { pricedParts } from './bookings.js';

export async function quoteBooking(store: Store, orgId: string, input: QuoteRequest, now: number, options: { activeOnly: boolean }): Promise<Quote> {
  const [org, exp] = await Promise.all([
    getOrganization(store, orgId),
    options.activeOnly ? getActiveExperience(store, orgId, input.experienceId) : getExperience(store, orgId, input.experienceId),
  ]);
  const { lines } = await pricedParts(store, org, exp, input, now, false);
  return {
    currency: org.currency,
    lines: lines.lines.map(
      (l): QuoteLine => ({
        // The participants are one line of tickets, named after the experience.
        kind: l.kind === 'PARTICIPANTS' ? 'TICKETS' : l.kind,
        label: l.name ?? exp.name,
        quantity: l.quantity,
        unitPrice: l.unitPrice,
        amount: formatMoney(l.amount),
      }),
    ),
    subtotal: formatMoney(lines.subtotal),
    discount: formatMoney(lines.discount),
    voucherAmount: formatMoney(lines.voucherAmount),
    total: formatMoney(lines.total),
    amountDue: formatMoney(lines.due),
  };
}
