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

/** What is being booked, as a description list; on the form and on the confirmation. */
export function Summary({ w: { model, t, fmt }, experience, startTime, participants, tickets, total }: SummaryProps) {
  const zone = model.calendar.value?.timezone ?? 'UTC';
  const rows: [string, unknown][] = [
    [t.experience, experience],
    [t.date, fmt.longDate(dateInZone(startTime, zone))],
    [t.time, `${fmt.time(startTime, zone)} · ${fmt.zone(startTime, zone)}`],
    [t.participants, participants],
    [t.tickets, tickets?.length ? tickets.map((c) => `${c.quantity} × ${c.name}`).join(', ') : undefined],
    [t.total, total],
  ];
  return (
    <dl class="summary">
      {rows.map(
        ([term, value]) =>
          value !== undefined && (
            <div key={term}>
              <dt>{term}</dt>
              <dd>{String(value)}</dd>
            </div>
          ),
      )}
    </dl>
  );
}
