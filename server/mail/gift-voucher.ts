// The e-mail that carries a gift voucher's code to its recipient (or its buyer), composed from data
// alone like the guests' e-mails (compose.ts): every value escaped in HTML, one line in headers.
// It speaks the organization's language (its defaultLocale): a voucher has no guest yet.
import { accentOf, brandedBodyStart, escapeHtml, messageIdHeader, oneLine, replyToHeader, type Sender } from './compose.js';
import type { MailMessage } from './message.js';
import { price, type GuestLocale } from './texts.js';

export interface GiftVoucherMailInput {
  locale: GuestLocale;
  voucher: {
    /** The full code: this e-mail is how it reaches its holder. */
    code: string;
    amountCents: number;
    currency: string;
    expiresAt: number | null;
    recipientName: string | null;
    message: string | null;
  };
  /** The organization's IANA zone: the expiry date is read there. */
  timeZone: string;
  organization: Sender;
  to: string;
  messageId: string;
  host: string;
}

interface VoucherTexts {
  intlLocale: string;
  subject: (org: string) => string;
  heading: string;
  greeting: (name: string | null) => string;
  lead: (org: string) => string;
  label: { code: string; amount: string; expires: string };
  noExpiry: string;
  personalMessage: string;
  howToUse: string;
  contact: (org: string) => string;
}

const TEXTS: Record<GuestLocale, VoucherTexts> = {
  en: {
    intlLocale: 'en-GB',
    subject: (org) => `Your gift voucher from ${org}`,
    heading: 'Your gift voucher',
    greeting: (name) => (name ? `Hello ${name},` : 'Hello,'),
    lead: (org) => `You have a gift voucher for ${org}.`,
    label: { code: 'Code', amount: 'Amount', expires: 'Valid until' },
    noExpiry: 'No expiry',
    personalMessage: 'A message for you',
    howToUse: 'Enter the code in the "Have a code?" box when you book: its amount is taken off the total.',
    contact: (org) => `Questions? Contact ${org}:`,
  },
  pt: {
    intlLocale: 'pt-PT',
    subject: (org) => `O seu vale de oferta de ${org}`,
    heading: 'O seu vale de oferta',
    greeting: (name) => (name ? `Olá ${name},` : 'Olá,'),
    lead: (org) => `Tem um vale de oferta para ${org}.`,
    label: { code: 'Código', amount: 'Valor', expires: 'Válido até' },
    noExpiry: 'Sem prazo de validade',
    personalMessage: 'Uma mensagem para si',
    howToUse: 'Introduza o código na caixa "Tem um código?" ao reservar: o valor é descontado do total.',
    contact: (org) => `Dúvidas? Contacte ${org}:`,
  },
  es: {
    intlLocale: 'es-ES',
    subject: (org) => `Su tarjeta regalo de ${org}`,
    heading: 'Su tarjeta regalo',
    greeting: (name) => (name ? `Hola, ${name}:` : 'Hola:'),
    lead: (org) => `Tiene una tarjeta regalo para ${org}.`,
    label: { code: 'Código', amount: 'Importe', expires: 'Válida hasta' },
    noExpiry: 'Sin fecha de caducidad',
    personalMessage: 'Un mensaje para usted',
    howToUse: 'Introduzca el código en el campo «¿Tiene un código?» al reservar: su importe se descuenta del total.',
    contact: (org) => `¿Tiene alguna pregunta? Póngase en contacto con ${org}:`,
  },
  fr: {
    intlLocale: 'fr-FR',
    subject: (org) => `Votre carte cadeau ${org}`,
    heading: 'Votre carte cadeau',
    greeting: (name) => (name ? `Bonjour ${name},` : 'Bonjour,'),
    lead: (org) => `Vous avez reçu une carte cadeau à utiliser chez ${org}.`,
    label: { code: 'Code', amount: 'Montant', expires: 'Valable jusqu’au' },
    noExpiry: 'Sans date d’expiration',
    personalMessage: 'Un message pour vous',
    howToUse: 'Saisissez le code dans le champ «\u00a0Vous avez un code\u00a0?\u00a0» lors de votre réservation\u00a0: son montant est déduit du total.',
    contact: (org) => `Une question\u00a0? Contactez ${org}\u00a0:`,
  },
  de: {
    intlLocale: 'de-DE',
    subject: (org) => `Ihr Gutschein von ${org}`,
    heading: 'Ihr Gutschein',
    greeting: (name) => (name ? `Guten Tag ${name},` : 'Guten Tag,'),
    lead: (org) => `Sie haben einen Gutschein für ${org} erhalten.`,
    label: { code: 'Code', amount: 'Betrag', expires: 'Gültig bis' },
    noExpiry: 'Unbegrenzt gültig',
    personalMessage: 'Eine Nachricht für Sie',
    howToUse: 'Geben Sie den Code bei der Buchung im Feld „Haben Sie einen Code?“ ein: Der Betrag wird vom Gesamtpreis abgezogen.',
    contact: (org) => `Fragen? Wenden Sie sich an ${org}:`,
  },
  it: {
    intlLocale: 'it-IT',
    subject: (org) => `Il suo buono regalo di ${org}`,
    heading: 'Il suo buono regalo',
    greeting: (name) => (name ? `Gentile ${name},` : 'Buongiorno,'),
    lead: (org) => `ha ricevuto un buono regalo da utilizzare presso ${org}.`,
    label: { code: 'Codice', amount: 'Importo', expires: 'Valido fino al' },
    noExpiry: 'Senza scadenza',
    personalMessage: 'Un messaggio per lei',
    howToUse: 'Inserisca il codice nel campo «Ha un codice?» al momento della prenotazione: l’importo viene scalato dal totale.',
    contact: (org) => `Domande? Contatti ${org}:`,
  },
  nl: {
    intlLocale: 'nl-NL',
    subject: (org) => `Uw cadeaubon van ${org}`,
    heading: 'Uw cadeaubon',
    greeting: (name) => (name ? `Beste ${name},` : 'Hallo,'),
    lead: (org) => `U hebt een cadeaubon gekregen voor ${org}.`,
    label: { code: 'Code', amount: 'Bedrag', expires: 'Geldig tot' },
    noExpiry: 'Onbeperkt geldig',
    personalMessage: 'Een bericht voor u',
    howToUse: 'Vul de code bij het boeken in bij „Hebt u een code?”: het bedrag gaat van het totaal af.',
    contact: (org) => `Vragen? Neem contact op met ${org}:`,
  },
};

const ADDRESS = /^[^\s<>()[\]",;:\\@]+@[^\s<>()[\]",;:\\@]+$/;

/** The expiry as a date where the organization is (the instant it ends is midnight or later that day). */
function expiryDate(expiresAt: number, zone: string, t: VoucherTexts): string {
  return new Intl.DateTimeFormat(t.intlLocale, { timeZone: zone, day: 'numeric', month: 'long', year: 'numeric' }).format(expiresAt);
}

export function composeGiftVoucherMessage(input: GiftVoucherMailInput): MailMessage {
  const to = oneLine(input.to);
  if (!ADDRESS.test(to)) throw new Error('The recipient is not one address');
  const t = TEXTS[input.locale];
  const v = input.voucher;
  const org = oneLine(input.organization.name);
  const name = v.recipientName === null ? null : oneLine(v.recipientName);
  const rows: [string, string][] = [
    [t.label.code, oneLine(v.code)],
    [t.label.amount, price(v.amountCents, v.currency, t.intlLocale)],
    [t.label.expires, v.expiresAt === null ? t.noExpiry : expiryDate(v.expiresAt, input.timeZone, t)],
  ];
  const note = v.message === null || v.message.trim() === '' ? null : v.message.replace(/\r\n?/g, '\n');
  const contact = [oneLine(input.organization.email), ...(input.organization.phone ? [oneLine(input.organization.phone)] : [])];
  const text = [
    t.greeting(name),
    '',
    t.lead(org),
    '',
    ...rows.map(([label, value]) => `${label}: ${value}`),
    ...(note === null ? [] : ['', `${t.personalMessage}:`, note]),
    '',
    t.howToUse,
    '',
    t.contact(org),
    ...contact,
    '',
  ].join('\n');
  const e = escapeHtml;
  const accent = accentOf(input.organization);
  const html = [
    '<!doctype html>',
    `<html lang="${input.locale}"><head><meta charset="utf-8"><title>${e(t.heading)}</title></head>`,
    brandedBodyStart(input.organization),
    `<h1 style="font-size:20px;color:${accent}">${e(t.heading)}</h1>`,
    `<p>${e(t.greeting(name))}</p>`,
    `<p>${e(t.lead(org))}</p>`,
    `<table role="presentation" cellpadding="0" cellspacing="0">${rows
      .map(([label, value]) => `<tr><th align="left" style="padding:4px 16px 4px 0">${e(label)}</th><td style="padding:4px 0">${e(value)}</td></tr>`)
      .join('')}</table>`,
    ...(note === null ? [] : [`<p><strong>${e(t.personalMessage)}</strong><br>${e(note).replace(/\n/g, '<br>')}</p>`]),
    `<p>${e(t.howToUse)}</p>`,
    `<p>${e(t.contact(org))}<br>${contact.map(e).join('<br>')}</p>`,
    '</body></html>',
  ].join('\n');
  return {
    to,
    fromName: org,
    subject: oneLine(t.subject(org)),
    text,
    html: `${html}\n`,
    headers: { 'Message-ID': messageIdHeader(input.messageId, input.host), ...replyToHeader(input.organization.email), 'Content-Language': input.locale },
    attachments: [],
  };
}
