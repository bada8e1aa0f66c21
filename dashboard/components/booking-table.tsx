import type { JSX } from 'preact';
import type { BookingStatus } from '../../shared/index.js';
import { dateTimeIn, money } from '../format.js';
import { pathTo } from '../router.js';
import type { Booking } from '../../shared/index.js';

export const STATUS_LABEL: Record<BookingStatus, string> = {
  CONFIRMED: 'Confirmed',
  PENDING: 'Awaiting payment',
  CANCELLED: 'Cancelled',
};

export function StatusBadge({ status }: { status: BookingStatus }): JSX.Element {
  return <span class={`bk-badge ${status.toLowerCase()}`}>{STATUS_LABEL[status]}</span>;
}

/**
 * Bookings as rows, each opening the booking's page. On a phone each row stacks into a card; the
 * `data-label` names each value there, since the header row is out of sight.
 */
export function BookingTable({ rows, zoneOf, caption, guest = true }: {
  rows: readonly Booking[];
  zoneOf: (experienceId: string) => string;
  caption: string;
  guest?: boolean;
}): JSX.Element {
  return (
    <div class="table-wrap">
      <table class="bk-records">
        <caption class="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Booking</th>
            <th scope="col">Time</th>
            <th scope="col">Experience</th>
            {guest ? <th scope="col">Guest</th> : null}
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
                <td data-label="Experience">{b.experience.title}</td>
                {guest ? <td data-label="Guest">{b.guestName}</td> : null}
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
