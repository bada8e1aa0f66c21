// The e-mails Outing sends the organization's own people, in English: a notice of a booking event to
// each notice address, and a new user's invitation with their setup link. Composed from data alone,
// like the guests' e-mails (compose.ts), with the same escaping and one-line headers.
import { bookingTotalCents } from '../domain/bookings.js';
import { formatMoney } from '../domain/money.js';
import { ticketsLine, ticketsOf } from '../domain/tickets.js';
import { answersOf, answerValueText, bookingExtrasOf, extrasLine } from '../domain/booking-form.js';
import type { BookingView } from '../store/bookings.js';
import {
  accentOf,
  brandedBodyStart,
  escapeHtml,
  messageIdHeader,
  oneLine,
  replyToHeader,
  type Sender,
} from './compose.js';
import type { MailMessage } from './message.js';

export type NoticeEvent = 'BOOKING_CREATED' | 'BOOKING_CANCELED' | 'BOOKING_UPDATED';

export interface OperatorNoticeInput {
  event: NoticeEvent;
  booking: BookingView;
  /** The experience's IANA zone: the operator reads the time where the tour happens. */
  timeZone: string;
  organization: Sender;
  /** One of the organization's notice addresses. */
  to: string;
  /** `{PUBLIC_URL}/dashboard/bookings/{id}`. */
  dashboardUrl: string;
  messageId: string;
  host: string;
}

const ADDRESS = /^[^\s<>()[\]",;:\\@]+@[^\s<>()[\]",;:\\@]+$/;

const HEADLINE: Record<NoticeEvent, string> = {
  BOOKING_CREATED: 'New booking',
  BOOKING_CANCELED: 'Booking cancelled',
  BOOKING_UPDATED: 'Booking changed',
};

/**
 * The booking's internal note, when the record carries one (a note the operator wrote for
 * themselves: it goes to the operator, never to a guest).
 */
export function internalNoteOf(booking: object): string | null {
  const note: unknown = (booking as Record<string, unknown>).internalNote;
  return typeof note === 'string' && note.trim() !== '' ? note : null;
}

function when(start: number, end: number, zone: string): string {
  const date = new Intl.DateTimeFormat('en-GB', { timeZone: zone, weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' });
  const time = new Intl.DateTimeFormat('en-GB', { timeZone: zone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
  const sameDay = date.format(start) === date.format(end);
  return `${date.format(start)}, ${time.format(start)}–${sameDay ? '' : `${date.format(end)}, `}${time.format(end)} (${zone})`;
}

function shortWhen(start: number, zone: string): string {
  const day = new Intl.DateTimeFormat('en-GB', { timeZone: zone, day: 'numeric', month: 'short' }).format(start);
  const time = new Intl.DateTimeFormat('en-GB', { timeZone: zone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(start);
  return `${day}, ${time}`;
}

function dashboardLink(url: string): string {
  const parsed = new URL(url);
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') throw new Error('The dashboard link must be an http(s) URL');
  return parsed.href;
}

/** The notice's rows, label and value; the internal note (free text) is kept apart, after them. */
function noticeRows(input: OperatorNoticeInput): [string, string][] {
  const b = input.booking;
  const tickets = ticketsOf(b.tickets);
  const extras = bookingExtrasOf(b.extras);
  return [
    ['Booking number', oneLine(b.bookingNumber)],
    ['Status', b.status],
    ['Experience', oneLine(b.experienceName)],
    ['Date and time', when(b.slotStart, b.slotEnd, input.timeZone)],
    ['Guest', b.guestName === null ? '—' : oneLine(b.guestName)],
    ['E-mail', b.guestEmail === null ? '—' : oneLine(b.guestEmail)],
    ['Phone', b.guestPhone ? oneLine(b.guestPhone) : '—'],
    tickets.length > 0 ? ['Tickets', oneLine(ticketsLine(tickets))] : ['Participants', String(b.participants)],
    ...(extras.length === 0 ? [] : [['Extras', oneLine(extrasLine(extras))] as [string, string]]),
    ['Total', `${formatMoney(bookingTotalCents(b))} ${b.currency}`],
    ['Source', b.source],
  ];
}

/** A notice of a booking event to one of the organization's notice addresses; Reply-To the guest. */
export function composeOperatorNotice(input: OperatorNoticeInput): MailMessage {
  const to = oneLine(input.to);
  if (!ADDRESS.test(to)) throw new Error('The notice address is not one address');
  const b = input.booking;
  const rows = noticeRows(input);
  const note = internalNoteOf(b);
  const answers = answersOf(b.answers).map((a): [string, string] => [oneLine(a.label), oneLine(answerValueText(a, 'Yes', 'No'))]);
  const link = dashboardLink(input.dashboardUrl);
  const headline = HEADLINE[input.event];
  const subject = oneLine(`${headline}: ${b.bookingNumber}, ${b.experienceName}, ${shortWhen(b.slotStart, input.timeZone)}`);
  const text = [
    `${headline} at ${oneLine(input.organization.name)}.`,
    '',
    ...rows.map(([label, value]) => `${label}: ${value}`),
    ...(answers.length === 0 ? [] : ['', 'Answers:', ...answers.map(([label, value]) => `${label}: ${value}`)]),
    ...(note === null ? [] : ['', 'Internal note:', note.replace(/\r\n?/g, '\n')]),
    '',
    'Open the booking:',
    link,
    '',
    'Reply to this e-mail to write to the guest.',
  ].join('\n');
  const e = escapeHtml;
  const accent = accentOf(input.organization);
  const html = [
    '<!doctype html>',
    `<html lang="en"><head><meta charset="utf-8"><title>${e(headline)}</title></head>`,
    brandedBodyStart(input.organization),
    `<h1 style="font-size:20px;color:${accent}">${e(headline)}: ${e(oneLine(b.bookingNumber))}</h1>`,
    `<table role="presentation" cellpadding="0" cellspacing="0">${rows
      .map(([label, value]) => `<tr><th align="left" style="padding:4px 16px 4px 0">${e(label)}</th><td style="padding:4px 0">${e(value)}</td></tr>`)
      .join('')}</table>`,
    ...(answers.length === 0
      ? []
      : [
          `<h2 style="font-size:16px;margin:16px 0 4px">Answers</h2>`,
          `<table role="presentation" cellpadding="0" cellspacing="0">${answers
            .map(([label, value]) => `<tr><th align="left" style="padding:4px 16px 4px 0;font-weight:normal">${e(label)}</th><td style="padding:4px 0">${e(value)}</td></tr>`)
            .join('')}</table>`,
        ]),
    ...(note === null ? [] : [`<p><strong>Internal note</strong><br>${e(note).replace(/\r\n?|\n/g, '<br>')}</p>`]),
    `<p><a href="${e(link)}" style="color:${accent}">Open the booking</a></p>`,
    '<p>Reply to this e-mail to write to the guest.</p>',
    '</body></html>',
  ].join('\n');
  return {
    to,
    fromName: oneLine(input.organization.name),
    subject,
    text: `${text}\n`,
    html: `${html}\n`,
    headers: { 'Message-ID': messageIdHeader(input.messageId, input.host), ...(b.guestEmail === null ? {} : replyToHeader(b.guestEmail)), 'Content-Language': 'en' },
    attachments: [],
  };
}

export interface UserInviteInput {
  user: { name: string; email: string; role: string };
  organization: Sender;
  setupUrl: string;
  /** How long the link works, in hours. */
  validHours: number;
  messageId: string;
  host: string;
}

/** A new user's invitation: the link where they choose their password. */
export function composeUserInvite(input: UserInviteInput): MailMessage {
  const to = oneLine(input.user.email);
  if (!ADDRESS.test(to)) throw new Error('The user e-mail is not one address');
  const link = dashboardLink(input.setupUrl);
  const org = oneLine(input.organization.name);
  const name = oneLine(input.user.name);
  const lead = `You have been added to ${org}'s Outing dashboard as ${input.user.role}.`;
  const how = `Choose your password to sign in. The link works once, for ${input.validHours} hours.`;
  const e = escapeHtml;
  const accent = accentOf(input.organization);
  const html = [
    '<!doctype html>',
    `<html lang="en"><head><meta charset="utf-8"><title>${e(`Join ${org}`)}</title></head>`,
    brandedBodyStart(input.organization),
    `<h1 style="font-size:20px;color:${accent}">${e(`Join ${org} on Outing`)}</h1>`,
    `<p>${e(`Hello ${name},`)}</p>`,
    `<p>${e(lead)}</p>`,
    `<p>${e(how)}</p>`,
    `<p><a href="${e(link)}" style="color:${accent}">Choose your password</a></p>`,
    `<p>${e("If you weren't expecting this, ignore this e-mail: nothing happens until the link is used.")}</p>`,
    '</body></html>',
  ].join('\n');
  return {
    to,
    fromName: org,
    subject: oneLine(`You're invited to ${org} on Outing`),
    text: [`Hello ${name},`, '', lead, how, '', link, '', "If you weren't expecting this, ignore this e-mail: nothing happens until the link is used.", ''].join('\n'),
    html: `${html}\n`,
    headers: { 'Message-ID': messageIdHeader(input.messageId, input.host), ...replyToHeader(input.organization.email), 'Content-Language': 'en' },
    attachments: [],
  };
}
