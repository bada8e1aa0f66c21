import type { JSX } from 'preact';
import type { TimeSlotAvailability } from '../../shared/index.js';
import { dateIn, longDate, plural, timeIn } from '../format.js';
import { pathTo } from '../router.js';
import { localToday, type CalendarRow } from '../state/calendar.js';
import { addDays } from '../state/dates.js';
import type { Model } from '../state/model.js';
import '../styles/calendar.css';
import { RetryAlert } from '../components/RetryAlert.js';
import { AddDialogView, SlotDialogView } from '../components/departure-dialogs.js';

let dayFormat: Intl.DateTimeFormat | undefined;
/** `Mon, Dec 1`: a calendar date, in no zone. */
function dayLabel(date: string): string {
  const [y, mo, d] = date.split('-').map(Number) as [number, number, number];
  dayFormat ??= new Intl.DateTimeFormat(undefined, { weekday: 'short', month: 'short', day: 'numeric', timeZone: 'UTC' });
  return dayFormat.format(new Date(Date.UTC(y, mo - 1, d)));
}

const weekHref = (monday: string) => `${pathTo('calendar')}?week=${monday}`;

function Slot({ s, zone, date, day, experienceId, onOpen }: { s: TimeSlotAvailability; zone: string; date: string; day: string; experienceId: string; onOpen: () => void }): JSX.Element {
  const closed = s.unavailableReason === 'CLOSED';
  const full = !closed && s.remaining === 0;
  const preset = new URLSearchParams({ experienceId, date, startTime: s.startTime });
  return (
    <li>
      {/* The departure's manifest: its guests, and for an owner closing it, its capacity and its note. */}
      <button type="button" id={`slot-${s.id}`} class={closed ? 'cal-slot closed' : full ? 'cal-slot full' : 'cal-slot'} onClick={onOpen}>
        <span class="visually-hidden">{day}, </span>
        <time dateTime={s.startTime}>{timeIn(s.startTime, zone)}</time>{' '}
        <span class="load">
          {s.booked}/{s.capacity}
          {closed ? ' Closed' : ''}
        </span>
        <span class="visually-hidden"> places booked{full ? ', full' : ''}</span>
      </button>
      {/* A booking of this slot, its experience, date and time preset. */}
      <a class="cal-new" href={`${pathTo('bookings', 'new')}?${preset.toString()}`}>
        New booking<span class="visually-hidden"> on {day} at {timeIn(s.startTime, zone)}</span>
      </a>
    </li>
  );
}

function ExperienceWeek({ row, monday, index, m }: { row: CalendarRow; monday: string; index: number; m: Model }): JSX.Element {
  const dep = m.calendar.departures;
  const owner = m.mayOpen('experiences');
  const { experience, availability, error } = row;
  const zone = availability?.timezone ?? '';
  const byDate = new Map<string, TimeSlotAvailability[]>();
  for (const s of availability?.slots ?? []) {
    const date = dateIn(zone, new Date(s.startTime));
    byDate.set(date, [...(byDate.get(date) ?? []), s]);
  }
  const days = Array.from({ length: 7 }, (_, i) => addDays(monday, i));
  // Departures are added from today on, in the experience's zone.
  const today = zone ? dateIn(zone) : localToday();
  const titleId = `cal-exp-${index}`;
  const openSlot = (date: string, s: TimeSlotAvailability) => {
    dep.openSlot(experience, zone, date, s);
    // Its waitlist, read beside its manifest.
    if (experience.waitlist) m.waitlist.open({ experienceId: experience.id, slotId: s.id, startTime: s.startTime });
  };
  return (
    <section class="cal-experience" aria-labelledby={titleId}>
      <header>
        <h2 id={titleId}>{experience.name}</h2>
        <p class="meta">
          {zone ? <span>{zone} time</span> : null}
          {availability ? <span>{plural(availability.slots.length, 'slot', 'slots')}</span> : null}
        </p>
      </header>
      {error ? (
        <p class="alert" role="alert">
          This experience’s week could not be loaded: {error}
        </p>
      ) : null}
      {availability && !availability.slots.length ? (
        <p class="quiet">No slots this week: its schedule has none, they have started, or they are beyond its booking window.</p>
      ) : null}
      {availability && (availability.slots.length || owner) ? (
        <ol class="cal-week">
          {days.map((date) => {
            const slots = byDate.get(date) ?? [];
            const label = dayLabel(date);
            return (
              <li key={date} class={slots.length ? 'cal-day' : 'cal-day none'}>
                <h3>{label}</h3>
                {slots.length ? (
                  <ul>
                    {slots.map((s) => (
                      <Slot key={s.id} s={s} zone={zone} date={date} day={label} experienceId={experience.id} onOpen={() => openSlot(date, s)} />
                    ))}
                  </ul>
                ) : (
                  <p class="quiet">No slots</p>
                )}
                {owner && date >= today ? (
                  <button type="button" class="link cal-add" id={`add-${experience.id}-${date}`} onClick={() => dep.openAdd(experience, zone, date)}>
                    Add departure<span class="visually-hidden">, {label}</span>
                  </button>
                ) : null}
              </li>
            );
          })}
        </ol>
      ) : null}
    </section>
  );
}

export function Calendar({ m }: { m: Model }): JSX.Element {
  const { monday, rows, more, loading, error } = m.calendar.week.value;
  const owner = m.mayOpen('experiences');
  const dialog = m.calendar.departures.dialog.value;
  return (
    <main id="main" class="calendar">
      <div class="heading-row">
        <h1 id="heading" tabIndex={-1}>
          Calendar
        </h1>
        {monday ? (
          <p class="date">
            {longDate(monday)} to {longDate(addDays(monday, 6))}
          </p>
        ) : null}
      </div>
      {monday ? (
        <nav class="toolbar week-nav" aria-label="Weeks">
          <a class="button" href={weekHref(addDays(monday, -7))}>
            Previous week
          </a>
          <a class="button" href={pathTo('calendar')}>
            This week
          </a>
          <a class="button" href={weekHref(addDays(monday, 7))}>
            Next week
          </a>
        </nav>
      ) : null}
      <p class="status-line" role="status">
        {loading ? 'Loading the week…' : rows ? `${plural(rows.reduce((n, r) => n + (r.availability?.slots.length ?? 0), 0), 'slot', 'slots')} this week` : ''}
      </p>
      <p class="hint">Each slot shows booked places out of its capacity; open one for its guests{owner ? ', to close it, change its capacity or note it' : ''}. Slots that have started are not listed.</p>
      <RetryAlert error={error} onRetry={() => m.calendar.retry()} />
      {rows && !rows.length ? (
        <div class="empty">
          <h2>No active experiences</h2>
          <p>
            {owner ? (
              <>
                Create one, with its weekly times, in <a href={pathTo('experiences')}>Experiences</a>: its slots appear here.
              </>
            ) : (
              'An owner of the organization creates experiences and their schedules; their slots appear here.'
            )}
          </p>
        </div>
      ) : null}
      {rows?.map((row, i) => (monday ? <ExperienceWeek key={row.experience.id} row={row} monday={monday} index={i} m={m} /> : null))}
      {dialog?.kind === 'slot' ? <SlotDialogView d={dialog} dep={m.calendar.departures} owner={owner} w={m.waitlist} /> : null}
      {dialog?.kind === 'add' ? <AddDialogView d={dialog} dep={m.calendar.departures} /> : null}
      {more ? <p class="quiet">Only the first 100 active experiences are shown.</p> : null}
    </main>
  );
}
