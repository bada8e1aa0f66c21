/**
 * The words of the guest information and "Add to calendar", in every language the guest pages
 * speak. They travel with the code that shows them (the widget's confirmation chunk and the manage
 * page), not in widget.js's catalog: widget.js must stay small, and only a confirmed booking needs them.
 */
export interface GuestInfoTexts {
  meetingPoint: string;
  map: string;
  instructions: string;
  addToCalendar: string;
  google: string;
  ics: string;
  /** Said to screen readers after a link that opens a new tab. */
  newTab: string;
  /** `{0}` the guest's name, `{1}` their e-mail. */
  bookedFor: string;
  /** The booking's money beyond its total: `{0}` the promo code, the voucher's mask. */
  discount: string;
  voucher: string;
  due: string;
}

const en: GuestInfoTexts = {
  meetingPoint: 'Meeting point',
  map: 'Open the map',
  instructions: 'Before you come',
  addToCalendar: 'Add to calendar',
  google: 'Google Calendar',
  ics: 'Download .ics file',
  newTab: '(opens in a new tab)',
  bookedFor: 'Booked for {0} ({1}).',
  discount: 'Discount ({0})',
  voucher: 'Gift voucher ({0})',
  due: 'Left to pay',
};

// European Portuguese, as the rest of the widget speaks it.
const pt: GuestInfoTexts = {
  meetingPoint: 'Ponto de encontro',
  map: 'Abrir o mapa',
  instructions: 'Antes de vir',
  addToCalendar: 'Adicionar ao calendário',
  google: 'Google Calendar',
  ics: 'Descarregar ficheiro .ics',
  newTab: '(abre num novo separador)',
  bookedFor: 'Reservado em nome de {0} ({1}).',
  discount: 'Desconto ({0})',
  voucher: 'Vale de oferta ({0})',
  due: 'Falta pagar',
};

const catalogs: Record<string, GuestInfoTexts> = { en, pt };

/** The texts of a BCP 47 tag's primary language, English when we have none. */
export function guestInfoTexts(tag: string): GuestInfoTexts {
  return catalogs[tag.slice(0, 2).toLowerCase()] ?? en;
}
