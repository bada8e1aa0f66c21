/**
 * @jsxRuntime classic
 * @jsx h
 * @jsxFrag Fragment
 */
import { h } from 'preact';
import { dateInZone } from '../state/dates.js';
import type { Props } from './widget.js';

interface SummaryProps extends Props {
  experience: string;
  startTime: string;
  participants?: number;
  /** Listed as `2 × Adult, 1 × Child`; none: no line. */
  tickets?: readonly { quantity: number; name: string }[];
  total?: string;
}

/**
 * What is being booked, as a description list, a short card: the experience, date and time by
 * themselves (their terms only for screen readers), the party and the total named. On the details
 * step, the confirmation and the waitlist's.
 */
export function Summary({ w: { model, t, fmt }, experience, startTime, participants, tickets, total }: SummaryProps) {
  const zone = model.calendar.value?.timezone ?? 'UTC';
  const rows: [string, string | number | undefined][] = [
    [t.experience, experience],
    [t.date, fmt.longDate(dateInZone(startTime, zone))],
    [t.time, `${fmt.time(startTime, zone)} · ${fmt.zone(startTime, zone)}`],
    [t.participants, participants],
    [t.tickets, tickets?.length ? tickets.map((c) => `${c.quantity} × ${c.name}`).join(', ') : undefined],
    [t.total, total],
  ];
  return (
    <dl class="summary brief">
      {rows.map(
        ([term, value]) =>
          value !== undefined && (
            <div key={term}>
              <dt>{term}</dt>
              <dd>{value}</dd>
            </div>
          ),
      )}
    </dl>
  );
}
