import type { ComponentChildren, JSX } from 'preact';
import { longDate, plural, timeIn } from '../format.js';
import { BASE, pathTo } from '../router.js';
import type { AddDialog, DeparturesModel, SlotDialog } from '../state/departures.js';
import { timesOn } from '../state/departures.js';
import { NO_NAME } from '../state/octo.js';
import { Field, FormAlert, TextArea, valuesOf } from './Field.js';
import type { WaitlistModel } from '../state/waitlist.js';
import { RemoveQuestion, SlotWaitlist } from './slot-waitlist.js';

/** A modal <dialog> (focus kept inside, Escape closes) whose body holds its own forms. */
function Modal({ title, onClose, busy, children }: { title: string; onClose: () => void; busy: boolean; children: ComponentChildren }): JSX.Element {
  return (
    <dialog
      class="confirm departure"
      aria-labelledby="departure-title"
      ref={(el) => {
        if (el && !el.open) el.showModal();
      }}
      onCancel={(e) => {
        e.preventDefault();
        if (!busy) onClose();
      }}
    >
      <h2 id="departure-title">{title}</h2>
      {children}
    </dialog>
  );
}

/** One departure's manifest: its places, closed or open, its note, its guests, and the owner's changes to them. */
export function SlotDialogView({ d, dep, owner, w }: { d: SlotDialog; dep: DeparturesModel; owner: boolean; w: WaitlistModel }): JSX.Element {
  const s = d.slot;
  const busy = d.form.busy;
  const time = timeIn(d.startTime, d.zone);
  return (
    <Modal title={`${d.experience.name}, ${longDate(d.date)}, ${time}`} onClose={dep.close} busy={busy}>
      <p class="status-line" role="status">
        {d.done ?? w.done.value ?? (s || d.loadError ? '' : 'Loading the departure…')}
      </p>
      {d.loadError ? (
        <p class="alert" role="alert">
          This departure could not be loaded: {d.loadError}
        </p>
      ) : null}
      {s ? (
        <>
          <p class="departure-state">
            {s.closed ? <strong class="badge closed">Closed</strong> : null} {s.booked} of {plural(s.capacity, 'place', 'places')} booked
            {s.capacityOverride !== null ? ` (this departure’s own capacity; the experience has ${d.experience.maxParticipants})` : ''}.
          </p>
          {s.note ? <p class="departure-note">Note: {s.note}</p> : null}
          {owner ? (
            <>
              <div class="buttons">
                <button type="button" class={s.closed ? 'primary' : 'danger'} aria-disabled={busy ? 'true' : undefined} onClick={() => void dep.setClosed(!s.closed)}>
                  {s.closed ? 'Reopen departure' : 'Close departure'}
                </button>
                <button type="button" aria-expanded={d.editingCapacity ? 'true' : 'false'} onClick={() => dep.editCapacity(!d.editingCapacity)}>
                  Change capacity
                </button>
              </div>
              {d.editingCapacity ? (
                <form noValidate onSubmit={(e) => void dep.saveCapacity(valuesOf(e)('capacity'))}>
                  <Field
                    name="capacity"
                    type="number"
                    label="Capacity"
                    min={0}
                    max={10000}
                    step={1}
                    inputMode="numeric"
                    required={false}
                    value={s.capacityOverride ?? undefined}
                    hint={`Places this departure takes. Empty: the experience’s ${d.experience.maxParticipants}. Not below the ${s.booked} booked.`}
                    error={d.form.fields['capacity']}
                  />
                  <button type="submit" class="primary" aria-disabled={busy ? 'true' : undefined}>
                    Save capacity
                  </button>
                </form>
              ) : null}
              <form noValidate onSubmit={(e) => void dep.saveNote(valuesOf(e)('note'))}>
                <TextArea name="note" label="Note" rows={2} value={s.note ?? ''} hint="For the team, up to 500 characters; shown on Today." error={d.form.fields['note']} />
                <button type="submit" aria-disabled={busy ? 'true' : undefined}>
                  Save note
                </button>
              </form>
              <FormAlert error={d.form.error} />
            </>
          ) : null}
        </>
      ) : null}
      {d.guests ? (
        <section aria-labelledby="departure-guests">
          <h3 id="departure-guests">Guests</h3>
          {d.guests.length ? (
            <ul class="departure-guests">
              {d.guests.map((b) => (
                <li key={b.id}>
                  <a href={pathTo('bookings', b.id)}>{b.guestName ?? `${NO_NAME} (${b.bookingNumber})`}</a>, {plural(b.totalParticipants, 'guest', 'guests')}
                  {b.status === 'PENDING' ? ' (pending)' : ''}
                </li>
              ))}
            </ul>
          ) : (
            <p class="quiet">No bookings yet.</p>
          )}
        </section>
      ) : null}
      {d.guests && d.experience.waitlist ? (
        <section aria-labelledby="departure-waitlist" id={`waitlist-${d.slotId}`} tabIndex={-1}>
          <h3 id="departure-waitlist">Waitlist</h3>
          <SlotWaitlist w={w} slotId={d.slotId} zone={d.orgZone ?? d.zone} />
        </section>
      ) : null}
      <RemoveQuestion w={w} />
      <div class="buttons">
        <a class="button" href={`${BASE}?date=${d.date}`}>
          Open the day on Today
        </a>
        <button type="button" onClick={() => !busy && dep.close()}>
          Back to the week
        </button>
      </div>
    </Modal>
  );
}

/** "Add departure": one more start on a date, kept as an exception of the schedule for that date. */
export function AddDialogView({ d, dep }: { d: AddDialog; dep: DeparturesModel }): JSX.Element {
  const times = timesOn(d.experience.schedule, d.date);
  return (
    <Modal title={`Add a departure of ${d.experience.name} on ${longDate(d.date)}`} onClose={dep.close} busy={d.form.busy}>
      <form noValidate aria-busy={d.form.busy ? 'true' : undefined} onSubmit={(e) => void dep.addDeparture(valuesOf(e)('time'))}>
        <p>
          {times.length ? `That day’s times now: ${times.join(', ')}.` : 'That day has no times now.'} The new one is added to that date only
          ({d.zone} time); the weekly times stay as they are.
        </p>
        <Field name="time" type="time" label="Time" error={d.form.fields['time'] ?? d.form.fields['schedule']} />
        <FormAlert error={d.form.error} />
        <div class="buttons">
          <button type="submit" class="primary" aria-disabled={d.form.busy ? 'true' : undefined}>
            Add departure
          </button>
          <button type="button" onClick={() => !d.form.busy && dep.close()}>
            Go back
          </button>
        </div>
      </form>
    </Modal>
  );
}
