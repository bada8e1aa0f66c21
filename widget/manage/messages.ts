/** Every text of the manage page, beside the widget's own (widget/i18n) that its calendar reuses. */
import type { BookingStatus } from '../../shared/index.js';

export type Reason = 'SELF_SERVICE_OFF' | 'PAST_CUTOFF' | 'NOT_ACTIVE';
export type ManageProblem = 'network' | 'rateLimited' | 'server' | 'notAllowed' | 'slotTaken';

export interface ManageMessages {
  /** The document's title and the page's heading. */
  title: string;
  brokenTitle: string;
  broken: string;
  loading: string;
  retry: string;
  bookingNumber: string;
  status: string;
  statuses: Record<BookingStatus, string>;
  experience: string;
  date: string;
  time: string;
  participants: string;
  tickets: string;
  /** The booking form (docs/booking-form.md): the extras booked, the guest's answers, a checkbox's answer. */
  extras: string;
  answers: string;
  yes: string;
  no: string;
  total: string;
  /** Promo codes and gift vouchers (docs/promotions.md): before the discount, the discount, the voucher's part, what is left to pay. */
  subtotal: string;
  discount: (code: string) => string;
  voucher: (mask: string) => string;
  amountDue: string;
  guest: string;
  cancelBooking: string;
  /** A booking still awaiting its online payment: the way back to the payment page. */
  pay: string;
  changeTime: string;
  confirmCancelTitle: string;
  confirmCancelText: string;
  reasonLabel: string;
  yesCancel: string;
  keepBooking: string;
  cancelling: string;
  cancelled: string;
  newTimeTitle: string;
  confirmChangeTitle: string;
  /** The date and time the booking moves to, already formatted. */
  moveTo: (when: string) => string;
  confirmChange: string;
  otherTime: string;
  keepTime: string;
  changing: string;
  changed: (when: string) => string;
  /** Until when the guest may still change the booking themselves, already formatted. */
  until: (when: string) => string;
  why: Record<Reason, string>;
  contactTitle: string;
  contactText: (name: string) => string;
  emailLabel: string;
  phoneLabel: string;
  problems: Record<ManageProblem, string>;
  /** Changing the party and the contact details (name and phone). */
  changeParty: string;
  changeTickets: string;
  editDetails: string;
  partyHint: string;
  /** The total the booking will have, already formatted. */
  newTotal: (total: string) => string;
  phoneOptional: string;
  save: string;
  saving: string;
  back: string;
  updated: string;
  /** The GOV.UK error pattern: a summary on top, each problem again by its field. */
  errorTitle: string;
  errorPrefix: string;
  errors: {
    participantsNumber: string;
    ticketsNumber: (name: string) => string;
    noTickets: string;
    placesLeft: (n: number) => string;
    perBooking: (n: number) => string;
    slotGone: string;
    partyRefused: string;
    nameMissing: string;
    nameInvalid: string;
    phoneInvalid: string;
  };
}

export const en: ManageMessages = {
  title: 'Your booking',
  brokenTitle: 'This link does not work',
  broken: 'We could not find a booking for this link. Please use the newest link from your e-mails, or contact the company you booked with.',
  loading: 'Loading…',
  retry: 'Retry',
  bookingNumber: 'Booking number',
  status: 'Status',
  statuses: { PENDING: 'Awaiting payment', CONFIRMED: 'Confirmed', CANCELLED: 'Cancelled' },
  experience: 'Experience',
  date: 'Date',
  time: 'Time',
  participants: 'Participants',
  tickets: 'Tickets',
  extras: 'Extras',
  answers: 'Your answers',
  yes: 'Yes',
  no: 'No',
  total: 'Total',
  subtotal: 'Subtotal',
  discount: (code) => `Discount (${code})`,
  voucher: (mask) => `Gift voucher (${mask})`,
  amountDue: 'Left to pay',
  guest: 'Name',
  cancelBooking: 'Cancel booking',
  pay: 'Continue to payment',
  changeTime: 'Change time',
  confirmCancelTitle: 'Cancel this booking?',
  confirmCancelText: 'Your places will be given up. This cannot be undone.',
  reasonLabel: 'Reason (optional)',
  yesCancel: 'Yes, cancel booking',
  keepBooking: 'Keep booking',
  cancelling: 'Cancelling…',
  cancelled: 'Your booking is cancelled.',
  newTimeTitle: 'Choose a new time',
  confirmChangeTitle: 'Confirm the new time',
  moveTo: (when) => `Move your booking to ${when}?`,
  confirmChange: 'Confirm change',
  otherTime: 'Choose another time',
  keepTime: 'Keep the current time',
  changing: 'Changing…',
  changed: (when) => `Your booking now starts ${when}.`,
  until: (when) => `You can cancel or change this booking online until ${when}.`,
  why: {
    SELF_SERVICE_OFF: 'This booking cannot be changed or cancelled online.',
    PAST_CUTOFF: 'It is too close to the start to change or cancel this booking online.',
    NOT_ACTIVE: 'This booking can no longer be changed.',
  },
  contactTitle: 'Contact',
  contactText: (name) => `For any change or question, contact ${name}.`,
  emailLabel: 'E-mail',
  phoneLabel: 'Phone',
  problems: {
    network: 'We could not reach the booking service. Check your connection and try again.',
    rateLimited: 'Too many attempts. Please wait a moment and try again.',
    server: 'Something went wrong on our side. Please try again.',
    notAllowed: 'This booking can no longer be changed online.',
    slotTaken: 'Sorry, that time has just been taken or has too few places left. Please choose another.',
  },
  changeParty: 'Change participants',
  changeTickets: 'Change tickets',
  editDetails: 'Edit details',
  partyHint: 'Adding people needs free places at this time.',
  newTotal: (total) => `New total: ${total}`,
  phoneOptional: 'Phone (optional)',
  save: 'Save changes',
  saving: 'Saving…',
  back: 'Back to your booking',
  updated: 'Your booking has been updated.',
  errorTitle: 'There is a problem',
  errorPrefix: 'Error:',
  errors: {
    participantsNumber: 'Enter the number of participants as a whole number, 1 or more',
    ticketsNumber: (name) => `Enter the number of ${name} tickets as a whole number, 0 or more`,
    noTickets: 'Choose at least 1 ticket',
    placesLeft: (n) => (n === 0 ? 'There are no places left at this time' : `There are only ${n} ${n === 1 ? 'place' : 'places'} for your booking at this time`),
    perBooking: (n) => `A booking can have at most ${n} people`,
    slotGone: 'Places can no longer be added at this time',
    partyRefused: 'This booking cannot have this party; please contact the organization',
    nameMissing: 'Enter your name',
    nameInvalid: 'Enter your name with letters, spaces and punctuation only',
    phoneInvalid: 'Enter a phone number of up to 40 characters',
  },
};

// European Portuguese, as the widget's catalog (widget/i18n/pt.json).
export const pt: ManageMessages = {
  title: 'A sua reserva',
  brokenTitle: 'Esta ligação não funciona',
  broken: 'Não encontrámos nenhuma reserva para esta ligação. Use a ligação mais recente dos seus e-mails ou contacte a empresa onde reservou.',
  loading: 'A carregar…',
  retry: 'Tentar novamente',
  bookingNumber: 'Número da reserva',
  status: 'Estado',
  statuses: { PENDING: 'A aguardar pagamento', CONFIRMED: 'Confirmada', CANCELLED: 'Cancelada' },
  experience: 'Experiência',
  date: 'Data',
  time: 'Hora',
  participants: 'Participantes',
  tickets: 'Bilhetes',
  extras: 'Extras',
  answers: 'As suas respostas',
  yes: 'Sim',
  no: 'Não',
  total: 'Total',
  subtotal: 'Subtotal',
  discount: (code) => `Desconto (${code})`,
  voucher: (mask) => `Vale de oferta (${mask})`,
  amountDue: 'Falta pagar',
  guest: 'Nome',
  cancelBooking: 'Cancelar reserva',
  pay: 'Continuar para o pagamento',
  changeTime: 'Alterar horário',
  confirmCancelTitle: 'Cancelar esta reserva?',
  confirmCancelText: 'Os seus lugares serão libertados. Esta ação não pode ser desfeita.',
  reasonLabel: 'Motivo (opcional)',
  yesCancel: 'Sim, cancelar reserva',
  keepBooking: 'Manter reserva',
  cancelling: 'A cancelar…',
  cancelled: 'A sua reserva foi cancelada.',
  newTimeTitle: 'Escolha um novo horário',
  confirmChangeTitle: 'Confirme o novo horário',
  moveTo: (when) => `Mudar a sua reserva para ${when}?`,
  confirmChange: 'Confirmar alteração',
  otherTime: 'Escolher outro horário',
  keepTime: 'Manter o horário atual',
  changing: 'A alterar…',
  changed: (when) => `A sua reserva passa para ${when}.`,
  until: (when) => `Pode cancelar ou alterar esta reserva online até ${when}.`,
  why: {
    SELF_SERVICE_OFF: 'Esta reserva não pode ser alterada nem cancelada online.',
    PAST_CUTOFF: 'Falta muito pouco para o início: já não é possível alterar nem cancelar esta reserva online.',
    NOT_ACTIVE: 'Esta reserva já não pode ser alterada.',
  },
  contactTitle: 'Contacto',
  contactText: (name) => `Para qualquer alteração ou dúvida, contacte ${name}.`,
  emailLabel: 'E-mail',
  phoneLabel: 'Telefone',
  problems: {
    network: 'Não foi possível contactar o serviço de reservas. Verifique a ligação e tente novamente.',
    rateLimited: 'Demasiadas tentativas. Aguarde um momento e tente novamente.',
    server: 'Ocorreu um erro do nosso lado. Tente novamente.',
    notAllowed: 'Esta reserva já não pode ser alterada online.',
    slotTaken: 'Lamentamos, esse horário acabou de ser reservado ou já não tem lugares suficientes. Escolha outro.',
  },
  changeParty: 'Alterar participantes',
  changeTickets: 'Alterar bilhetes',
  editDetails: 'Editar dados',
  partyHint: 'Para acrescentar pessoas é preciso haver lugares livres neste horário.',
  newTotal: (total) => `Novo total: ${total}`,
  phoneOptional: 'Telefone (opcional)',
  save: 'Guardar alterações',
  saving: 'A guardar…',
  back: 'Voltar à reserva',
  updated: 'A sua reserva foi atualizada.',
  errorTitle: 'Há um problema',
  errorPrefix: 'Erro:',
  errors: {
    participantsNumber: 'Indique o número de participantes como número inteiro, 1 ou mais',
    ticketsNumber: (name) => `Indique o número de bilhetes ${name} como número inteiro, 0 ou mais`,
    noTickets: 'Escolha pelo menos 1 bilhete',
    placesLeft: (n) => (n === 0 ? 'Já não há lugares neste horário' : `Só há ${n} ${n === 1 ? 'lugar' : 'lugares'} para a sua reserva neste horário`),
    perBooking: (n) => `Uma reserva pode ter no máximo ${n} pessoas`,
    slotGone: 'Já não é possível acrescentar lugares neste horário',
    partyRefused: 'Esta reserva não pode ter este grupo; contacte a organização',
    nameMissing: 'Indique o seu nome',
    nameInvalid: 'Indique o seu nome só com letras, espaços e pontuação',
    phoneInvalid: 'Indique um número de telefone com até 40 caracteres',
  },
};
