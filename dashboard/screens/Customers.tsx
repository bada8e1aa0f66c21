import type { JSX } from 'preact';
import { Field, formOf } from '../components/Field.js';
import { Pager } from '../components/Pager.js';
import { money, plural, shortDateIn } from '../format.js';
import { pathTo } from '../router.js';
import { isErased } from '../state/customers.js';
import type { Model } from '../state/model.js';
import '../styles/bookings.css';
import { RetryAlert } from '../components/RetryAlert.js';

export function Customers({ m }: { m: Model }): JSX.Element {
  const c = m.customers;
  const { search, page, loading, error } = c.list.value;
  return (
    <main id="main" class="bk-customers">
      <h1 id="heading" tabIndex={-1}>
        Customers
      </h1>
      <form key={c.formKey.value} class="bk-filters" role="search" aria-label="Customers" onSubmit={(e) => c.search(formOf(e).value('search'))}>
        <Field name="search" type="search" label="Search" hint="Part of a name or an e-mail address" value={search} onInput={c.edit} required={false} />
        <div class="buttons">
          <button type="submit" class="primary">
            Search
          </button>
          {search ? (
            <a class="button" href={pathTo('customers')}>
              Show everyone
            </a>
          ) : null}
        </div>
      </form>
      <p class="status-line" role="status">
        {loading ? 'Loading customers…' : page ? plural(page.pagination.total, 'customer', 'customers') : ''}
      </p>
      <RetryAlert error={error} onRetry={() => c.retry()} />
      {page && !page.data.length ? (
        <div class="empty">
          {search ? (
            <>
              <h2>No customer matches “{search}”</h2>
              <p>
                Try a shorter part of the name or e-mail, or <a href={pathTo('customers')}>show everyone</a>.
              </p>
            </>
          ) : (
            <>
              <h2>No customers yet</h2>
              <p>A customer appears here with their first booking, made in the widget on your site or through the API.</p>
            </>
          )}
        </div>
      ) : null}
      {page?.data.length ? (
        <>
          <div class="table-wrap">
            <table class="bk-records">
              <caption class="visually-hidden">Customers, latest booking first</caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">E-mail</th>
                  <th scope="col" class="num">
                    Bookings
                  </th>
                  <th scope="col" class="num">
                    Spent
                  </th>
                  <th scope="col">Last booked</th>
                </tr>
              </thead>
              <tbody>
                {page.data.map((x) => (
                  <tr key={x.id}>
                    <td data-label="Name">
                      <a href={pathTo('customers', x.id)}>{isErased(x) ? 'Erased customer' : x.name}</a>
                    </td>
                    <td data-label="E-mail">{isErased(x) ? '—' : x.email}</td>
                    <td data-label="Bookings" class="num">
                      {x.bookingCount}
                    </td>
                    <td data-label="Spent" class="num">
                      {money(x.totalSpent, x.currency)}
                    </td>
                    <td data-label="Last booked">{x.lastBookingAt ? shortDateIn(x.lastBookingAt, c.zones.orgZone() ?? 'UTC') : '—'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pager pagination={page.pagination} href={c.pageHref} label="Pages of customers" />
        </>
      ) : null}
    </main>
  );
}
