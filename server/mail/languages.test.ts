// Every guest e-mail kind in every language: its own words (no English left over, nothing missing),
// dates, weekdays, months and prices the way that language writes them, and the language named in
// the Content-Language header and the HTML. Then a real SMTP round trip of a confirmation in each.
import { afterEach, describe, expect, it } from 'vitest';
import { startSmtpServer } from '../test-helpers/smtp.js';
import { composeGuestMessage, GUEST_MESSAGE_KINDS } from './compose.js';
import { composeGiftVoucherMessage, type GiftVoucherMailInput } from './gift-voucher.js';
import type { MailMessage } from './message.js';
import { smtpTransport } from './smtp.js';
import { bookingView, MANAGE_URL, messageInput } from './test-helpers/guest.js';
import { GUEST_LOCALES, GUEST_TEXTS, guestLocaleOf, plural, price, type GuestLocale } from './texts.js';
import { composeWaitlistMessage, WAITLIST_MESSAGE_KINDS, type WaitlistMailInput } from './waitlist.js';

// Thursday 1 July 2027, 10:00 in Lisbon; a total of 75.00 EUR (3 × 25.00).
const EXPECTED: Record<GuestLocale, { subject: string; day: string; total: string; greeting: string }> = {
  en: { subject: 'Booking confirmed: Alfama Walk, 1 July, 10:00', day: 'Thursday, 1 July 2027', total: '€75.00', greeting: 'Hello Eve Adams,' },
  pt: { subject: 'Reserva confirmada: Alfama Walk, 1 de julho, 10:00', day: 'quinta-feira, 1 de julho de 2027', total: '75,00\u00a0€', greeting: 'Olá Eve Adams,' },
  es: { subject: 'Reserva confirmada: Alfama Walk, 1 de julio, 10:00', day: 'jueves, 1 de julio de 2027', total: '75,00\u00a0€', greeting: 'Hola, Eve Adams:' },
  fr: { subject: 'Réservation confirmée\u00a0: Alfama Walk, 1 juillet, 10:00', day: 'jeudi 1 juillet 2027', total: '75,00\u00a0€', greeting: 'Bonjour Eve Adams,' },
  de: { subject: 'Buchung bestätigt: Alfama Walk, 1. Juli, 10:00', day: 'Donnerstag, 1. Juli 2027', total: '75,00\u00a0€', greeting: 'Guten Tag Eve Adams,' },
  it: { subject: 'Prenotazione confermata: Alfama Walk, 1 luglio, 10:00', day: 'giovedì 1 luglio 2027', total: '75,00\u00a0€', greeting: 'Gentile Eve Adams,' },
  nl: { subject: 'Boeking bevestigd: Alfama Walk, 1 juli, 10:00', day: 'donderdag 1 juli 2027', total: '€\u00a075,00', greeting: 'Beste Eve Adams,' },
};

/** Words only the English e-mails use: none may show up in another language's e-mail. */
const ENGLISH = [
  'Hello', 'Thank you', 'Date and time', 'Booking number', 'Questions?', 'Contact us', 'booking', 'Your ',
  'See you', 'Reminder', 'waitlist', 'Places', 'Held for you', 'Gift voucher', 'Valid until', 'Amount', 'Experience', 'Enter the code',
];
const OTHERS = GUEST_LOCALES.filter((l) => l !== 'en');

const waitlistInput = (kind: WaitlistMailInput['kind'], locale: GuestLocale): WaitlistMailInput => ({
  kind,
  locale,
  entry: {
    guestName: 'Eve Adams',
    experienceName: 'Alfama Walk',
    slotStart: Date.parse('2027-07-01T09:00:00Z'),
    slotEnd: Date.parse('2027-07-01T11:00:00Z'),
    tickets: [],
    participants: 3,
    position: kind === 'WAITLIST_JOINED' ? 2 : null,
    totalCents: 7500,
    currency: 'EUR',
    offerExpiresAt: kind === 'WAITLIST_OFFER' ? Date.parse('2027-06-30T20:00:00Z') : null,
  },
  timeZone: 'Europe/Lisbon',
  organization: { name: 'Lisbon Walks', email: 'hello@lisbonwalks.example', phone: null },
  offerUrl: MANAGE_URL,
  to: 'eve@example.com',
  messageId: 'msg_wl1',
  host: 'book.example.com',
});

const voucherInput = (locale: GuestLocale): GiftVoucherMailInput => ({
  locale,
  voucher: { code: 'GV-7K2M-Q9XD-4HTR', amountCents: 7500, currency: 'EUR', expiresAt: Date.parse('2027-07-01T22:59:59Z'), recipientName: 'Eve Adams', message: null },
  timeZone: 'Europe/Lisbon',
  organization: { name: 'Lisbon Walks', email: 'hello@lisbonwalks.example', phone: null },
  to: 'eve@example.com',
  messageId: 'msg_gv1',
  host: 'book.example.com',
});

/** Every e-mail kind a guest gets, in one language. */
function allKinds(locale: GuestLocale): [kind: string, message: MailMessage][] {
  return [
    ...GUEST_MESSAGE_KINDS.map((kind): [string, MailMessage] => [
      kind,
      composeGuestMessage(messageInput({ kind, locale, booking: bookingView(kind === 'BOOKING_CANCELLED' ? { status: 'CANCELLED' } : {}) })),
    ]),
    ...WAITLIST_MESSAGE_KINDS.map((kind): [string, MailMessage] => [kind, composeWaitlistMessage(waitlistInput(kind, locale))]),
    ['GIFT_VOUCHER', composeGiftVoucherMessage(voucherInput(locale))],
  ];
}

/** The visible text of the HTML part, tags and the URL-bearing attributes gone. */
const htmlText = (html: string) => html.replace(/<[^>]*>/g, ' ').replace(/&#39;/g, "'").replace(/&#34;/g, '"').replace(/&#38;/g, '&');

describe('guest e-mails in seven languages', () => {
  it('knows the seven languages, and reads a booking without one (stored before languages) as English', () => {
    expect([...GUEST_LOCALES]).toEqual(['en', 'pt', 'es', 'fr', 'de', 'it', 'nl']);
    expect(guestLocaleOf(null)).toBe('en');
    expect(guestLocaleOf('nl')).toBe('nl');
  });

  for (const locale of GUEST_LOCALES) {
    it(`${locale}: every kind names its language in Content-Language and <html lang>, with no empty text`, () => {
      for (const [kind, m] of allKinds(locale)) {
        expect(m.headers['Content-Language'], kind).toBe(locale);
        expect(m.html, kind).toContain(`<html lang="${locale}">`);
        expect(m.subject.trim(), kind).not.toBe('');
        // No line is a bare label with nothing after it, and no `undefined` slipped in from a missing key.
        expect(m.text, kind).not.toMatch(/\bundefined\b|\bnull\b|NaN/);
        expect(m.html, kind).not.toMatch(/\bundefined\b|NaN/);
      }
    });

    it(`${locale}: the confirmation names the weekday and month, the price as the language writes it, and the day in the subject`, () => {
      const m = composeGuestMessage(messageInput({ locale }));
      const x = EXPECTED[locale];
      expect(m.subject).toBe(x.subject);
      expect(m.text.startsWith(`${x.greeting}\n`)).toBe(true);
      expect(m.text).toContain(`${x.day}, 10:00–12:00 (Europe/Lisbon, UTC+1)`);
      expect(m.text).toContain(`: ${x.total}\n`);
      expect(m.html).toContain(x.day);
      expect(m.html).toContain(x.total);
    });
  }

  for (const locale of OTHERS) {
    it(`${locale}: no English word in any kind, subject, text or HTML`, () => {
      for (const [kind, m] of allKinds(locale)) {
        for (const part of [m.subject, m.text, htmlText(m.html)]) {
          // The organization's, the experience's and the guest's own words are theirs, not ours.
          const ours = part.replaceAll('Alfama Walk', '').replaceAll('Lisbon Walks', '').replaceAll('Eve Adams', '').replaceAll('booking.ics', '');
          for (const word of ENGLISH) expect(ours, `${kind} (${locale}) says "${word}"`).not.toContain(word);
        }
      }
    });
  }

  it('writes prices with Intl: en €25.00, fr and de 25,00 €, nl € 25,00', () => {
    expect(price(2500, 'EUR', GUEST_TEXTS.en.intlLocale)).toBe('€25.00');
    expect(price(2500, 'EUR', GUEST_TEXTS.fr.intlLocale)).toBe('25,00\u00a0€');
    expect(price(2500, 'EUR', GUEST_TEXTS.de.intlLocale)).toBe('25,00\u00a0€');
    expect(price(2500, 'EUR', GUEST_TEXTS.nl.intlLocale)).toBe('€\u00a025,00');
  });

  it('chooses words by Intl.PluralRules: one participant, two participants; French counts 0 as one', () => {
    const { en, fr, de } = GUEST_TEXTS;
    expect(plural(en.participants, 1, en.intlLocale)).toBe('1 participant');
    expect(plural(en.participants, 2, en.intlLocale)).toBe('2 participants');
    expect(plural(en.participants, 0, en.intlLocale)).toBe('0 participants');
    expect(plural(fr.participants, 0, fr.intlLocale)).toBe('0 participant');
    expect(plural(de.participants, 1, de.intlLocale)).toBe('1 Person');
    expect(composeGuestMessage(messageInput({ locale: 'nl', booking: bookingView({ participants: 1, unitPrice: 2500 }) })).text).toContain('Deelnemers: 1 deelnemer\n');
  });

  it('the waitlist offer and the gift voucher write their amounts and days in the language too', () => {
    const offer = composeWaitlistMessage(waitlistInput('WAITLIST_OFFER', 'de'));
    expect(offer.subject).toBe('Plätze für Sie frei: Alfama Walk, 1. Juli, 10:00');
    expect(offer.text).toContain('Gesamtbetrag: 75,00\u00a0€\n');
    expect(offer.text).toContain('Mittwoch, 30. Juni 2027, 21:00');
    const voucher = composeGiftVoucherMessage(voucherInput('fr'));
    expect(voucher.subject).toBe('Votre carte cadeau Lisbon Walks');
    expect(voucher.text).toContain('Montant: 75,00\u00a0€');
    expect(voucher.text).toContain('Valable jusqu’au: 1 juillet 2027');
  });
});

describe('a confirmation in each language through a real SMTP server', () => {
  const closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    await Promise.all(closers.splice(0).map((close) => close()));
  });

  it('arrives with its subject, Content-Language, <html lang>, weekday and month, and price', async () => {
    const server = await startSmtpServer();
    closers.push(server.close);
    const transport = smtpTransport({ url: server.url, from: 'Outing <no-reply@book.example.com>' });
    for (const locale of GUEST_LOCALES) {
      expect(await transport.send(composeGuestMessage(messageInput({ locale })))).toEqual({ accepted: true });
    }
    expect(server.received).toHaveLength(GUEST_LOCALES.length);
    GUEST_LOCALES.forEach((locale, i) => {
      const { mail } = server.received[i]!;
      const x = EXPECTED[locale];
      expect(mail.subject, locale).toBe(x.subject);
      expect(mail.headers.get('content-language'), locale).toBe(locale);
      expect(mail.html, locale).toContain(`<html lang="${locale}">`);
      expect(mail.text, locale).toContain(x.day);
      expect(mail.text, locale).toContain(x.total);
    });
  });
});
