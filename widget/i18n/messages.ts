
/** Every text the widget shows. One object per language; functions where words depend on numbers. */
export interface Messages {
  /** Visually hidden name of the whole widget region. */
  widget: string;
  step: (n: number, of: number) => string;
  chooseExperience: string;
  chooseDate: string;
  chooseTime: string;
  yourDetails: string;
  confirmed: string;
  paymentDue: string;
  loading: string;
  retry: string;
  back: string;
  select: string;
  perPerson: string;
  noExperiences: string;
  previousMonth: string;
  nextMonth: string;
  noDatesThisMonth: string;
  noTimes: string;
  /** Names the zone the times are shown in, e.g. "Times in Europe/Lisbon (WET)". */
  timesIn: (zone: string) => string;
  placesLeft: (n: number) => string;
  full: string;
  experience: string;
  date: string;
  time: string;
  fewer: string;
  more: string;
  participants: string;
  /** The price categories' group, and the summary's line of them ("2 × Adult, 1 × Child"). */
  tickets: string;
  /** The quantity buttons of one price category, by its name. */
  ticketFewer: (name: string) => string;
  ticketMore: (name: string) => string;
  /** A category's ages, either bound null (0 as no lower bound); '' when neither is set. */
  ages: (min: number | null, max: number | null) => string;
  /** No ticket takes a place; `names` are the categories that do ("Adult, Child"). */
  noPlace: (names: string) => string;
  /** The tickets take all the places one booking may have (the places left at the time say `placesLeft`). */
  perBooking: (n: number) => string;
  name: string;
  email: string;
  phone: string;
  honeypot: string;
  total: string;
  book: string;
  booking: string;
  required: string;
  invalidEmail: string;
  invalidPhone: string;
  bookingNumber: string;
  bookedFor: (name: string, email: string) => string;
  continueToPayment: string;
  bookAnother: string;
  /** Back from the payment page (docs/payments.md): the heading, by where the payment stands. */
  returned: { wait: string; slow: string; fail: string; gone: string };
  stillConfirming: string;
  checkAgain: string;
  notKept: string;
  returnToPayment: string;
  bookAgain: string;
  errors: {
    /** The chosen time went while the guest typed: fresh times show. */
    slotTaken: string;
    network: string;
    rateLimited: string;
    setup: string;
    notFound: string;
    busy: string;
    server: string;
  };
}
