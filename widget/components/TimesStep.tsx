/**
 * @jsxRuntime classic
 * @jsx h
 * @jsxFrag Fragment
 */
import { Fragment, h } from 'preact';
import { fill } from '../i18n/format.js';
import { isOpen } from '../state/availability.js';
import type { Props } from './widget.js';

/**
 * The chosen day's start times in the experience's zone, named, with the places left; a full one
 * of an experience with a waitlist stays choosable, to join it.
 */
export function TimesStep({ w: { model, t, fmt } }: Props) {
  const calendar = model.calendar.value;
  const date = model.date.value;
  const slots = model.slotsOfDate.value;
  if (!calendar || !date) return null;
  const zone = calendar.timezone;
  const open = (s: (typeof slots)[number]) => isOpen(s, model.experience.value?.waitlist);
  return (
    <>
      <p class="lead">{fmt.longDate(date)}</p>
      {slots[0] && <p class="hint">{fill(t.timesIn, fmt.zone(slots[0].startTime, zone))}</p>}
      {slots.some(open) ? (
        <ul class="times">
          {slots.map((s) => (
            <li key={s.id}>
              <button type="button" class="time" disabled={!open(s)} onClick={() => model.chooseSlot(s)}>
                <span class="clock">{fmt.time(s.startTime, zone)}</span>{' '}
                <span class="left">{s.available ? fmt.count(t.placesLeft, s.remaining) : open(s) ? t.joinWaitlist : t.full}</span>
              </button>
            </li>
          ))}
        </ul>
      ) : (
        !model.busy.value && <p>{t.noTimes}</p>
      )}
    </>
  );
}
