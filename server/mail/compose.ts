// One e-mail to a booking's guest, composed from data alone: no clock, no
// database, no network. The worker that sends it stores nothing here but what comes out.
//
// Guest names, experience names and the organization's words are strangers' text: in HTML every one
// is escaped; in the subject and headers every line break becomes a space, so no value can end a
// header early or start another (header injection).
import { bookingTotalCents } from '../domain/bookings.js';
import { ticketsLine, ticketsOf } from '../domain/tickets.js';
import { answersOf, answerValueText, bookingExtrasOf, bookingFigures, extrasLine, storedBookingLines } from '../domain/booking-form.js';
import { zoneOffsetMs } from '../domain/time.js';
import { guestBookingIcs } from '../ical/guest-event.js';
import type { BookingView } from '../store/bookings.js';
import type { MailMessage } from './message.js';
import { GUEST_TEXTS, plural, price, type GuestLocale, type GuestMessageKind, type GuestTexts } from './texts.js';

export { GUEST_LOCALES, GUEST_MESSAGE_KINDS, guestLocaleOf, type GuestLocale, type GuestMessageKind } from './texts.js';

export interface GuestMessageInput {
  kind: GuestMessageKind;
  locale: GuestLocale;
  booking: BookingView;
  /** The experience's IANA zone: the guest reads the time where the tour happens. */
  timeZone: string;
  organization: Sender;
  /** `{PUBLIC_URL}/manage#<token>`; left out of a cancellation even when given. */
  manageUrl?: string;
  /** `msg_…`: the message record's id, stable across retries. */
  messageId: string;
  /** Host of PUBLIC_URL: the right-hand side of the Message-ID and of the calendar UID. */
  host: string;
  /** The experience's meeting point, its map link and instructions; shown in all but a cancellation. */
  guestInfo?: { meetingPoint: string | null; meetingPointUrl: string | null; guestInstructions: string | null };
}

/** The organization an e-mail comes from: its name and contact, and the brand its HTML wears. */
export interface Sender {
  name: string;
  email: string;
  phone: string | null;
  /** `#rrggbb`: the accent of headings, links and the top rule; none, the default dark grey. */
  brandColor?: string | null;
  /** An https URL shown as an `<img>` (the mail client fetches it, never the server). */
  logoUrl?: string | null;
}

export interface GuestMessage extends MailMessage {
  kind: GuestMessageKind;
}

const ICS_TYPE = 'text/calendar; charset=utf-8; method=PUBLISH';
const MESSAGE_ID = /^msg_[A-Za-z0-9_-]+$/;
const ADDRESS = /^[^\s<>()[\]",;:\\@]+@[^\s<>()[\]",;:\\@]+$/;
const DOMAIN = /^(?:[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*|\[[0-9A-Fa-f:.]+\])$/;

/** Text for one line: line breaks, tabs and other control characters become one space. */
export function oneLine(value: string): string {
  return value.replace(/[\u0000-\u001F\u007F-\u009F\u2028\u2029]+/g, ' ').replace(/ {2,}/g, ' ').trim();
}

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

const COLOR = /^#[0-9a-f]{6}$/i;
const DEFAULT_ACCENT = '#1a1a1a';

/** The accent colour an organization's HTML e-mails use (its brand colour when it is one). */
export function accentOf(org: Sender): string {
  return org.brandColor && COLOR.test(org.brandColor) ? org.brandColor.toLowerCase() : DEFAULT_ACCENT;
}

/** The logo's `<img>` (alt the organization's name), or nothing when there is no https logo. */
export function logoHtml(org: Sender): string {
  if (!org.logoUrl) return '';
  let url: URL;
  try {
    url = new URL(org.logoUrl);
  } catch {
    return '';
  }
  if (url.protocol !== 'https:') return '';
  return `<p><img src="${escapeHtml(url.href)}" alt="${escapeHtml(oneLine(org.name))}" style="max-height:48px;max-width:200px;border:0"></p>`;
}

/** The first lines of an organization's HTML e-mail body: the accent rule and the logo. */
export function brandedBodyStart(org: Sender): string {
  const accent = accentOf(org);
  return `<body style="font-family:system-ui,sans-serif;line-height:1.5;color:#1a1a1a;border-top:4px solid ${accent};padding-top:12px">\n${logoHtml(org)}`;
}

/** The Reply-To header for an address, when it is one address. */
export function replyToHeader(address: string): { 'Reply-To'?: string } {
  const value = oneLine(address);
  return ADDRESS.test(value) ? { 'Reply-To': value } : {};
}

export function messageIdHeader(messageId: string, host: string): string {
  const domain = host.replace(/:\d+$/, '');
  if (!MESSAGE_ID.test(messageId)) throw new Error(`Not a message id: ${JSON.stringify(messageId)}`);
  if (!DOMAIN.test(domain)) throw new Error(`Not a host for a Message-ID: ${JSON.stringify(host)}`);
  return `<${messageId}@${domain}>`;
}

function manageLink(url: string): string {
  const parsed = new URL(url);
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') throw new Error('The manage link must be an http(s) URL');
  return parsed.href;
}

/** `UTC+1`, `UTC-3`, `UTC+5:30`: the offset in force at an instant. */
export function utcOffset(instant: number, zone: string): string {
  const minutes = Math.round(zoneOffsetMs(instant, zone) / 60_000);
  const abs = Math.abs(minutes);
  const hm = abs % 60 === 0 ? `${abs / 60}` : `${Math.floor(abs / 60)}:${String(abs % 60).padStart(2, '0')}`;
  return `UTC${minutes < 0 ? '-' : '+'}${hm}`;
}

/** `Thursday, 1 July 2027, 10:00–12:00 (Europe/Lisbon, UTC+1)`, in the guest's language. */
export function localWhen(start: number, end: number, zone: string, texts: Pick<GuestTexts, 'intlLocale'>): string {
  const date = new Intl.DateTimeFormat(texts.intlLocale, { timeZone: zone, weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' });
  const time = new Intl.DateTimeFormat(texts.intlLocale, { timeZone: zone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
  const startDate = date.format(start);
  const endDate = date.format(end);
  const until = endDate === startDate ? time.format(end) : `${endDate}, ${time.format(end)}`;
  return `${startDate}, ${time.format(start)}–${until} (${zone}, ${utcOffset(start, zone)})`;
}

/** `1 July, 10:00`: short enough for a subject line. */
export function shortWhen(start: number, zone: string, texts: Pick<GuestTexts, 'intlLocale'>): string {
  const day = new Intl.DateTimeFormat(texts.intlLocale, { timeZone: zone, day: 'numeric', month: 'long' }).format(start);
  const time = new Intl.DateTimeFormat(texts.intlLocale, { timeZone: zone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(start);
  return `${day}, ${time}`;
}

interface Details {
  /** The booking, row by row: these also describe the `booking.ics` event. */
  rows: [label: string, value: string][];
  /** The guest's answers, `[label, value]`: in the e-mail only, never in a calendar file. */
  answers: [label: string, value: string][];
  contact: string[];
  manageUrl: string | null;
  /** Absent parts are null; all null when the e-mail shows none (a cancellation). */
  meetingPoint: string | null;
  mapUrl: string | null;
  instructions: string | null;
}

/** The operator's text for guests, line breaks kept (one LF each), other control characters gone, blank as null. */
function guestText(value: string | null | undefined): string | null {
  if (value == null) return null;
  const text = value.replace(/\r\n?/g, '\n').replace(/[\u0000-\u0009\u000B-\u001F\u007F-\u009F\u2028\u2029]/g, ' ').trim();
  return text === '' ? null : text;
}

/** The meeting point's map link: an https URL, or nothing. */
function mapLink(url: string | null | undefined): string | null {
  if (!url) return null;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' ? parsed.href : null;
  } catch {
    return null;
  }
}

function detailsOf(input: GuestMessageInput, texts: GuestTexts): Details {
  const b = input.booking;
  const tickets = ticketsOf(b.tickets);
  const total = price(bookingTotalCents(b), b.currency, texts.intlLocale);
  const number = b.status === 'PENDING' ? `${b.bookingNumber} (${texts.awaitingPayment})` : b.bookingNumber;
  const org = input.organization;
  // `2 × Lunch (€24.00)`: each extra with its line's amount, as the booking's money lines make it.
  const extras = storedBookingLines(b)
    .lines.filter((line) => line.kind === 'EXTRA')
    .map((line) => `${line.quantity} × ${line.name ?? ''} (${price(line.amount, b.currency, texts.intlLocale)})`);
  return {
    rows: [
      [texts.label.experience, oneLine(b.experienceName)],
      [texts.label.when, localWhen(b.slotStart, b.slotEnd, input.timeZone, texts)],
      tickets.length > 0
        ? [texts.label.tickets, oneLine(ticketsLine(tickets))]
        : [texts.label.participants, plural(texts.participants, b.participants, texts.intlLocale)],
      ...(extras.length === 0 ? [] : [[texts.label.extras, oneLine(extras.join(', '))] as [string, string]]),
      [texts.label.total, total],
      ...voucherRows(b, texts),
      [texts.label.bookingNumber, oneLine(number)],
    ],
    answers: answersOf(b.answers).map((a) => [oneLine(a.label), oneLine(answerValueText(a, texts.yes, texts.no))]),
    contact: [org.name, org.email, ...(org.phone ? [org.phone] : [])].map(oneLine).filter((s) => s !== ''),
    manageUrl: input.kind !== 'BOOKING_CANCELLED' && input.manageUrl !== undefined ? manageLink(input.manageUrl) : null,
    ...guestInfoOf(input),
  };
}

/** The gift voucher's part (by its mask) and the amount left to pay, for a booking that spent one. */
function voucherRows(b: BookingView, texts: GuestTexts): [string, string][] {
  const figures = bookingFigures(b);
  if (!figures.voucher) return [];
  return [
    [texts.voucher.label, `${oneLine(figures.voucher.mask)} (${price(-figures.voucher.cents, b.currency, texts.intlLocale)})`],
    [texts.voucher.amountDue, price(figures.due, b.currency, texts.intlLocale)],
  ];
}

function guestInfoOf(input: GuestMessageInput): Pick<Details, 'meetingPoint' | 'mapUrl' | 'instructions'> {
  const info = input.kind === 'BOOKING_CANCELLED' ? undefined : input.guestInfo;
  return { meetingPoint: guestText(info?.meetingPoint), mapUrl: mapLink(info?.meetingPointUrl), instructions: guestText(info?.guestInstructions) };
}

function guestInfoText(texts: GuestTexts, d: Details): string[] {
  const lines: string[] = [];
  if (d.meetingPoint || d.mapUrl) {
    lines.push('', `${texts.guestInfo.meetingPoint}:`, ...(d.meetingPoint ? d.meetingPoint.split('\n') : []), ...(d.mapUrl ? [`${texts.guestInfo.map}: ${d.mapUrl}`] : []));
  }
  if (d.instructions) lines.push('', `${texts.guestInfo.instructions}:`, ...d.instructions.split('\n'));
  return lines;
}

function guestInfoHtml(texts: GuestTexts, d: Details): string[] {
  const e = escapeHtml;
  const lines = (text: string) => text.split('\n').map(e).join('<br>');
  const parts: string[] = [];
  if (d.meetingPoint || d.mapUrl) {
    const link = d.mapUrl ? `<a href="${e(d.mapUrl)}">${e(texts.guestInfo.map)}</a>` : '';
    parts.push(
      `<h2 style="font-size:16px;margin:16px 0 4px">${e(texts.guestInfo.meetingPoint)}</h2>`,
      `<p style="margin:0">${[d.meetingPoint ? lines(d.meetingPoint) : '', link].filter(Boolean).join('<br>')}</p>`,
    );
  }
  if (d.instructions) {
    parts.push(`<h2 style="font-size:16px;margin:16px 0 4px">${e(texts.guestInfo.instructions)}</h2>`, `<p style="margin:0">${lines(d.instructions)}</p>`);
  }
  return parts;
}

function answersHtml(texts: GuestTexts, d: Details): string[] {
  if (d.answers.length === 0) return [];
  const e = escapeHtml;
  const rows = d.answers.map(([label, value]) => `<tr><th align="left" style="padding:4px 16px 4px 0;font-weight:normal">${e(label)}</th><td style="padding:4px 0">${e(value)}</td></tr>`);
  return [`<h2 style="font-size:16px;margin:16px 0 4px">${e(texts.answers)}</h2>`, `<table role="presentation" cellpadding="0" cellspacing="0">${rows.join('')}</table>`];
}

function textBody(input: GuestMessageInput, texts: GuestTexts, d: Details, withCalendar: boolean): string {
  const lines = [
    texts.greeting(nameOf(input.booking.guestName)),
    '',
    texts.lead[input.kind],
    '',
    ...d.rows.map(([label, value]) => `${label}: ${value}`),
    ...(d.answers.length === 0 ? [] : ['', `${texts.answers}:`, ...d.answers.map(([label, value]) => `${label}: ${value}`)]),
    ...guestInfoText(texts, d),
    ...(d.manageUrl ? ['', `${texts.manage}:`, d.manageUrl] : []),
    ...(withCalendar ? ['', texts.calendar] : []),
    '',
    texts.questions,
    ...d.contact,
  ];
  return `${lines.join('\n')}\n`;
}

function htmlBody(input: GuestMessageInput, texts: GuestTexts, d: Details, withCalendar: boolean): string {
  const e = escapeHtml;
  const accent = accentOf(input.organization);
  const rows = d.rows.map(([label, value]) => `<tr><th align="left" style="padding:4px 16px 4px 0">${e(label)}</th><td style="padding:4px 0">${e(value)}</td></tr>`);
  const parts = [
    '<!doctype html>',
    `<html lang="${input.locale}"><head><meta charset="utf-8"><title>${e(texts.heading[input.kind])}</title></head>`,
    brandedBodyStart(input.organization),
    `<h1 style="font-size:20px;color:${accent}">${e(texts.heading[input.kind])}</h1>`,
    `<p>${e(texts.greeting(nameOf(input.booking.guestName)))}</p>`,
    `<p>${e(texts.lead[input.kind])}</p>`,
    `<table role="presentation" cellpadding="0" cellspacing="0">${rows.join('')}</table>`,
    ...answersHtml(texts, d),
    ...guestInfoHtml(texts, d),
    ...(d.manageUrl ? [`<p><a href="${e(d.manageUrl)}" style="color:${accent}">${e(texts.manage)}</a></p>`] : []),
    ...(withCalendar ? [`<p>${e(texts.calendar)}</p>`] : []),
    `<p>${e(texts.questions)}<br>${d.contact.map(e).join('<br>')}</p>`,
    '</body></html>',
  ];
  return `${parts.join('\n')}\n`;
}

/**
 * `booking.ics`: the feed's event for this booking (same UID, SEQUENCE, times and status), so the
 * guest's calendar updates the event it already has; the title and notes are the guest's, not the
 * operator's.
 */
function bookingIcs(input: GuestMessageInput, texts: GuestTexts, d: Details): string {
  return guestBookingIcs(input.booking, input.host, {
    summary: oneLine(input.booking.experienceName),
    location: d.meetingPoint,
    description: [
      ...d.rows.map(([label, value]) => `${label}: ${value}`),
      ...(d.mapUrl ? [`${texts.guestInfo.map}: ${d.mapUrl}`] : []),
      ...(d.instructions ? ['', `${texts.guestInfo.instructions}:`, d.instructions] : []),
      ...(d.manageUrl ? ['', d.manageUrl] : []),
      '',
      ...d.contact,
    ].join('\n'),
    url: d.manageUrl,
  });
}

/**
 * `GET /public/v1/manage/calendar.ics`: the booking in the guest's language, with its booking
 * number, party and the experience's instructions; LOCATION the meeting point; cancelled once it is.
 */
export function guestCalendarFile(input: Pick<GuestMessageInput, 'locale' | 'booking' | 'host' | 'guestInfo'>): string {
  const texts = GUEST_TEXTS[input.locale];
  const b = input.booking;
  const tickets = ticketsOf(b.tickets);
  const extras = bookingExtrasOf(b.extras);
  const info = { meetingPoint: guestText(input.guestInfo?.meetingPoint), mapUrl: mapLink(input.guestInfo?.meetingPointUrl), instructions: guestText(input.guestInfo?.guestInstructions) };
  return guestBookingIcs(b, input.host, {
    summary: oneLine(b.experienceName),
    location: info.meetingPoint,
    description: [
      `${texts.label.bookingNumber}: ${oneLine(b.bookingNumber)}`,
      tickets.length > 0 ? `${texts.label.tickets}: ${oneLine(ticketsLine(tickets))}` : `${texts.label.participants}: ${plural(texts.participants, b.participants, texts.intlLocale)}`,
      ...(extras.length === 0 ? [] : [`${texts.label.extras}: ${oneLine(extrasLine(extras))}`]),
      ...(info.mapUrl ? [`${texts.guestInfo.map}: ${info.mapUrl}`] : []),
      ...(info.instructions ? ['', `${texts.guestInfo.instructions}:`, info.instructions] : []),
    ].join('\n'),
  });
}

/** The guest's name on one line, or null when a reseller gave none. */
const nameOf = (name: string | null): string | null => (name === null ? null : oneLine(name));

export function composeGuestMessage(input: GuestMessageInput): GuestMessage {
  const texts = GUEST_TEXTS[input.locale];
  const b = input.booking;
  // The queue never composes for a booking without an address (a reseller's guest may have none).
  if (b.guestEmail === null) throw new Error('The booking has no guest e-mail');
  const to = oneLine(b.guestEmail);
  if (!ADDRESS.test(to)) throw new Error('The guest e-mail is not one address');
  const d = detailsOf(input, texts);
  const withCalendar = input.kind === 'BOOKING_CONFIRMED' || input.kind === 'BOOKING_CHANGED';
  return {
    kind: input.kind,
    to,
    fromName: oneLine(input.organization.name),
    subject: oneLine(texts.subject[input.kind](oneLine(b.experienceName), shortWhen(b.slotStart, input.timeZone, texts))),
    text: textBody(input, texts, d, withCalendar),
    html: htmlBody(input, texts, d, withCalendar),
    headers: {
      'Message-ID': messageIdHeader(input.messageId, input.host),
      ...replyToHeader(input.organization.email),
      'Content-Language': input.locale,
    },
    attachments: withCalendar ? [{ filename: 'booking.ics', content: bookingIcs(input, texts, d), contentType: ICS_TYPE }] : [],
  };
}
