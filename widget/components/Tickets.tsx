/**
 * @jsxRuntime classic
 * @jsx h
 * @jsxFrag Fragment
 */
import { Fragment, h } from 'preact';
import { fill } from '../i18n/format.js';
import { Stepper } from './Stepper.js';
import type { Widget, Props } from './widget.js';

/**
 * Why the party can grow no more, once its places reach the most one booking may have: the places
 * left at this time, or the limit per booking. False while there is room.
 */
export function limitNote({ model, t, fmt }: Widget, places: number): string | false {
  const max = model.maxParticipants.value;
  const limit = model.experience.value?.maxPerBooking ?? max;
  return places >= max && (max < limit ? fmt.count(t.placesLeft, max) : fill(t.perBooking, max));
}

/**
 * The party, on the details step or the booking form's (whose chunk is lent this component): the
 * participants; or, for an experience with price categories (docs/price-categories.md), a quantity
 * per category with its name, price and ages, a row each, the stepper on the right (the price
 * lighter than the name; the label names the input "Adult, €25.00"). The note about places sits in
 * a polite live region, so a screen reader hears it come and go as the numbers change; the lines
 * and the total follow below.
 */
export function Tickets({ w }: Props) {
  const { model, t, fmt } = w;
  const experience = model.experience.value;
  if (!experience) return null;
  const tickets = model.tickets.value;
  if (!tickets.length) {
    const note = limitNote(w, model.participants.value);
    return (
      <>
        <div class="ticket">
          <label for="participants">{t.participants}</label>
          <Stepper
            id="participants"
            value={model.participants.value}
            min={1}
            max={model.maxParticipants.value}
            fewer={t.fewer}
            more={t.more}
            set={model.setParticipants}
            describedBy={note ? 'party-note' : undefined}
            note={note ? 'party-note' : undefined}
          />
        </div>
        <div aria-live="polite">
          {note && (
            <p id="party-note" class="hint">
              {note}
            </p>
          )}
        </div>
      </>
    );
  }
  const places = model.places.value;
  const note = places ? limitNote(w, places) : fill(t.noPlace, tickets.filter((c) => c.occupiesPlace).map((c) => c.name).join(', '));
  return (
    <fieldset class="tickets">
      <legend>{t.tickets}</legend>
      {tickets.map((c, i) => {
        const id = `ticket-${i}`;
        const { minAge: min, maxAge: top } = c;
        // Either bound may be unset (a lower bound of 0 is none): "18+", "Ages 4–17", "Under 3".
        const ages = top === null ? (min ? fill(t.agesFrom, min) : '') : min ? fill(t.agesRange, min, top) : fmt.count(t.agesUnder, top + 1);
        // Only a category that takes a place is held back by the places, and can fix having none.
        const noted = c.occupiesPlace && note ? 'tickets-note' : undefined;
        return (
          <div key={c.id} class="ticket">
            <div>
              <label for={id}>
                {c.name}, <span>{fmt.money(c.price / 100, experience.currency)}</span>
              </label>
              {ages && (
                <p id={`${id}-ages`} class="hint">
                  {ages}
                </p>
              )}
            </div>
            <Stepper
              id={id}
              value={c.quantity}
              min={0}
              max={model.mostOf(c)}
              fewer={fill(t.ticketFewer, c.name)}
              more={fill(t.ticketMore, c.name)}
              set={(n) => model.setTicket(c, n)}
              describedBy={[ages && `${id}-ages`, noted].filter(Boolean).join(' ') || undefined}
              note={noted}
            />
          </div>
        );
      })}
      <div aria-live="polite">
        {note && (
          <p id="tickets-note" class={places ? 'hint' : 'field-error'}>
            {note}
          </p>
        )}
      </div>
    </fieldset>
  );
}
