/**
 * A departure's waitlist: who waits (in turn), who holds an offer and until when (in the
 * organization's zone), who booked or dropped out, and "Remove" for the live entries.
 */
import type { JSX } from 'preact';
import type { WaitlistEntry } from '../../shared/index.js';
import { dateTimeIn, plural } from '../format.js';
import { pathTo } from '../router.js';
import { guestsText } from '../state/places.js';
import { isLive, type WaitlistModel } from '../state/waitlist.js';
import { Confirm } from './Confirm.js';

/** `2 waiting, 1 offered`, or null when nobody is on it. */
export function waitlistCounts(w: { waiting: number; offered: number }): string | null {
  if (!w.waiting && !w.offered) return null;
  return [w.waiting ? `${w.waiting} waiting` : '', w.offered ? `${w.offered} offered` : ''].filter(Boolean).join(', ');
}

function State({ e, zone }: { e: WaitlistEntry; zone: string }): JSX.Element {
  switch (e.status) {
    case 'WAITING':
      return <span class="status waiting">Waiting</span>;
    case 'OFFERED':
      return (
        <>
          <span class="status offered">Offered</span>
          {e.offerExpiresAt ? <span class="until"> until {dateTimeIn(e.offerExpiresAt, zone)}</span> : null}
        </>
      );
    case 'BOOKED':
      return (
        <>
          <span class="status booked">Booked</span>
          {e.bookingId ? (
            <>
              {' '}
              <a href={pathTo('bookings', e.bookingId)}>
                open the booking<span class="visually-hidden"> of {e.guestName}</span>
              </a>
            </>
          ) : null}
        </>
      );
    case 'EXPIRED':
      return <span class="status expired">Offer lapsed</span>;
    case 'CANCELLED':
      return <span class="status cancelled">Removed</span>;
  }
}

/** The list itself, with its loading line and any failure; `zone` is the organization's, for offers' expiry. */
export function SlotWaitlist({ w, slotId, zone }: { w: WaitlistModel; slotId: string; zone: string }): JSX.Element {
  const state = w.lists.value.get(slotId);
  const entries = state?.entries;
  return (
    <div class="slot-waitlist" id={`waitlist-list-${slotId}`}>
      {state?.loading && !entries ? <p class="quiet">Loading the waitlist…</p> : null}
      {state?.error ? (
        <p class="alert" role="alert">
          The waitlist could not be loaded: {state.error}
        </p>
      ) : null}
      {entries && !entries.length ? <p class="quiet">Nobody is on this departure’s waitlist.</p> : null}
      {entries?.length ? (
        <ol class="waitlist">
          {entries.map((e) => (
            <li key={e.id} class={isLive(e) ? 'entry' : 'entry done'}>
              <span class="position" aria-hidden={e.position === null ? 'true' : undefined}>
                {e.position === null ? '–' : `#${e.position}`}
              </span>
              <span class="wl-who">
                <strong id={`entry-${e.id}`}>
                  {e.position === null ? '' : <span class="visually-hidden">Number {e.position}: </span>}
                  {e.guestName}
                </strong>
                , {guestsText(e.totalParticipants, e.places)}
                {e.tickets.length ? `: ${e.tickets.map((t) => `${t.quantity} × ${t.name}`).join(', ')}` : ''}{' '}
                <a class="email" href={`mailto:${e.guestEmail}`}>
                  {e.guestEmail}
                </a>
              </span>{' '}
              <span class="state">
                <State e={e} zone={zone} />
              </span>{' '}
              {isLive(e) ? (
                <button type="button" class="remove" id={`remove-${e.id}`} aria-describedby={`entry-${e.id}`} onClick={() => w.askRemove(e)}>
                  Remove
                </button>
              ) : null}
            </li>
          ))}
        </ol>
      ) : null}
    </div>
  );
}

/** "Remove … from the waitlist?": an offer's places go back to the departure (and on to the next in line). */
export function RemoveQuestion({ w }: { w: WaitlistModel }): JSX.Element | null {
  const r = w.removal.value;
  if (!r) return null;
  const e = r.entry;
  return (
    <Confirm
      title={`Remove ${e.guestName} from the waitlist?`}
      confirmLabel="Remove from waitlist"
      keepLabel="Keep on the waitlist"
      danger
      busy={r.busy}
      error={r.error}
      onConfirm={() => void w.confirmRemove()}
      onClose={() => w.keep()}
    >
      <p>
        {e.status === 'OFFERED'
          ? `Their offer of ${plural(e.places, 'place', 'places')} ends now: the places go to the next guest in line who fits, or back on sale.`
          : `They lose their place in the queue (${plural(e.places, 'place', 'places')} asked for).`}{' '}
        Outing does not e-mail them about it.
      </p>
    </Confirm>
  );
}
