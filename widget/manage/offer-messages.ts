/** The texts of a waitlist offer's page (the manage page opened by an offer e-mail's link). */
import type { WaitlistStatus } from '../../shared/index.js';

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
