/**
 * @jsxRuntime classic
 * @jsx h
 * @jsxFrag Fragment
 */
import { h } from 'preact';
import { MAX_TICKETS } from '../state/state.js';
import { Stepper } from './Stepper.js';
import type { Props } from './widget.js';

/**
 * The party of an experience with price categories (docs/price-categories.md): a quantity per category with its
 * name, price and ages, then the running total. The total and the note about places sit in a
 * polite live region, so a screen reader hears them change as the quantities do.
 */
export function Tickets({ w: { model, t, fmt } }: Props) {
  const experience = model.experience.value;
  if (!experience) return null;
  const tickets = model.tickets.value;
  const places = model.places.value;
  const max = model.maxParticipants.value;
  const full = places >= max;
  const note = places
    ? full && (max < experience.maxPerBooking ? t.placesLeft(max) : t.perBooking(max))
    : t.noPlace(tickets.filter((c) => c.occupiesPlace).map((c) => c.name).join(', '));
  const money = (cents: number) => fmt.money(cents / 100, experience.currency);
  return (
    <fieldset class="tickets">
      <legend>{t.tickets}</legend>
      {tickets.map((c, i) => {
        const id = `ticket-${i}`;
        const ages = t.ages(c.minAge, c.maxAge);
        // Only a category that takes a place is held back by the places, and can fix having none.
        const noted = c.occupiesPlace && note ? 'tickets-note' : undefined;
        return (
          <div key={c.id} class="field">
            <label for={id}>{`${c.name}, ${money(c.price)}`}</label>
            {ages && (
              <p id={`${id}-ages`} class="hint">
                {ages}
              </p>
            )}
            <Stepper
              id={id}
              value={c.quantity}
              min={0}
              max={c.occupiesPlace ? max - places + c.quantity : MAX_TICKETS}
              fewer={t.ticketFewer(c.name)}
              more={t.ticketMore(c.name)}
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
        <p class="total" aria-atomic="true">
          {t.total}: <strong>{money(tickets.reduce((sum, c) => sum + c.quantity * c.price, 0))}</strong>
        </p>
      </div>
    </fieldset>
  );
}
