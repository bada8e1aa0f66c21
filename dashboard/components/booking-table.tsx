import type { ComponentChildren, JSX } from 'preact';
import type { BookingStatus } from '../../shared/index.js';
import { dateTimeIn, money } from '../format.js';
import { pathTo } from '../router.js';
import type { Booking } from '../../shared/index.js';
import { NO_NAME, SOURCE_WORDS } from '../state/octo.js';

export const STATUS_LABEL: Record<BookingStatus, string> = {
  CONFIRMED: 'Confirmed',
  PENDING: 'Awaiting payment',
  CANCELLED: 'Cancelled',
};

export function StatusBadge({ status }: { status: BookingStatus }): JSX.Element {
  return <span class={`bk-badge ${status.toLowerCase()}`}>{STATUS_LABEL[status]}</span>;
}

/** How a sortable table is sorted, and how to sort it otherwise (`-` first: reversed). */
export interface TableSort {
  /** `startTime`, `-startTime`, `createdAt` or `-createdAt`. */
  current: string;
  by: (sort: string) => void;
  /** The zone the Booked column shows its instants in. */
  zone: string;
}

/**
 * A column header that sorts the table: a button inside the `th` (so it is reached and pressed by
 * keyboard), the `th` carrying `aria-sort` while the table is sorted by it, the arrow only drawn.
 * A first press sorts ascending, the next reverses.
 */
function SortHeader({ sort, field, children }: { sort: TableSort; field: string; children: ComponentChildren }): JSX.Element {
  const direction = sort.current === field ? 'ascending' : sort.current === `-${field}` ? 'descending' : undefined;
  return (
    <th scope="col" aria-sort={direction} data-sortable="">
      <button type="button" class="sort" onClick={() => sort.by(direction === 'ascending' ? `-${field}` : field)}>
        {children}
        <span class="sort-mark" aria-hidden="true">
          {direction === 'ascending' ? '▲' : direction === 'descending' ? '▼' : '↕'}
        </span>
      </button>
    </th>
  );
}

/**
 * Bookings as rows, each opening the booking's page. On a phone each row stacks into a card; the
 * `data-label` names each value there, since the header row is out of sight.
 */
/** A guest's name, or a quiet word where a reseller sent none. */
export function GuestName({ name }: { name: string | null }): JSX.Element {
  return name ? <>{name}</> : <span class="quiet">{NO_NAME}</span>;
}

export function BookingTable({ rows, zoneOf, caption, guest = true, source = false, sort }: {
  rows: readonly Booking[];
  zoneOf: (experienceId: string) => string;
  caption: string;
  guest?: boolean;
  /** A Source column: who made each booking (the guest, the team, an integration, a reseller). */
  source?: boolean;
  /** Sortable by Time and by Booked (when it was made), a column only a sortable table has. */
  sort?: TableSort;
}): JSX.Element {
  return (
    <div class="table-wrap">
      <table class={sort ? 'bk-records sortable' : 'bk-records'}>
        <caption class="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Booking</th>
            {sort ? (
              <SortHeader sort={sort} field="startTime">
                Time
              </SortHeader>
            ) : (
              <th scope="col">Time</th>
            )}
            {sort ? (
              <SortHeader sort={sort} field="createdAt">
                Booked
              </SortHeader>
            ) : null}
            <th scope="col">Experience</th>
            {guest ? <th scope="col">Guest</th> : null}
            {source ? <th scope="col">Source</th> : null}
            <th scope="col" class="num">
              Guests
            </th>
            <th scope="col">Status</th>
            <th scope="col" class="num">
              Total
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((b) => {
            const zone = zoneOf(b.experience.id);
            return (
              <tr key={b.id}>
                <td data-label="Booking">
                  <a class="number" href={pathTo('bookings', b.id)}>
                    {b.bookingNumber}
                  </a>
                </td>
                <td data-label="Time">
                  <span>
                    <time dateTime={b.timeSlot.startTime}>{dateTimeIn(b.timeSlot.startTime, zone)}</time> <span class="bk-zone">{zone}</span>
                  </span>
                </td>
                {sort ? (
                  <td data-label="Booked">
                    <time dateTime={b.createdAt}>{dateTimeIn(b.createdAt, sort.zone)}</time>
                  </td>
                ) : null}
                <td data-label="Experience">{b.experience.title}</td>
                {guest ? (
                  <td data-label="Guest">
                    <GuestName name={b.guestName} />
                  </td>
                ) : null}
                {source ? <td data-label="Source">{SOURCE_WORDS[b.source]}</td> : null}
                <td data-label="Guests" class="num">
                  {b.totalParticipants}
                </td>
                <td data-label="Status">
                  <StatusBadge status={b.status} />
                </td>
                <td data-label="Total" class="num">
                  {money(b.total, b.currency)}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
