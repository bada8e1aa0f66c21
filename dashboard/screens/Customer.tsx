import type { JSX } from 'preact';
import { BookingTable } from '../components/booking-table.js';
import { Confirm } from '../components/Confirm.js';
import { dateTimeIn, money, plural } from '../format.js';
import { pathTo } from '../router.js';
import { isErased } from '../state/customers.js';
import { titleCustomer } from './titles.js';
import type { Model } from '../state/model.js';
import '../styles/bookings.css';
import { RetryAlert } from '../components/RetryAlert.js';

export function Customer({ m }: { m: Model }): JSX.Element {
  const cm = m.customers;
  const { customer: c, loading, error } = cm.page.value;
  const erased = !!c && isErased(c);
  const zone = cm.zones.orgZone() ?? 'UTC';
  return (
    <main id="main" class="bk-customer">
      <p class="bk-back">
        <a href={pathTo('customers')}>All customers</a>
      </p>
      <h1 id="heading" tabIndex={-1}>
        {titleCustomer(m)}
      </h1>
      {loading && !c ? <p role="status">Loading the customer…</p> : null}
      <RetryAlert error={error} onRetry={() => cm.retry()} />
      {c ? (
        <>
          <p class="bk-notice" id="customer-notice" role="status" tabIndex={-1}>
            {cm.notice.value ? <span class="notice">{cm.notice.value}</span> : null}
          </p>
          <dl class="bk-details">
            {erased ? (
              <div>
                <dt>Personal data</dt>
                <dd>Erased: name, e-mail and phone are gone from the customer, its bookings and its events.</dd>
              </div>
            ) : (
              <>
                <div>
                  <dt>E-mail</dt>
                  <dd>
                    <a href={`mailto:${c.email}`}>{c.email}</a>
                  </dd>
                </div>
                <div>
                  <dt>Phone</dt>
                  <dd>{c.phone ? <a href={`tel:${c.phone}`}>{c.phone}</a> : 'None given'}</dd>
                </div>
              </>
            )}
            <div>
              <dt>Bookings</dt>
              <dd>{c.bookingCount}</dd>
            </div>
            <div>
              <dt>Spent</dt>
              <dd>{money(c.totalSpent, c.currency)} (confirmed bookings)</dd>
            </div>
            <div>
              <dt>First booked</dt>
              <dd>{c.firstBookingAt ? `${dateTimeIn(c.firstBookingAt, zone)} (${zone} time)` : '—'}</dd>
            </div>
          </dl>
          <section aria-labelledby="customer-bookings">
            <h2 id="customer-bookings">Bookings</h2>
            {c.bookings.length ? (
              <BookingTable rows={c.bookings} zoneOf={cm.zones.zoneOf} caption={`Bookings of this customer, latest first`} guest={false} />
            ) : (
              <p class="quiet">No bookings.</p>
            )}
            {c.bookingCount > c.bookings.length ? (
              <p class="quiet">The latest {plural(c.bookings.length, 'booking is', 'bookings are')} shown; search the bookings for the others.</p>
            ) : null}
          </section>
          {!erased && cm.isOwner() ? (
            <section aria-labelledby="erase-heading" class="bk-erase">
              <h2 id="erase-heading">Erase personal data</h2>
              <p>
                On request of the guest (the GDPR's right to erasure): their name, e-mail and phone are replaced everywhere Outing keeps
                them. Bookings keep their numbers, places and totals.
              </p>
              <button type="button" class="danger" id="open-erase" onClick={cm.askErase}>
                Erase personal data
              </button>
            </section>
          ) : null}
          {cm.erasing.value ? (
            <Confirm
              title={`Erase the personal data of ${c.name}?`}
              confirmLabel="Erase personal data"
              keepLabel="Keep the data"
              danger
              busy={cm.erasing.value.busy}
              error={cm.erasing.value.error}
              onClose={cm.closeErase}
              onConfirm={() => void cm.erase()}
            >
              <p>
                {c.name} ({c.email}) disappears from {plural(c.bookingCount, 'booking', 'bookings')} and their events. This cannot be undone.
              </p>
            </Confirm>
          ) : null}
        </>
      ) : null}
    </main>
  );
}
