import type { JSX } from 'preact';
import type { ManifestBooking, ManifestSlot } from '../../shared/index.js';
import { dateIn, longDate, money, plural, timeIn } from '../format.js';
import type { Model } from '../state/model.js';
import { RetryAlert } from '../components/RetryAlert.js';
import { Confirm } from '../components/Confirm.js';
import { guestsText } from '../state/places.js';
import { NO_NAME } from '../state/octo.js';
import { pathTo } from '../router.js';
import { RemoveQuestion, SlotWaitlist, waitlistCounts } from '../components/slot-waitlist.js';

const STATUS: Record<ManifestBooking['status'], string> = {
  CONFIRMED: 'Confirmed',
  PENDING: 'Awaiting payment',
  CANCELLED: 'Cancelled',
};


function Guest({ m, b, zone }: { m: Model; b: ManifestBooking; zone: string }): JSX.Element {
  const checked = b.checkedInAt !== null;
  const saving = m.saving.value.has(b.id);
  const paid = Number(b.paid);
  const owed = paid < Number(b.total);
  return (
    <li class={checked ? 'guest checked' : 'guest'}>
      <div class="who">
        {/* The booking's page: everything else about it, and what can change. */}
        <a href={pathTo('bookings', b.id)} class="guest-link">
          <strong id={`guest-${b.id}`}>{b.guestName ?? NO_NAME}</strong>
        </a>
        <span class="party">
          {guestsText(b.totalParticipants, m.placesOf(b))}
          {b.tickets.length ? `: ${b.tickets.map((t) => `${t.quantity} × ${t.name}`).join(', ')}` : ''}
        </span>
        {checked ? <span class="when">Arrived {timeIn(b.checkedInAt!, zone)}</span> : null}
      </div>
      <dl class="facts">
        <div>
          <dt>Booking</dt>
          <dd class="number">{b.bookingNumber}</dd>
        </div>
        {b.guestPhone ? (
          <div>
            <dt>Phone</dt>
            <dd>
              <a href={`tel:${b.guestPhone.replace(/[^\d+]/g, '')}`}>{b.guestPhone}</a>
            </dd>
          </div>
        ) : null}
        {b.guestEmail ? (
          <div>
            <dt>Email</dt>
            <dd class="email">
              <a href={`mailto:${b.guestEmail}`}>{b.guestEmail}</a>
            </dd>
          </div>
        ) : null}
        <div>
          <dt>Status</dt>
          <dd>
            <span class={`status ${b.status.toLowerCase()}`}>{STATUS[b.status]}</span>
          </dd>
        </div>
        <div>
          <dt>Total</dt>
          <dd>
            {money(b.total, b.currency)}
            {owed ? <span class="owed">{paid > 0 ? ` (${money(b.paid, b.currency)} paid)` : ' · not paid'}</span> : null}
          </dd>
        </div>
        {b.internalNote ? (
          <div class="note">
            <dt>Internal note</dt>
            <dd>{b.internalNote}</dd>
          </div>
        ) : null}
      </dl>
      <div class="act">
        {b.status === 'CONFIRMED' ? (
          <button
            type="button"
            id={`checkin-${b.id}`}
            class="checkin"
            aria-pressed={checked ? 'true' : 'false'}
            aria-describedby={`guest-${b.id}`}
            aria-disabled={saving ? 'true' : undefined}
            onClick={() => void m.toggleCheckIn(b.id, !checked)}
          >
            Check in
          </button>
        ) : (
          <span class="hint">Check-in opens once confirmed</span>
        )}
      </div>
    </li>
  );
}

function Slot({ m, s, index, orgZone }: { m: Model; s: ManifestSlot; index: number; orgZone: string }): JSX.Element {
  const zone = m.zoneOf(s.experience.id);
  const counts = waitlistCounts(s.waitlist);
  const open = m.waitlist.shown.value.has(s.timeSlot.id);
  const ref = { experienceId: s.experience.id, slotId: s.timeSlot.id, startTime: s.timeSlot.startTime };
  const full = s.remaining === 0;
  // The manifest lists the CONFIRMED and PENDING bookings: all of their guests, and those arrived.
  const guests = s.bookings.reduce((n, b) => n + b.totalParticipants, 0);
  const arrived = s.bookings.reduce((n, b) => n + (b.checkedInAt === null ? 0 : b.totalParticipants), 0);
  return (
    <section class="slot" aria-labelledby={`slot-${index}`}>
      <header>
        <h2 id={`slot-${index}`}>
          <time dateTime={s.timeSlot.startTime}>{timeIn(s.timeSlot.startTime, zone)}</time>
          <span class="title">{s.experience.title}</span>
        </h2>
        <p class="meta">
          <span>{zone} time</span>
          <span class={full ? 'load full' : 'load'}>
            {s.booked}/{s.capacity} places booked
          </span>
          {guests !== s.booked ? <span>{plural(guests, 'guest', 'guests')}</span> : null}
          {guests ? (
            <span class={arrived === guests ? 'arrived all' : 'arrived'}>
              {arrived} of {plural(guests, 'guest', 'guests')} checked in
            </span>
          ) : null}
          {s.closed ? <strong class="closed">Closed</strong> : null}
          {counts ? <span class="waitlist-count">Waitlist: {counts}</span> : null}
        </p>
        {s.note ? <p class="slot-note">{s.note}</p> : null}
        {counts || open ? (
          <button
            type="button"
            id={`waitlist-${s.timeSlot.id}`}
            class="waitlist-toggle"
            aria-expanded={open ? 'true' : 'false'}
            aria-controls={open ? `waitlist-list-${s.timeSlot.id}` : undefined}
            onClick={() => m.waitlist.toggle(ref)}
          >
            {open ? 'Hide waitlist' : 'Show waitlist'}
            <span class="visually-hidden"> of {s.experience.title} at {timeIn(s.timeSlot.startTime, zone)}</span>
          </button>
        ) : null}
      </header>
      {s.bookings.length ? (
        <ul class="guests">
          {s.bookings.map((b) => (
            <Guest key={b.id} m={m} b={b} zone={zone} />
          ))}
        </ul>
      ) : (
        <p class="quiet">{s.closed ? 'No guests: closed to new bookings.' : `No guests yet: ${plural(s.remaining, 'place', 'places')} free.`}</p>
      )}
      {open ? (
        <div class="slot-waitlist-area">
          <h3>Waitlist</h3>
          <SlotWaitlist w={m.waitlist} slotId={s.timeSlot.id} zone={orgZone} />
        </div>
      ) : null}
    </section>
  );
}

/** Checking in a guest whose slot is on another day asks first. */
function CheckInQuestion({ m }: { m: Model }): JSX.Element | null {
  const q = m.checkInQuestion.value;
  if (!q) return null;
  return (
    <Confirm title={`Check in ${q.guestName}?`} confirmLabel="Check in anyway" keepLabel="Not now" onConfirm={() => m.confirmCheckIn()} onClose={() => m.keepNotCheckedIn()}>
      <p>This booking is for {longDate(q.date)}. Check in anyway?</p>
    </Confirm>
  );
}

export function Today({ m }: { m: Model }): JSX.Element {
  const { manifest, loading, error, asked } = m.day.value;
  const date = asked ?? manifest?.date ?? '';
  const bookings = manifest?.slots.reduce((n, s) => n + s.bookings.length, 0) ?? 0;
  const alert = m.dayAlert.value;
  // Today as the organization reckons it (its zone), not as this computer does.
  const today = !date || (!!manifest && date === dateIn(manifest.timezone));
  return (
    <main id="main" class="today">
      <div class="heading-row">
        <h1 id="heading" tabIndex={-1}>
          {today ? 'Today' : longDate(date)}
        </h1>
        {today && date ? <p class="date">{longDate(date)}</p> : null}
      </div>
      <div class="toolbar">
        <div class="field inline">
          <label for="date">Date</label>
          <input
            id="date"
            type="date"
            value={date}
            onChange={(e) => m.showDate((e.currentTarget as HTMLInputElement).value)}
          />
        </div>
        <div class="buttons">
          {/* Its form loads with the other screens, not with Today. */}
          <a class="button primary" href={`${pathTo('bookings', 'new')}${date ? `?date=${date}` : ''}`}>
            New booking
          </a>
          <button type="button" onClick={() => m.showNextDate(-1)} disabled={!date}>
            Previous day
          </button>
          <button type="button" onClick={() => m.showNextDate(1)} disabled={!date}>
            Next day
          </button>
          <button
            type="button"
            class="download"
            onClick={() => void m.downloadCsv()}
            disabled={!manifest}
            aria-disabled={m.downloading.value ? 'true' : undefined}
          >
            Download CSV
          </button>
        </div>
      </div>
      <p class="status-line" role="status">
        {m.waitlist.done.value ? `${m.waitlist.done.value} ` : ''}
        {loading ? 'Loading the day…' : manifest ? `${plural(bookings, 'booking', 'bookings')}, ${guestsText(m.guests.value, m.places.value)}` : ''}
      </p>
      {alert ? (
        <p class="alert" role="alert">
          {alert}
        </p>
      ) : null}
      <RetryAlert error={error} onRetry={() => m.retryDay()} />
      {manifest && !bookings ? (
        <div class="empty">
          <h2>No bookings on this day</h2>
          <p>
            Guests book through the widget on your site; you add a booking with “New booking” above, or with the API (
            <code>POST /v1/bookings</code>). Pick another date above to see its guests.
          </p>
        </div>
      ) : null}
      {manifest && !manifest.slots.length ? (
        <p class="quiet">No tours are scheduled on this date either: experiences get their times from their schedules.</p>
      ) : null}
      {manifest?.slots.map((s, i) => (
        <Slot key={s.timeSlot.id} m={m} s={s} index={i} orgZone={manifest.timezone} />
      ))}
      <CheckInQuestion m={m} />
      <RemoveQuestion w={m.waitlist} />
    </main>
  );
}
