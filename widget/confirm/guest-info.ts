/**
 * The guest information of a booking's experience (meeting point, its map link, instructions) and
 * "Add to calendar", for the widget's confirmation (its lazily loaded chunk, chunk.ts) and the
 * manage page. Written with the `h` the caller passes rather than JSX: the chunk is loaded by
 * widget.js and must render with widget.js's Preact, not carry a copy of its own.
 */
import type { ComponentChildren, h as H } from 'preact';
import { googleCalendarUrl, icsFile, type CalendarBooking } from './calendar.js';
import type { GuestInfoTexts } from './texts.js';

export interface GuestInfo {
  meetingPoint: string | null;
  meetingPointUrl: string | null;
  guestInstructions: string | null;
}

export interface GuestInfoProps {
  texts: GuestInfoTexts;
  info: GuestInfo;
  booking: CalendarBooking;
  /** The page's heading level below its own: the widget's steps are h2, the manage page's sections h2. */
  heading: 'h2' | 'h3';
  /**
   * Where the .ics file is downloaded from (the manage page's calendar.ics); without it the file is
   * built here and handed over as a Blob, its UID `uid`.
   */
  icsHref?: string;
  uid?: string;
}

// Only a web address may become the map link: a javascript: URL from a tampered answer must not.
const safeMap = (url: string | null): string | null => (url && /^https:\/\//i.test(url) ? url : null);


export function guestInfo(h: typeof H, p: GuestInfoProps): ComponentChildren {
  const { texts: t, info, booking, heading } = p;
  const map = safeMap(info.meetingPointUrl);
  const newTab = (label: string, href: string, cls?: string): ComponentChildren =>
    h('a', { href, target: '_blank', rel: 'noopener noreferrer', class: cls }, label, h('span', { class: 'sr-only' }, ` ${t.newTab}`));
  const section = (id: string, title: string, ...body: ComponentChildren[]): ComponentChildren =>
    h('section', { class: 'guest-info', 'aria-labelledby': id }, h(heading, { id }, title), ...body);
  // The operator's line breaks show as line breaks (a <br> each: no inline style under a strict CSP).
  const lines = (text: string): ComponentChildren => h('p', null, ...text.split('\n').flatMap((line, i) => (i ? [h('br', null), line] : [line])));
  const download = (e: MouseEvent): void => {
    if (p.icsHref) return;
    const a = e.currentTarget as HTMLAnchorElement;
    if (a.href.startsWith('blob:')) URL.revokeObjectURL(a.href);
    a.href = URL.createObjectURL(new Blob([icsFile(booking, p.uid ?? booking.bookingNumber)], { type: 'text/calendar;charset=utf-8' }));
  };
  return h(
    'div',
    { class: 'guest-extras' },
    (info.meetingPoint || map) &&
      section(
        'outing-meeting-point',
        t.meetingPoint,
        info.meetingPoint && lines(info.meetingPoint),
        map && h('p', null, newTab(t.map, map)),
      ),
    info.guestInstructions && section('outing-instructions', t.instructions, lines(info.guestInstructions)),
    section(
      'outing-add-to-calendar',
      t.addToCalendar,
      h(
        'p',
        { class: 'actions' },
        newTab(t.google, googleCalendarUrl(booking), 'button'),
        h('a', { class: 'button', href: p.icsHref ?? '#', download: `${booking.bookingNumber}.ics`, onClick: download }, t.ics),
      ),
    ),
  );
}
