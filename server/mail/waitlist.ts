// The two e-mails of a waitlist entry, composed from data alone like the booking e-mails (compose.ts):
// every value escaped in HTML, one line in headers. WAITLIST_JOINED confirms the guest's place in the
// queue (no link: there is nothing to do yet); WAITLIST_OFFER says places are held for them, until
// when, what booking them costs, and carries the link of the offer's page (`/manage#<token>`).
import { ticketsLine } from '../domain/tickets.js';
import {
  accentOf, brandedBodyStart, escapeHtml, localWhen, messageIdHeader, oneLine, replyToHeader, shortWhen, utcOffset, type Sender,
} from './compose.js';
import type { MailMessage } from './message.js';
import { plural, price, type GuestLocale, type Plural } from './texts.js';

export const WAITLIST_MESSAGE_KINDS = ['WAITLIST_JOINED', 'WAITLIST_OFFER'] as const;
export type WaitlistMessageKind = (typeof WAITLIST_MESSAGE_KINDS)[number];

export interface WaitlistMailInput {
  kind: WaitlistMessageKind;
  locale: GuestLocale;
  entry: {
    guestName: string;
    experienceName: string;
    slotStart: number;
    slotEnd: number;
    /** The party: its tickets (name and quantity), or `participants` when it has none. */
    tickets: readonly { name: string; quantity: number }[];
    participants: number;
    /** The rank among the slot's waiting guests (WAITLIST_JOINED); null when no longer waiting. */
    position: number | null;
    /** What booking the party costs now (WAITLIST_OFFER). */
    totalCents: number;
    currency: string;
    /** Until when the offer holds its places (WAITLIST_OFFER). */
    offerExpiresAt: number | null;
  };
  /** The experience's IANA zone: the guest reads every time where the tour happens. */
  timeZone: string;
  organization: Sender;
  /** `{PUBLIC_URL}/manage#<token>`: the offer's page (WAITLIST_OFFER only). */
  offerUrl?: string;
  to: string;
  messageId: string;
  host: string;
}

interface WaitlistTexts {
  intlLocale: string;
  subject: Record<WaitlistMessageKind, (experience: string, when: string) => string>;
  heading: Record<WaitlistMessageKind, string>;
  greeting: (name: string) => string;
  lead: { WAITLIST_JOINED: string; WAITLIST_OFFER: (until: string) => string };
  label: { experience: string; when: string; tickets: string; participants: string; position: string; total: string; holdsUntil: string };
  participants: Plural;
  position: (n: number) => string;
  action: string;
  unanswered: string;
  questions: string;
}

const TEXTS: Record<GuestLocale, WaitlistTexts> = {
  en: {
    intlLocale: 'en-GB',
    subject: {
      WAITLIST_JOINED: (experience, when) => `On the waitlist: ${experience}, ${when}`,
      WAITLIST_OFFER: (experience, when) => `Places are free for you: ${experience}, ${when}`,
    },
    heading: { WAITLIST_JOINED: 'You are on the waitlist', WAITLIST_OFFER: 'Places are free for you' },
    greeting: (name) => `Hello ${name},`,
    lead: {
      WAITLIST_JOINED:
        'This time is full, and you are on its waitlist. Nothing is booked yet: if places free up for your party, we hold them for you and write again.',
      WAITLIST_OFFER: (until) => `Places have freed up for your party and are held for you until ${until}. Book them, or let them go, on the page below.`,
    },
    label: {
      experience: 'Experience',
      when: 'Date and time',
      tickets: 'Tickets',
      participants: 'Participants',
      position: 'Waitlist',
      total: 'Total',
      holdsUntil: 'Held for you until',
    },
    participants: { one: () => '1 participant', other: (n) => `${n} participants` },
    position: (n) => `You are number ${n} on the waitlist`,
    action: 'Book these places, or say no thanks',
    unanswered: 'Without an answer by then, the places go to the next guest waiting.',
    questions: 'Questions? Reply to this e-mail or contact us:',
  },
  // European Portuguese, as the widget speaks it.
  pt: {
    intlLocale: 'pt-PT',
    subject: {
      WAITLIST_JOINED: (experience, when) => `Na lista de espera: ${experience}, ${when}`,
      WAITLIST_OFFER: (experience, when) => `Há lugares para si: ${experience}, ${when}`,
    },
    heading: { WAITLIST_JOINED: 'Está na lista de espera', WAITLIST_OFFER: 'Há lugares para si' },
    greeting: (name) => `Olá ${name},`,
    lead: {
      WAITLIST_JOINED:
        'Este horário está esgotado e está na lista de espera. Ainda não há reserva: se vagarem lugares para o seu grupo, guardamo-los para si e voltamos a escrever.',
      WAITLIST_OFFER: (until) => `Vagaram lugares para o seu grupo e estão guardados para si até ${until}. Reserve-os, ou liberte-os, na página abaixo.`,
    },
    label: {
      experience: 'Experiência',
      when: 'Data e hora',
      tickets: 'Bilhetes',
      participants: 'Participantes',
      position: 'Lista de espera',
      total: 'Total',
      holdsUntil: 'Guardados até',
    },
    participants: { one: () => '1 participante', other: (n) => `${n} participantes` },
    position: (n) => `É o número ${n} na lista de espera`,
    action: 'Reservar estes lugares, ou dizer que não',
    unanswered: 'Sem resposta até lá, os lugares passam para a pessoa seguinte na lista de espera.',
    questions: 'Alguma dúvida? Responda a este e-mail ou contacte-nos:',
  },
  es: {
    intlLocale: 'es-ES',
    subject: {
      WAITLIST_JOINED: (experience, when) => `En lista de espera: ${experience}, ${when}`,
      WAITLIST_OFFER: (experience, when) => `Hay plazas para usted: ${experience}, ${when}`,
    },
    heading: { WAITLIST_JOINED: 'Está en la lista de espera', WAITLIST_OFFER: 'Hay plazas para usted' },
    greeting: (name) => `Hola, ${name}:`,
    lead: {
      WAITLIST_JOINED:
        'Este horario está completo y usted está en su lista de espera. Todavía no hay ninguna reserva: si quedan plazas libres para su grupo, se las guardamos y le volvemos a escribir.',
      WAITLIST_OFFER: (until) => `Han quedado plazas libres para su grupo y se las guardamos hasta el ${until}. Resérvelas o libérelas en la página indicada abajo.`,
    },
    label: {
      experience: 'Experiencia',
      when: 'Fecha y hora',
      tickets: 'Entradas',
      participants: 'Participantes',
      position: 'Lista de espera',
      total: 'Total',
      holdsUntil: 'Reservadas para usted hasta',
    },
    participants: { one: () => '1 participante', other: (n) => `${n} participantes` },
    position: (n) => `Ocupa el puesto ${n} en la lista de espera`,
    action: 'Reservar estas plazas o rechazarlas',
    unanswered: 'Si no recibimos respuesta antes de esa hora, las plazas pasarán a la siguiente persona de la lista.',
    questions: '¿Tiene alguna pregunta? Responda a este correo o póngase en contacto con nosotros:',
  },
  fr: {
    intlLocale: 'fr-FR',
    subject: {
      WAITLIST_JOINED: (experience, when) => `Liste d’attente\u00a0: ${experience}, ${when}`,
      WAITLIST_OFFER: (experience, when) => `Des places se sont libérées pour vous\u00a0: ${experience}, ${when}`,
    },
    heading: { WAITLIST_JOINED: 'Vous êtes sur la liste d’attente', WAITLIST_OFFER: 'Des places se sont libérées pour vous' },
    greeting: (name) => `Bonjour ${name},`,
    lead: {
      WAITLIST_JOINED:
        'Ce créneau est complet et vous êtes sur sa liste d’attente. Rien n’est encore réservé\u00a0: si des places se libèrent pour votre groupe, nous vous les gardons et vous écrivons de nouveau.',
      WAITLIST_OFFER: (until) => `Des places se sont libérées pour votre groupe et vous sont réservées jusqu’au ${until}. Réservez-les, ou laissez-les à d’autres, sur la page ci-dessous.`,
    },
    label: {
      experience: 'Activité',
      when: 'Date et heure',
      tickets: 'Billets',
      participants: 'Participants',
      position: 'Liste d’attente',
      total: 'Total',
      holdsUntil: 'Gardées pour vous jusqu’au',
    },
    participants: { one: (n) => `${n} participant`, other: (n) => `${n} participants` },
    position: (n) => `Vous êtes en position ${n} sur la liste d’attente`,
    action: 'Réserver ces places, ou les décliner',
    unanswered: 'Sans réponse d’ici là, les places passent à la personne suivante sur la liste d’attente.',
    questions: 'Une question\u00a0? Répondez à cet e-mail ou contactez-nous\u00a0:',
  },
  de: {
    intlLocale: 'de-DE',
    subject: {
      WAITLIST_JOINED: (experience, when) => `Auf der Warteliste: ${experience}, ${when}`,
      WAITLIST_OFFER: (experience, when) => `Plätze für Sie frei: ${experience}, ${when}`,
    },
    heading: { WAITLIST_JOINED: 'Sie stehen auf der Warteliste', WAITLIST_OFFER: 'Es sind Plätze für Sie frei' },
    greeting: (name) => `Guten Tag ${name},`,
    lead: {
      WAITLIST_JOINED:
        'dieser Termin ist ausgebucht, und Sie stehen auf seiner Warteliste. Noch ist nichts gebucht: Werden Plätze für Ihre Gruppe frei, halten wir sie für Sie bereit und schreiben Ihnen wieder.',
      WAITLIST_OFFER: (until) => `für Ihre Gruppe sind Plätze frei geworden. Wir halten sie bis ${until} für Sie bereit. Buchen Sie sie oder geben Sie sie frei, auf der Seite unten.`,
    },
    label: {
      experience: 'Erlebnis',
      when: 'Datum und Uhrzeit',
      tickets: 'Tickets',
      participants: 'Personen',
      position: 'Warteliste',
      total: 'Gesamtbetrag',
      holdsUntil: 'Für Sie reserviert bis',
    },
    participants: { one: () => '1 Person', other: (n) => `${n} Personen` },
    position: (n) => `Sie sind Nummer ${n} auf der Warteliste`,
    action: 'Plätze buchen oder ablehnen',
    unanswered: 'Ohne Antwort bis dahin gehen die Plätze an die nächste Person auf der Warteliste.',
    questions: 'Fragen? Antworten Sie einfach auf diese E-Mail oder kontaktieren Sie uns:',
  },
  it: {
    intlLocale: 'it-IT',
    subject: {
      WAITLIST_JOINED: (experience, when) => `In lista d’attesa: ${experience}, ${when}`,
      WAITLIST_OFFER: (experience, when) => `Posti disponibili per lei: ${experience}, ${when}`,
    },
    heading: { WAITLIST_JOINED: 'È in lista d’attesa', WAITLIST_OFFER: 'Si sono liberati dei posti' },
    greeting: (name) => `Gentile ${name},`,
    lead: {
      WAITLIST_JOINED:
        'questo orario è al completo e lei è nella lista d’attesa. Non c’è ancora nessuna prenotazione: se si liberano posti per il suo gruppo, li teniamo per lei e le scriviamo di nuovo.',
      WAITLIST_OFFER: (until) => `si sono liberati dei posti per il suo gruppo e li teniamo per lei fino a ${until}. Può prenotarli, o rinunciarvi, dalla pagina qui sotto.`,
    },
    label: {
      experience: 'Esperienza',
      when: 'Data e ora',
      tickets: 'Biglietti',
      participants: 'Partecipanti',
      position: 'Lista d’attesa',
      total: 'Totale',
      holdsUntil: 'Riservati per lei fino a',
    },
    participants: { one: () => '1 partecipante', other: (n) => `${n} partecipanti` },
    position: (n) => `È al ${n}° posto nella lista d’attesa`,
    action: 'Prenota questi posti o rinuncia',
    unanswered: 'Senza una risposta entro quel momento, i posti passano alla persona successiva in lista d’attesa.',
    questions: 'Domande? Risponda a questa e-mail o ci contatti:',
  },
  nl: {
    intlLocale: 'nl-NL',
    subject: {
      WAITLIST_JOINED: (experience, when) => `Op de wachtlijst: ${experience}, ${when}`,
      WAITLIST_OFFER: (experience, when) => `Er zijn plaatsen vrij voor u: ${experience}, ${when}`,
    },
    heading: { WAITLIST_JOINED: 'U staat op de wachtlijst', WAITLIST_OFFER: 'Er zijn plaatsen vrij voor u' },
    greeting: (name) => `Beste ${name},`,
    lead: {
      WAITLIST_JOINED:
        'Dit tijdstip is volgeboekt en u staat op de wachtlijst. Er is nog niets geboekt: komen er plaatsen vrij voor uw groep, dan houden we die voor u vast en schrijven we u opnieuw.',
      WAITLIST_OFFER: (until) => `Er zijn plaatsen vrijgekomen voor uw groep. We houden ze voor u vast tot ${until}. Boek ze, of geef ze vrij, via de pagina hieronder.`,
    },
    label: {
      experience: 'Activiteit',
      when: 'Datum en tijd',
      tickets: 'Tickets',
      participants: 'Deelnemers',
      position: 'Wachtlijst',
      total: 'Totaal',
      holdsUntil: 'Voor u vastgehouden tot',
    },
    participants: { one: () => '1 deelnemer', other: (n) => `${n} deelnemers` },
    position: (n) => `U bent nummer ${n} op de wachtlijst`,
    action: 'Deze plaatsen boeken, of bedanken',
    unanswered: 'Zonder antwoord vóór dat tijdstip gaan de plaatsen naar de volgende op de wachtlijst.',
    questions: 'Vragen? Beantwoord deze e-mail of neem contact met ons op:',
  },
};

const ADDRESS = /^[^\s<>()[\]",;:\\@]+@[^\s<>()[\]",;:\\@]+$/;

/** `Saturday, 10 January 2026, 22:00 (Europe/Lisbon, UTC+0)`: one instant where the tour happens. */
function localInstant(at: number, zone: string, t: WaitlistTexts): string {
  const date = new Intl.DateTimeFormat(t.intlLocale, { timeZone: zone, weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' }).format(at);
  const time = new Intl.DateTimeFormat(t.intlLocale, { timeZone: zone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(at);
  return `${date}, ${time} (${zone}, ${utcOffset(at, zone)})`;
}

function offerLink(url: string | undefined): string {
  if (url === undefined) throw new Error('A waitlist offer e-mail needs its link');
  const parsed = new URL(url);
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') throw new Error('The offer link must be an http(s) URL');
  return parsed.href;
}

export function composeWaitlistMessage(input: WaitlistMailInput): MailMessage {
  const to = oneLine(input.to);
  if (!ADDRESS.test(to)) throw new Error('The guest e-mail is not one address');
  const t = TEXTS[input.locale];
  const e = input.entry;
  const offer = input.kind === 'WAITLIST_OFFER';
  if (offer && e.offerExpiresAt === null) throw new Error('A waitlist offer e-mail needs the offer’s expiry');
  const link = offer ? offerLink(input.offerUrl) : null;
  const until = offer ? localInstant(e.offerExpiresAt!, input.timeZone, t) : '';
  const name = oneLine(e.guestName);
  const rows: [string, string][] = [
    [t.label.experience, oneLine(e.experienceName)],
    [t.label.when, localWhen(e.slotStart, e.slotEnd, input.timeZone, t)],
    e.tickets.length > 0 ? [t.label.tickets, oneLine(ticketsLine(e.tickets))] : [t.label.participants, plural(t.participants, e.participants, t.intlLocale)],
    ...(!offer && e.position !== null ? [[t.label.position, t.position(e.position)] as [string, string]] : []),
    ...(offer ? [[t.label.total, price(e.totalCents, e.currency, t.intlLocale)], [t.label.holdsUntil, until]] as [string, string][] : []),
  ];
  const org = input.organization;
  const contact = [org.name, org.email, ...(org.phone ? [org.phone] : [])].map(oneLine).filter((s) => s !== '');
  const lead = offer ? t.lead.WAITLIST_OFFER(until) : t.lead.WAITLIST_JOINED;
  const text = [
    t.greeting(name),
    '',
    lead,
    '',
    ...rows.map(([label, value]) => `${label}: ${value}`),
    ...(link ? ['', `${t.action}:`, link, '', t.unanswered] : []),
    '',
    t.questions,
    ...contact,
    '',
  ].join('\n');
  const h = escapeHtml;
  const accent = accentOf(org);
  const html = [
    '<!doctype html>',
    `<html lang="${input.locale}"><head><meta charset="utf-8"><title>${h(t.heading[input.kind])}</title></head>`,
    brandedBodyStart(org),
    `<h1 style="font-size:20px;color:${accent}">${h(t.heading[input.kind])}</h1>`,
    `<p>${h(t.greeting(name))}</p>`,
    `<p>${h(lead)}</p>`,
    `<table role="presentation" cellpadding="0" cellspacing="0">${rows
      .map(([label, value]) => `<tr><th align="left" style="padding:4px 16px 4px 0">${h(label)}</th><td style="padding:4px 0">${h(value)}</td></tr>`)
      .join('')}</table>`,
    ...(link
      ? [
          `<p><a href="${h(link)}" style="color:${accent};font-weight:bold">${h(t.action)}</a></p>`,
          `<p style="font-size:13px">${h(link)}</p>`,
          `<p>${h(t.unanswered)}</p>`,
        ]
      : []),
    `<p>${h(t.questions)}<br>${contact.map(h).join('<br>')}</p>`,
    '</body></html>',
  ].join('\n');
  return {
    to,
    fromName: oneLine(org.name),
    subject: oneLine(t.subject[input.kind](oneLine(e.experienceName), shortWhen(e.slotStart, input.timeZone, t))),
    text,
    html: `${html}\n`,
    headers: { 'Message-ID': messageIdHeader(input.messageId, input.host), ...replyToHeader(org.email), 'Content-Language': input.locale },
    attachments: [],
  };
}
