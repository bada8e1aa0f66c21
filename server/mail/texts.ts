// The words of the guest e-mails, one table per language. Values (names, experiences, links) are
// passed in raw: compose.ts escapes them for HTML after the sentence is built, never before.

export const GUEST_MESSAGE_KINDS = ['BOOKING_CONFIRMED', 'BOOKING_CHANGED', 'BOOKING_CANCELLED', 'BOOKING_REMINDER'] as const;
export type GuestMessageKind = (typeof GUEST_MESSAGE_KINDS)[number];

export const GUEST_LOCALES = ['en', 'pt'] as const;
export type GuestLocale = (typeof GUEST_LOCALES)[number];

/** The language an e-mail is written in: the booking's or entry's when Outing has its texts, else English. */
export function guestLocaleOf(locale: string | null | undefined): GuestLocale {
  return (GUEST_LOCALES as readonly (string | null | undefined)[]).includes(locale) ? (locale as GuestLocale) : 'en';
}

export interface GuestTexts {
  /** The BCP 47 tag Intl formats dates with. */
  intlLocale: string;
  subject: Record<GuestMessageKind, (experience: string, when: string) => string>;
  heading: Record<GuestMessageKind, string>;
  greeting: (name: string) => string;
  lead: Record<GuestMessageKind, string>;
  label: { experience: string; when: string; tickets: string; participants: string; extras: string; total: string; bookingNumber: string };
  /** The heading over the guest's answers to the experience's questions. */
  answers: string;
  /** A checkbox answer. */
  yes: string;
  no: string;
  participants: (n: number) => string;
  awaitingPayment: string;
  manage: string;
  calendar: string;
  /** The experience's guest information (confirmation, change and reminder e-mails). */
  guestInfo: { meetingPoint: string; map: string; instructions: string };
  questions: string;
  /** Money as the language writes it; the amount arrives as the contract's "90.00". */
  money: (amount: string, currency: string) => string;
  /** A booking paid in part with a gift voucher: its line (the mask, never the code) and what is left to pay. */
  voucher: { label: string; amountDue: string };
}

const en: GuestTexts = {
  intlLocale: 'en-GB',
  subject: {
    BOOKING_CONFIRMED: (experience, when) => `Booking confirmed: ${experience}, ${when}`,
    BOOKING_CHANGED: (experience, when) => `Booking changed: ${experience}, ${when}`,
    BOOKING_CANCELLED: (experience, when) => `Booking cancelled: ${experience}, ${when}`,
    BOOKING_REMINDER: (experience, when) => `Reminder: ${experience}, ${when}`,
  },
  heading: {
    BOOKING_CONFIRMED: 'Your booking is confirmed',
    BOOKING_CHANGED: 'Your booking has changed',
    BOOKING_CANCELLED: 'Your booking has been cancelled',
    BOOKING_REMINDER: 'See you soon',
  },
  greeting: (name) => `Hello ${name},`,
  lead: {
    BOOKING_CONFIRMED: 'Thank you for your booking. Here are the details.',
    BOOKING_CHANGED: 'Your booking has been changed. These are the new details.',
    BOOKING_CANCELLED: 'Your booking has been cancelled. This is the booking that no longer stands.',
    BOOKING_REMINDER: 'A reminder of your booking, coming up soon.',
  },
  label: {
    experience: 'Experience',
    when: 'Date and time',
    tickets: 'Tickets',
    participants: 'Participants',
    extras: 'Extras',
    total: 'Total',
    bookingNumber: 'Booking number',
  },
  answers: 'Your answers',
  yes: 'Yes',
  no: 'No',
  participants: (n) => (n === 1 ? '1 participant' : `${n} participants`),
  awaitingPayment: 'awaiting payment',
  manage: 'See, change or cancel your booking',
  calendar: 'Open the attached booking.ics to add it to your calendar.',
  guestInfo: { meetingPoint: 'Meeting point', map: 'Open the map', instructions: 'Before you come' },
  questions: 'Questions? Reply to this e-mail or contact us:',
  money: (amount, currency) => `${amount} ${currency}`,
  voucher: { label: 'Gift voucher', amountDue: 'Amount due' },
};

// European Portuguese, as the widget speaks it.
const pt: GuestTexts = {
  intlLocale: 'pt-PT',
  subject: {
    BOOKING_CONFIRMED: (experience, when) => `Reserva confirmada: ${experience}, ${when}`,
    BOOKING_CHANGED: (experience, when) => `Reserva alterada: ${experience}, ${when}`,
    BOOKING_CANCELLED: (experience, when) => `Reserva cancelada: ${experience}, ${when}`,
    BOOKING_REMINDER: (experience, when) => `Lembrete: ${experience}, ${when}`,
  },
  heading: {
    BOOKING_CONFIRMED: 'A sua reserva está confirmada',
    BOOKING_CHANGED: 'A sua reserva foi alterada',
    BOOKING_CANCELLED: 'A sua reserva foi cancelada',
    BOOKING_REMINDER: 'Até breve',
  },
  greeting: (name) => `Olá ${name},`,
  lead: {
    BOOKING_CONFIRMED: 'Obrigado pela sua reserva. Seguem os detalhes.',
    BOOKING_CHANGED: 'A sua reserva foi alterada. Estes são os novos detalhes.',
    BOOKING_CANCELLED: 'A sua reserva foi cancelada. Esta é a reserva que deixou de estar válida.',
    BOOKING_REMINDER: 'Lembramos que a sua reserva está para breve.',
  },
  label: {
    experience: 'Experiência',
    when: 'Data e hora',
    tickets: 'Bilhetes',
    participants: 'Participantes',
    extras: 'Extras',
    total: 'Total',
    bookingNumber: 'Número da reserva',
  },
  answers: 'As suas respostas',
  yes: 'Sim',
  no: 'Não',
  participants: (n) => (n === 1 ? '1 participante' : `${n} participantes`),
  awaitingPayment: 'a aguardar pagamento',
  manage: 'Ver, alterar ou cancelar a reserva',
  calendar: 'Abra o ficheiro booking.ics em anexo para acrescentar a reserva ao seu calendário.',
  guestInfo: { meetingPoint: 'Ponto de encontro', map: 'Abrir o mapa', instructions: 'Antes de vir' },
  questions: 'Alguma dúvida? Responda a este e-mail ou contacte-nos:',
  money: (amount, currency) => `${amount.replace('.', ',')} ${currency}`,
  voucher: { label: 'Vale de oferta', amountDue: 'Valor em dívida' },
};

export const GUEST_TEXTS: Record<GuestLocale, GuestTexts> = { en, pt };
