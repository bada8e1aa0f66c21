/** The texts of a waitlist offer's page (the manage page opened by an offer e-mail's link). */
import type { Locale, WaitlistStatus } from '../../shared/index.js';

export interface OfferMessages {
  /** The page's heading, by what became of the entry. */
  titles: Record<WaitlistStatus, string>;
  /** The expiry, already formatted. */
  heldUntil: (when: string) => string;
  places: string;
  book: string;
  decline: string;
  declineTitle: string;
  declineText: string;
  yesDecline: string;
  keepOffer: string;
  bookingNumber: string;
  awaitingPayment: string;
  pay: string;
  booked: string;
  declined: string;
  /** Why there is nothing to answer. */
  why: Partial<Record<WaitlistStatus, string>>;
  /** Times are shown where the guest is: the zone is named. */
  timesIn: (zone: string) => string;
}

export const offerEn: OfferMessages = {
  titles: {
    WAITING: 'You are on the waitlist',
    OFFERED: 'Places are free for you',
    BOOKED: 'Your places are booked',
    EXPIRED: 'This offer has expired',
    CANCELLED: 'This offer is closed',
  },
  heldUntil: (when) => `These places are held for you until ${when}. After that they go to the next guest waiting.`,
  places: 'Places',
  book: 'Book these places',
  decline: 'No thanks',
  declineTitle: 'Let these places go?',
  declineText: 'They will be offered to the next guest waiting. This cannot be undone.',
  yesDecline: 'Yes, let them go',
  keepOffer: 'Keep the offer',
  bookingNumber: 'Booking number',
  awaitingPayment: 'Your booking waits for your payment.',
  pay: 'Continue to payment',
  booked: 'Done: these places are yours. A confirmation is on its way by e-mail.',
  declined: 'Thank you for letting us know: the places go to the next guest waiting.',
  why: {
    WAITING: 'No places have been offered to you yet: we will write when they are.',
    EXPIRED: 'The time to answer has passed, so the places went to the next guest waiting.',
    CANCELLED: 'These places are no longer held for you: the offer was declined, or the entry was removed from the waitlist.',
  },
  timesIn: (zone) => `Times in ${zone}.`,
};

export const offerPt: OfferMessages = {
  titles: {
    WAITING: 'Está na lista de espera',
    OFFERED: 'Há lugares para si',
    BOOKED: 'Os seus lugares estão reservados',
    EXPIRED: 'Esta oferta expirou',
    CANCELLED: 'Esta oferta terminou',
  },
  heldUntil: (when) => `Estes lugares estão guardados para si até ${when}. Depois passam para a pessoa seguinte na lista de espera.`,
  places: 'Lugares',
  book: 'Reservar estes lugares',
  decline: 'Não, obrigado',
  declineTitle: 'Libertar estes lugares?',
  declineText: 'Serão oferecidos à pessoa seguinte na lista de espera. Não é possível anular.',
  yesDecline: 'Sim, libertar',
  keepOffer: 'Manter a oferta',
  bookingNumber: 'Número da reserva',
  awaitingPayment: 'A sua reserva aguarda o pagamento.',
  pay: 'Continuar para o pagamento',
  booked: 'Feito: estes lugares são seus. A confirmação segue por e-mail.',
  declined: 'Obrigado por nos avisar: os lugares passam para a pessoa seguinte na lista de espera.',
  why: {
    WAITING: 'Ainda não lhe foram oferecidos lugares: escreveremos quando forem.',
    EXPIRED: 'O prazo para responder terminou e os lugares passaram para a pessoa seguinte na lista de espera.',
    CANCELLED: 'Estes lugares já não estão guardados para si: a oferta foi recusada ou a inscrição foi retirada da lista de espera.',
  },
  timesIn: (zone) => `Horas em ${zone}.`,
};

export const offerEs: OfferMessages = {
  titles: {
    WAITING: 'Estás en la lista de espera',
    OFFERED: 'Hay plazas libres para ti',
    BOOKED: 'Tus plazas están reservadas',
    EXPIRED: 'Esta oferta ha caducado',
    CANCELLED: 'Esta oferta está cerrada',
  },
  heldUntil: (when) => `Te guardamos estas plazas hasta el ${when}. Después pasan a la siguiente persona de la lista de espera.`,
  places: 'Plazas',
  book: 'Reservar estas plazas',
  decline: 'No, gracias',
  declineTitle: '¿Liberar estas plazas?',
  declineText: 'Se ofrecerán a la siguiente persona de la lista de espera. No se puede deshacer.',
  yesDecline: 'Sí, liberarlas',
  keepOffer: 'Mantener la oferta',
  bookingNumber: 'Número de reserva',
  awaitingPayment: 'Tu reserva está pendiente de pago.',
  pay: 'Continuar al pago',
  booked: 'Hecho: estas plazas son tuyas. Te llegará una confirmación por correo electrónico.',
  declined: 'Gracias por avisarnos: las plazas pasan a la siguiente persona de la lista de espera.',
  why: {
    WAITING: 'Todavía no te hemos ofrecido plazas: te escribiremos cuando las haya.',
    EXPIRED: 'El plazo para responder ha terminado y las plazas han pasado a la siguiente persona de la lista de espera.',
    CANCELLED: 'Ya no te guardamos estas plazas: la oferta se rechazó o la inscripción se retiró de la lista de espera.',
  },
  timesIn: (zone) => `Horas en ${zone}.`,
};

export const offerFr: OfferMessages = {
  titles: {
    WAITING: 'Vous êtes sur la liste d’attente',
    OFFERED: 'Des places se sont libérées pour vous',
    BOOKED: 'Vos places sont réservées',
    EXPIRED: 'Cette offre a expiré',
    CANCELLED: 'Cette offre est close',
  },
  heldUntil: (when) => `Ces places vous sont réservées jusqu’au ${when}. Ensuite, elles iront à la personne suivante sur la liste d’attente.`,
  places: 'Places',
  book: 'Réserver ces places',
  decline: 'Non merci',
  declineTitle: 'Libérer ces places ?',
  declineText: 'Elles seront proposées à la personne suivante sur la liste d’attente. Cette action est définitive.',
  yesDecline: 'Oui, les libérer',
  keepOffer: 'Garder l’offre',
  bookingNumber: 'Numéro de réservation',
  awaitingPayment: 'Votre réservation attend votre paiement.',
  pay: 'Continuer vers le paiement',
  booked: 'C’est fait : ces places sont à vous. Une confirmation arrive par e-mail.',
  declined: 'Merci de nous avoir prévenus : les places vont à la personne suivante sur la liste d’attente.',
  why: {
    WAITING: 'Aucune place ne vous a encore été proposée : nous vous écrirons dès que ce sera le cas.',
    EXPIRED: 'Le délai de réponse est passé : les places sont allées à la personne suivante sur la liste d’attente.',
    CANCELLED: 'Ces places ne vous sont plus réservées : l’offre a été déclinée, ou l’inscription a été retirée de la liste d’attente.',
  },
  timesIn: (zone) => `Horaires : ${zone}.`,
};

export const offerDe: OfferMessages = {
  titles: {
    WAITING: 'Sie stehen auf der Warteliste',
    OFFERED: 'Für Sie sind Plätze frei',
    BOOKED: 'Ihre Plätze sind gebucht',
    EXPIRED: 'Dieses Angebot ist abgelaufen',
    CANCELLED: 'Dieses Angebot ist beendet',
  },
  heldUntil: (when) => `Diese Plätze sind bis ${when} für Sie reserviert. Danach gehen sie an die nächste Person auf der Warteliste.`,
  places: 'Plätze',
  book: 'Diese Plätze buchen',
  decline: 'Nein, danke',
  declineTitle: 'Diese Plätze freigeben?',
  declineText: 'Sie werden der nächsten Person auf der Warteliste angeboten. Das lässt sich nicht rückgängig machen.',
  yesDecline: 'Ja, freigeben',
  keepOffer: 'Angebot behalten',
  bookingNumber: 'Buchungsnummer',
  awaitingPayment: 'Ihre Buchung wartet auf Ihre Zahlung.',
  pay: 'Weiter zur Zahlung',
  booked: 'Erledigt: Diese Plätze gehören Ihnen. Eine Bestätigung kommt per E-Mail.',
  declined: 'Danke für Ihre Nachricht: Die Plätze gehen an die nächste Person auf der Warteliste.',
  why: {
    WAITING: 'Ihnen wurden noch keine Plätze angeboten: Wir schreiben Ihnen, sobald es so weit ist.',
    EXPIRED: 'Die Frist für eine Antwort ist abgelaufen, daher gingen die Plätze an die nächste Person auf der Warteliste.',
    CANCELLED: 'Diese Plätze sind nicht mehr für Sie reserviert: Das Angebot wurde abgelehnt oder der Eintrag von der Warteliste entfernt.',
  },
  timesIn: (zone) => `Uhrzeiten in ${zone}.`,
};

export const offerIt: OfferMessages = {
  titles: {
    WAITING: 'Sei in lista d’attesa',
    OFFERED: 'Ci sono posti liberi per te',
    BOOKED: 'I tuoi posti sono prenotati',
    EXPIRED: 'Questa offerta è scaduta',
    CANCELLED: 'Questa offerta è chiusa',
  },
  heldUntil: (when) => `Questi posti sono tenuti per te fino a ${when}. Dopo passano alla persona successiva in lista d’attesa.`,
  places: 'Posti',
  book: 'Prenota questi posti',
  decline: 'No, grazie',
  declineTitle: 'Liberare questi posti?',
  declineText: 'Saranno offerti alla persona successiva in lista d’attesa. L’operazione non si può annullare.',
  yesDecline: 'Sì, liberali',
  keepOffer: 'Mantieni l’offerta',
  bookingNumber: 'Numero di prenotazione',
  awaitingPayment: 'La tua prenotazione è in attesa del pagamento.',
  pay: 'Vai al pagamento',
  booked: 'Fatto: questi posti sono tuoi. Riceverai una conferma via e-mail.',
  declined: 'Grazie per avercelo detto: i posti passano alla persona successiva in lista d’attesa.',
  why: {
    WAITING: 'Non ti sono ancora stati offerti posti: ti scriveremo appena ci saranno.',
    EXPIRED: 'Il tempo per rispondere è scaduto, quindi i posti sono passati alla persona successiva in lista d’attesa.',
    CANCELLED: 'Questi posti non sono più tenuti per te: l’offerta è stata rifiutata oppure l’iscrizione è stata tolta dalla lista d’attesa.',
  },
  timesIn: (zone) => `Orari: ${zone}.`,
};

export const offerNl: OfferMessages = {
  titles: {
    WAITING: 'Je staat op de wachtlijst',
    OFFERED: 'Er zijn plaatsen vrij voor je',
    BOOKED: 'Je plaatsen zijn geboekt',
    EXPIRED: 'Dit aanbod is verlopen',
    CANCELLED: 'Dit aanbod is gesloten',
  },
  heldUntil: (when) => `Deze plaatsen houden we tot ${when} voor je vast. Daarna gaan ze naar de volgende op de wachtlijst.`,
  places: 'Plaatsen',
  book: 'Deze plaatsen boeken',
  decline: 'Nee, bedankt',
  declineTitle: 'Deze plaatsen vrijgeven?',
  declineText: 'Ze worden aangeboden aan de volgende op de wachtlijst. Dit kan niet ongedaan worden gemaakt.',
  yesDecline: 'Ja, vrijgeven',
  keepOffer: 'Aanbod houden',
  bookingNumber: 'Boekingsnummer',
  awaitingPayment: 'Je boeking wacht op je betaling.',
  pay: 'Verder naar betalen',
  booked: 'Klaar: deze plaatsen zijn van jou. Een bevestiging komt per e-mail.',
  declined: 'Bedankt voor het laten weten: de plaatsen gaan naar de volgende op de wachtlijst.',
  why: {
    WAITING: 'Er zijn je nog geen plaatsen aangeboden: we schrijven je zodra dat zo is.',
    EXPIRED: 'De tijd om te antwoorden is voorbij, dus de plaatsen zijn naar de volgende op de wachtlijst gegaan.',
    CANCELLED: 'Deze plaatsen worden niet meer voor je vastgehouden: het aanbod is afgeslagen of de inschrijving is van de wachtlijst gehaald.',
  },
  timesIn: (zone) => `Tijden in ${zone}.`,
};

/** The offer page's texts by the entry's locale. */
export const offerCatalogs: Record<Locale, OfferMessages> = { en: offerEn, pt: offerPt, es: offerEs, fr: offerFr, de: offerDe, it: offerIt, nl: offerNl };
