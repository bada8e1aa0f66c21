// The words of the guest e-mails, one table per language. Values (names, experiences, links) are
// passed in raw: compose.ts escapes them for HTML after the sentence is built, never before.

export const GUEST_MESSAGE_KINDS = ['BOOKING_CONFIRMED', 'BOOKING_CHANGED', 'BOOKING_CANCELLED', 'BOOKING_REMINDER'] as const;
export type GuestMessageKind = (typeof GUEST_MESSAGE_KINDS)[number];

export const GUEST_LOCALES = ['en', 'pt', 'es', 'fr', 'de', 'it', 'nl'] as const;
export type GuestLocale = (typeof GUEST_LOCALES)[number];

/**
 * The language an e-mail is written in: the booking's or entry's. A booking stored before it had a
 * language (locale null, from the days every e-mail was English) keeps reading as English.
 */
export function guestLocaleOf(locale: string | null | undefined): GuestLocale {
  return (GUEST_LOCALES as readonly (string | null | undefined)[]).includes(locale) ? (locale as GuestLocale) : 'en';
}

/** A word that depends on a number, by its Intl.PluralRules category; `other` when the language has no form of its own. */
export type Plural = { one: (n: number) => string; other: (n: number) => string } & Partial<Record<Exclude<Intl.LDMLPluralRule, 'one' | 'other'>, (n: number) => string>>;

export function plural(forms: Plural, n: number, intlLocale: string): string {
  const form = forms[new Intl.PluralRules(intlLocale).select(n)] ?? forms.other;
  return form(n);
}

/** An amount in minor units as the language writes a price: `€25.00`, `25,00 €`, `€ 25,00`. */
export function price(cents: number, currency: string, intlLocale: string): string {
  return new Intl.NumberFormat(intlLocale, { style: 'currency', currency, minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(cents / 100);
}

export interface GuestTexts {
  /** The BCP 47 tag Intl formats dates with. */
  intlLocale: string;
  subject: Record<GuestMessageKind, (experience: string, when: string) => string>;
  heading: Record<GuestMessageKind, string>;
  /** The opening line; a reseller's guest may come without a name (`null`). */
  greeting: (name: string | null) => string;
  lead: Record<GuestMessageKind, string>;
  label: { experience: string; when: string; tickets: string; participants: string; extras: string; total: string; bookingNumber: string };
  /** The heading over the guest's answers to the experience's questions. */
  answers: string;
  /** A checkbox answer. */
  yes: string;
  no: string;
  participants: Plural;
  awaitingPayment: string;
  manage: string;
  calendar: string;
  /** The experience's guest information (confirmation, change and reminder e-mails). */
  guestInfo: { meetingPoint: string; map: string; instructions: string };
  questions: string;
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
  greeting: (name) => (name === null ? 'Hello,' : `Hello ${name},`),
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
  participants: { one: () => '1 participant', other: (n) => `${n} participants` },
  awaitingPayment: 'awaiting payment',
  manage: 'See, change or cancel your booking',
  calendar: 'Open the attached booking.ics to add it to your calendar.',
  guestInfo: { meetingPoint: 'Meeting point', map: 'Open the map', instructions: 'Before you come' },
  questions: 'Questions? Reply to this e-mail or contact us:',
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
  greeting: (name) => (name === null ? 'Olá,' : `Olá ${name},`),
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
  participants: { one: () => '1 participante', other: (n) => `${n} participantes` },
  awaitingPayment: 'a aguardar pagamento',
  manage: 'Ver, alterar ou cancelar a reserva',
  calendar: 'Abra o ficheiro booking.ics em anexo para acrescentar a reserva ao seu calendário.',
  guestInfo: { meetingPoint: 'Ponto de encontro', map: 'Abrir o mapa', instructions: 'Antes de vir' },
  questions: 'Alguma dúvida? Responda a este e-mail ou contacte-nos:',
  voucher: { label: 'Vale de oferta', amountDue: 'Valor em dívida' },
};


// Spanish of Spain, addressing the guest as usted.
const es: GuestTexts = {
  intlLocale: 'es-ES',
  subject: {
    BOOKING_CONFIRMED: (experience, when) => `Reserva confirmada: ${experience}, ${when}`,
    BOOKING_CHANGED: (experience, when) => `Reserva modificada: ${experience}, ${when}`,
    BOOKING_CANCELLED: (experience, when) => `Reserva cancelada: ${experience}, ${when}`,
    BOOKING_REMINDER: (experience, when) => `Recordatorio: ${experience}, ${when}`,
  },
  heading: {
    BOOKING_CONFIRMED: 'Su reserva está confirmada',
    BOOKING_CHANGED: 'Su reserva se ha modificado',
    BOOKING_CANCELLED: 'Su reserva se ha cancelado',
    BOOKING_REMINDER: '¡Hasta pronto!',
  },
  greeting: (name) => (name === null ? 'Hola:' : `Hola, ${name}:`),
  lead: {
    BOOKING_CONFIRMED: 'Gracias por su reserva. Estos son los detalles.',
    BOOKING_CHANGED: 'Su reserva se ha modificado. Estos son los nuevos detalles.',
    BOOKING_CANCELLED: 'Su reserva se ha cancelado. A continuación le indicamos los datos de la reserva cancelada.',
    BOOKING_REMINDER: 'Le recordamos que su reserva ya está cerca.',
  },
  label: {
    experience: 'Experiencia',
    when: 'Fecha y hora',
    tickets: 'Entradas',
    participants: 'Participantes',
    extras: 'Extras',
    total: 'Total',
    bookingNumber: 'Número de reserva',
  },
  answers: 'Sus respuestas',
  yes: 'Sí',
  no: 'No',
  participants: { one: () => '1 participante', other: (n) => `${n} participantes` },
  awaitingPayment: 'pendiente de pago',
  manage: 'Ver, modificar o cancelar su reserva',
  calendar: 'Abra el archivo adjunto booking.ics para añadir la reserva a su calendario.',
  guestInfo: { meetingPoint: 'Punto de encuentro', map: 'Abrir el mapa', instructions: 'Antes de venir' },
  questions: '¿Tiene alguna pregunta? Responda a este correo o póngase en contacto con nosotros:',
  voucher: { label: 'Tarjeta regalo', amountDue: 'Importe pendiente' },
};

// French, with vous and the non-breaking space French puts before a colon.
const fr: GuestTexts = {
  intlLocale: 'fr-FR',
  subject: {
    BOOKING_CONFIRMED: (experience, when) => `Réservation confirmée\u00a0: ${experience}, ${when}`,
    BOOKING_CHANGED: (experience, when) => `Réservation modifiée\u00a0: ${experience}, ${when}`,
    BOOKING_CANCELLED: (experience, when) => `Réservation annulée\u00a0: ${experience}, ${when}`,
    BOOKING_REMINDER: (experience, when) => `Rappel\u00a0: ${experience}, ${when}`,
  },
  heading: {
    BOOKING_CONFIRMED: 'Votre réservation est confirmée',
    BOOKING_CHANGED: 'Votre réservation a été modifiée',
    BOOKING_CANCELLED: 'Votre réservation a été annulée',
    BOOKING_REMINDER: 'À très bientôt',
  },
  greeting: (name) => (name === null ? 'Bonjour,' : `Bonjour ${name},`),
  lead: {
    BOOKING_CONFIRMED: 'Merci pour votre réservation. En voici le détail.',
    BOOKING_CHANGED: 'Votre réservation a été modifiée. Voici les nouvelles informations.',
    BOOKING_CANCELLED: 'Votre réservation a été annulée. Pour mémoire, voici la réservation concernée.',
    BOOKING_REMINDER: 'Petit rappel\u00a0: votre réservation approche.',
  },
  label: {
    experience: 'Activité',
    when: 'Date et heure',
    tickets: 'Billets',
    participants: 'Participants',
    extras: 'Options',
    total: 'Total',
    bookingNumber: 'Numéro de réservation',
  },
  answers: 'Vos réponses',
  yes: 'Oui',
  no: 'Non',
  participants: { one: (n) => `${n} participant`, other: (n) => `${n} participants` },
  awaitingPayment: 'en attente de paiement',
  manage: 'Consulter, modifier ou annuler votre réservation',
  calendar: 'Ouvrez le fichier booking.ics joint pour ajouter la réservation à votre agenda.',
  guestInfo: { meetingPoint: 'Point de rendez-vous', map: 'Ouvrir le plan', instructions: 'Avant de venir' },
  questions: 'Une question\u00a0? Répondez à cet e-mail ou contactez-nous\u00a0:',
  voucher: { label: 'Carte cadeau', amountDue: 'Reste à payer' },
};

// German, with Sie.
const de: GuestTexts = {
  intlLocale: 'de-DE',
  subject: {
    BOOKING_CONFIRMED: (experience, when) => `Buchung bestätigt: ${experience}, ${when}`,
    BOOKING_CHANGED: (experience, when) => `Buchung geändert: ${experience}, ${when}`,
    BOOKING_CANCELLED: (experience, when) => `Buchung storniert: ${experience}, ${when}`,
    BOOKING_REMINDER: (experience, when) => `Erinnerung: ${experience}, ${when}`,
  },
  heading: {
    BOOKING_CONFIRMED: 'Ihre Buchung ist bestätigt',
    BOOKING_CHANGED: 'Ihre Buchung wurde geändert',
    BOOKING_CANCELLED: 'Ihre Buchung wurde storniert',
    BOOKING_REMINDER: 'Bis bald',
  },
  greeting: (name) => (name === null ? 'Guten Tag,' : `Guten Tag ${name},`),
  lead: {
    BOOKING_CONFIRMED: 'herzlichen Dank für Ihre Buchung. Hier sind die Einzelheiten.',
    BOOKING_CHANGED: 'Ihre Buchung wurde geändert. Hier sind die neuen Einzelheiten.',
    BOOKING_CANCELLED: 'Ihre Buchung wurde storniert. Zu Ihrer Information hier die Angaben der stornierten Buchung.',
    BOOKING_REMINDER: 'Ihre Buchung steht bald an. Hier noch einmal die Einzelheiten.',
  },
  label: {
    experience: 'Erlebnis',
    when: 'Datum und Uhrzeit',
    tickets: 'Tickets',
    participants: 'Personen',
    extras: 'Extras',
    total: 'Gesamtbetrag',
    bookingNumber: 'Buchungsnummer',
  },
  answers: 'Ihre Angaben',
  yes: 'Ja',
  no: 'Nein',
  participants: { one: () => '1 Person', other: (n) => `${n} Personen` },
  awaitingPayment: 'Zahlung ausstehend',
  manage: 'Buchung ansehen, ändern oder stornieren',
  calendar: 'Öffnen Sie die angehängte Datei booking.ics, um die Buchung in Ihren Kalender zu übernehmen.',
  guestInfo: { meetingPoint: 'Treffpunkt', map: 'Karte öffnen', instructions: 'Vor Ihrem Besuch' },
  questions: 'Fragen? Antworten Sie einfach auf diese E-Mail oder kontaktieren Sie uns:',
  voucher: { label: 'Gutschein', amountDue: 'Noch zu zahlen' },
};

// Italian, courteous and in the neutral form (Lei where a pronoun is needed).
const it: GuestTexts = {
  intlLocale: 'it-IT',
  subject: {
    BOOKING_CONFIRMED: (experience, when) => `Prenotazione confermata: ${experience}, ${when}`,
    BOOKING_CHANGED: (experience, when) => `Prenotazione modificata: ${experience}, ${when}`,
    BOOKING_CANCELLED: (experience, when) => `Prenotazione annullata: ${experience}, ${when}`,
    BOOKING_REMINDER: (experience, when) => `Promemoria: ${experience}, ${when}`,
  },
  heading: {
    BOOKING_CONFIRMED: 'La prenotazione è confermata',
    BOOKING_CHANGED: 'La prenotazione è stata modificata',
    BOOKING_CANCELLED: 'La prenotazione è stata annullata',
    BOOKING_REMINDER: 'A presto',
  },
  greeting: (name) => (name === null ? 'Gentile cliente,' : `Gentile ${name},`),
  lead: {
    BOOKING_CONFIRMED: 'grazie per aver prenotato. Ecco i dettagli.',
    BOOKING_CHANGED: 'la prenotazione è stata modificata. Ecco i nuovi dettagli.',
    BOOKING_CANCELLED: 'la prenotazione è stata annullata. Di seguito, per promemoria, i dati della prenotazione annullata.',
    BOOKING_REMINDER: 'le ricordiamo che la sua prenotazione è ormai vicina.',
  },
  label: {
    experience: 'Esperienza',
    when: 'Data e ora',
    tickets: 'Biglietti',
    participants: 'Partecipanti',
    extras: 'Extra',
    total: 'Totale',
    bookingNumber: 'Numero di prenotazione',
  },
  answers: 'Le sue risposte',
  yes: 'Sì',
  no: 'No',
  participants: { one: () => '1 partecipante', other: (n) => `${n} partecipanti` },
  awaitingPayment: 'in attesa di pagamento',
  manage: 'Visualizza, modifica o annulla la prenotazione',
  calendar: 'Apra il file booking.ics allegato per aggiungere la prenotazione al suo calendario.',
  guestInfo: { meetingPoint: 'Punto d’incontro', map: 'Apri la mappa', instructions: 'Prima di venire' },
  questions: 'Domande? Risponda a questa e-mail o ci contatti:',
  voucher: { label: 'Buono regalo', amountDue: 'Importo da pagare' },
};

// Dutch, with u.
const nl: GuestTexts = {
  intlLocale: 'nl-NL',
  subject: {
    BOOKING_CONFIRMED: (experience, when) => `Boeking bevestigd: ${experience}, ${when}`,
    BOOKING_CHANGED: (experience, when) => `Boeking gewijzigd: ${experience}, ${when}`,
    BOOKING_CANCELLED: (experience, when) => `Boeking geannuleerd: ${experience}, ${when}`,
    BOOKING_REMINDER: (experience, when) => `Herinnering: ${experience}, ${when}`,
  },
  heading: {
    BOOKING_CONFIRMED: 'Uw boeking is bevestigd',
    BOOKING_CHANGED: 'Uw boeking is gewijzigd',
    BOOKING_CANCELLED: 'Uw boeking is geannuleerd',
    BOOKING_REMINDER: 'Tot binnenkort',
  },
  greeting: (name) => (name === null ? 'Beste gast,' : `Beste ${name},`),
  lead: {
    BOOKING_CONFIRMED: 'Hartelijk dank voor uw boeking. Hieronder vindt u de gegevens.',
    BOOKING_CHANGED: 'Uw boeking is gewijzigd. Dit zijn de nieuwe gegevens.',
    BOOKING_CANCELLED: 'Uw boeking is geannuleerd. Hieronder ziet u ter informatie de gegevens van de geannuleerde boeking.',
    BOOKING_REMINDER: 'Een herinnering: uw boeking komt eraan.',
  },
  label: {
    experience: 'Activiteit',
    when: 'Datum en tijd',
    tickets: 'Tickets',
    participants: 'Deelnemers',
    extras: 'Extra’s',
    total: 'Totaal',
    bookingNumber: 'Boekingsnummer',
  },
  answers: 'Uw antwoorden',
  yes: 'Ja',
  no: 'Nee',
  participants: { one: () => '1 deelnemer', other: (n) => `${n} deelnemers` },
  awaitingPayment: 'wacht op betaling',
  manage: 'Uw boeking bekijken, wijzigen of annuleren',
  calendar: 'Open het bijgevoegde bestand booking.ics om de boeking aan uw agenda toe te voegen.',
  guestInfo: { meetingPoint: 'Verzamelpunt', map: 'Open de kaart', instructions: 'Voordat u komt' },
  questions: 'Vragen? Beantwoord deze e-mail of neem contact met ons op:',
  voucher: { label: 'Cadeaubon', amountDue: 'Nog te betalen' },
};

export const GUEST_TEXTS: Record<GuestLocale, GuestTexts> = { en, pt, es, fr, de, it, nl };
