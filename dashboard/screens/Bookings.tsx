import type { JSX } from 'preact';
import { BookingTable } from '../components/booking-table.js';
import { Field, formOf, Select } from '../components/Field.js';
import { Pager } from '../components/Pager.js';
import { plural } from '../format.js';
import { pathTo } from '../router.js';
import type { Model } from '../state/model.js';
import { ANY_DATE, SOURCES } from '../state/bookings.js';
import { SOURCE_WORDS } from '../state/octo.js';
import '../styles/bookings.css';
import { RetryAlert } from '../components/RetryAlert.js';

const STATUS_OPTIONS = [
  ['', 'Any status'],
  ['CONFIRMED', 'Confirmed'],
  ['PENDING', 'Awaiting payment'],
  ['CANCELLED', 'Cancelled'],
] as const;

const SOURCE_OPTIONS: readonly (readonly [string, string])[] = [['', 'Any source'], ...SOURCES.map((s) => [s, SOURCE_WORDS[s]] as const)];

/** How the list is sorted, in words: the table's caption. */
const ORDER_WORDS: Record<string, string> = {
  '': 'by time of the tour, soonest first',
  '-startTime': 'by time of the tour, latest first',
  createdAt: 'by when they were booked, oldest first',
  '-createdAt': 'by when they were booked, newest first',
};

function Filters({ m }: { m: Model }): JSX.Element {
  const b = m.bookings;
  const f = b.list.value.filters;
  const zone = b.zones.orgZone();
  const filtered = !f.upcoming && !!(f.q || f.status || f.source || f.startDate || f.endDate);
  return (
    <form
      key={b.formKey.value}
      class="bk-filters"
      role="search"
      aria-label="Bookings"
      onSubmit={(e) => {
        const form = formOf(e);
        b.filter({ q: form.value('q'), status: form.value('status'), source: form.value('source'), startDate: form.value('startDate'), endDate: form.value('endDate') });
      }}
    >
      <Field name="q" type="search" label="Search" hint="Booking number, guest name or e-mail" value={f.q} onInput={(v) => b.edit('q', v)} required={false} />
      <Select name="status" label="Status" options={STATUS_OPTIONS} value={f.status} onChange={(v) => b.edit('status', v)} />
      <Select name="source" label="Source" options={SOURCE_OPTIONS} value={f.source} onChange={(v) => b.edit('source', v)} />
      <Field name="startDate" type="date" label="From" value={f.startDate} onInput={(v) => b.edit('startDate', v)} required={false} />
      <Field name="endDate" type="date" label="To" value={f.endDate} onInput={(v) => b.edit('endDate', v)} required={false} />
      <p class="hint bk-dates-hint">Dates of the tour, in the organization's time zone{zone ? ` (${zone})` : ''}; both ends included.</p>
      <div class="buttons">
        <button type="submit" class="primary">
          Show bookings
        </button>
        {filtered ? (
          <a class="button" href={pathTo('bookings')}>
            Clear filters
          </a>
        ) : (
          <a class="button" href={`${pathTo('bookings')}?startDate=${ANY_DATE}`}>
            Show past bookings too
          </a>
        )}
      </div>
    </form>
  );
}

export function Bookings({ m }: { m: Model }): JSX.Element {
  const b = m.bookings;
  const { page, loading, error, filters } = b.list.value;
  const filtered = !filters.upcoming && !!(filters.q || filters.status || filters.source || filters.startDate || filters.endDate);
  const zone = b.zones.orgZone() ?? 'UTC';
  return (
    <main id="main" class="bk-list">
      <h1 id="heading" tabIndex={-1}>
        Bookings
      </h1>
      <p class="actions-row">
        <a class="button primary" href={`${pathTo('bookings', 'new')}`}>
          New booking
        </a>
      </p>
      <Filters m={m} />
      <p class="status-line" role="status">
        {loading
          ? 'Loading bookings…'
          : page
            ? filters.upcoming
              ? plural(page.pagination.total, 'upcoming booking', 'upcoming bookings')
              : `${plural(page.pagination.total, 'booking', 'bookings')}${filtered ? ' match' : ''}`
            : ''}
      </p>
      <RetryAlert error={error} onRetry={() => b.retry()} />
      {page && !page.data.length ? (
        <div class="empty">
          {filtered ? (
            <>
              <h2>No bookings match</h2>
              <p>
                Try part of the name or e-mail, another status or source, or a wider range of dates, or{' '}
                <a href={`${pathTo('bookings')}?startDate=${ANY_DATE}`}>show every booking</a>.
              </p>
            </>
          ) : filters.upcoming ? (
            <>
              <h2>No upcoming bookings</h2>
              <p>
                No tour from today on has a booking yet. <a href={`${pathTo('bookings')}?startDate=${ANY_DATE}`}>Show past bookings too</a>.
              </p>
            </>
          ) : (
            <>
              <h2>No bookings yet</h2>
              <p>
                Guests book through the widget on your site; integrations add bookings with the API (<code>POST /v1/bookings</code>). Each one
                appears here.
              </p>
            </>
          )}
        </div>
      ) : null}
      {page?.data.length ? (
        <>
          <BookingTable
            rows={page.data}
            zoneOf={b.zones.zoneOf}
            caption={`Bookings, ${ORDER_WORDS[filters.sort] ?? ORDER_WORDS['']!}`}
            sort={{ current: filters.sort || 'startTime', by: (sort) => b.sortBy(sort), zone }}
            source
          />
          <Pager pagination={page.pagination} href={b.pageHref} label="Pages of bookings" />
        </>
      ) : null}
    </main>
  );
}
