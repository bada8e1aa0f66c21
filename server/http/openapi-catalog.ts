/**
 * What the OpenAPI document names and shows beyond the shared schemas themselves: the component
 * name of each contract schema, a description of it, and one realistic example of each.
 *
 * Kept beside the document builder rather than as `.meta()` on the schemas in shared/: the widget
 * bundles those schemas, and it has no use for names, prose or example records.
 */
import type { z } from 'zod';
import * as S from '../../shared/index.js';
import type { ErrorCode, IdKind } from '../../shared/index.js';

export interface CatalogEntry {
  schema: z.ZodType;
  name: string;
  description?: string;
}

/**
 * Every schema that gets a name under `components/schemas`. Request bodies and responses have
 * distinct schemas in the contract (`BookingCreate` in, `Booking` out), so one name never has to
 * stand for both an input and an output shape; the builder refuses a name that would.
 */
export const NAMED: CatalogEntry[] = [
  { schema: S.ErrorEnvelope, name: 'Error', description: 'The envelope of every error response.' },
  { schema: S.ErrorCode, name: 'ErrorCode' },
  { schema: S.ErrorDetail, name: 'ErrorDetail', description: 'One problem of a request: the field path and what is wrong.' },
  { schema: S.PriceChangedDetails, name: 'PriceChangedDetails', description: 'The `details` of `PRICE_CHANGED`: what the booking costs now.' },
  { schema: S.Pagination, name: 'Pagination', description: 'Where a page sits in the whole list.' },
  { schema: S.Deleted, name: 'Deleted', description: 'What a deletion answers.' },

  { schema: S.Organization, name: 'Organization', description: 'The organization the secret key belongs to.' },
  { schema: S.OrganizationPatch, name: 'OrganizationPatch', description: 'The fields to change; at least one.' },

  { schema: S.Experience, name: 'Experience', description: 'A bookable tour or activity with its weekly schedule.' },
  { schema: S.ExperienceCreate, name: 'ExperienceCreate' },
  { schema: S.ExperiencePatch, name: 'ExperiencePatch', description: 'The fields to change; at least one.' },
  { schema: S.Schedule, name: 'Schedule', description: 'Weekly local start times and dated exceptions, as stored.' },
  { schema: S.ScheduleInput, name: 'ScheduleInput', description: 'Weekly local start times and dated exceptions.' },
  { schema: S.PublicExperience, name: 'PublicExperience', description: 'What the widget API shows of an experience.' },

  { schema: S.Availability, name: 'Availability', description: 'The time slots of an experience between two dates.' },
  { schema: S.TimeSlotAvailability, name: 'TimeSlotAvailability', description: 'One time slot and the places left in it.' },
  { schema: S.Slot, name: 'Slot', description: 'One departure (an experience at one start): its places, its own capacity, whether it is closed, and its note.' },
  { schema: S.SlotPatch, name: 'SlotPatch', description: 'The settings to change; at least one.' },

  { schema: S.Booking, name: 'Booking', description: 'A booking of a time slot.' },
  { schema: S.BookingStatus, name: 'BookingStatus' },
  { schema: S.BookingExperienceRef, name: 'BookingExperience', description: 'The experience a booking is for.' },
  { schema: S.BookingTimeSlotRef, name: 'BookingTimeSlot', description: 'The time slot a booking holds places in.' },
  { schema: S.BookingCreate, name: 'BookingCreate' },
  { schema: S.BookingPatch, name: 'BookingPatch', description: 'The fields to change; at least one. The guest fields also take their record names (`guestName`…, `totalParticipants`), but not both spellings at once.' },
  { schema: S.BookingCancel, name: 'BookingCancel', description: 'The body may be empty.' },
  { schema: S.Metadata, name: 'Metadata' },
  { schema: S.PublicBookingCreate, name: 'PublicBookingCreate' },
  { schema: S.PublicBooking, name: 'PublicBooking', description: 'What the widget API answers to a booking: nothing the guest did not send.' },
  { schema: S.PublicBookingStatus, name: 'PublicBookingStatus', description: 'What anyone with the booking number may see: no personal data.' },
  { schema: S.GiftVoucherPurchaseCreate, name: 'GiftVoucherPurchaseCreate', description: 'A gift voucher bought online: one of the organization’s amounts, the buyer, and whom it is for.' },
  { schema: S.GiftVoucherCheckout, name: 'GiftVoucherCheckout', description: 'Where the buyer pays.' },
  { schema: S.GiftVoucherOffer, name: 'GiftVoucherOffer', description: 'The gift voucher amounts an organization sells online, and whether a purchase is taken now.' },
  { schema: S.QuoteRequest, name: 'QuoteRequest', description: 'The parts of a booking to price: no guest, no answers.' },
  { schema: S.Quote, name: 'Quote', description: 'What a booking of these parts made now would cost, line by line. Nothing is stored.' },
  { schema: S.QuoteLine, name: 'QuoteLine', description: 'One money line of a quote.' },

  { schema: S.Customer, name: 'Customer', description: 'A guest, as the bookings made with one e-mail address.' },
  { schema: S.CustomerDetail, name: 'CustomerDetail' },
  { schema: S.CustomerErased, name: 'CustomerErased' },

  { schema: S.PromoCode, name: 'PromoCode', description: 'A discount code bookings may take with `promoCode`.' },
  { schema: S.PromoCodeCreate, name: 'PromoCodeCreate' },
  { schema: S.PromoCodePatch, name: 'PromoCodePatch', description: 'Any create field; at least one. The resulting record is checked as a create.' },

  { schema: S.Payment, name: 'Payment', description: 'A payment recorded for a booking, by hand or by the online provider.' },
  { schema: S.PaymentCreate, name: 'PaymentCreate' },
  { schema: S.PaymentStatus, name: 'PaymentStatus' },
  { schema: S.EventPayment, name: 'EventPayment', description: 'The payment as it stands in `PAYMENT_SUCCEEDED` and `PAYMENT_FAILED` events.' },
  { schema: S.GiftVoucher, name: 'GiftVoucher', description: 'A gift voucher: its code (in full only in `/v1/gift-vouchers` answers), balance, status and redemptions.' },
  { schema: S.GiftVoucherCreate, name: 'GiftVoucherCreate' },
  { schema: S.GiftVoucherPatch, name: 'GiftVoucherPatch', description: 'The fields to change; at least one.' },
  { schema: S.GiftVoucherStatus, name: 'GiftVoucherStatus' },
  { schema: S.GiftVoucherMessage, name: 'GiftVoucherMessage', description: 'An e-mail that carried a gift voucher’s code (GIFT_VOUCHER) and how its sending went.' },
  { schema: S.WaitlistEntry, name: 'WaitlistEntry', description: 'A guest waiting for places in a full time slot, or offered them.' },
  { schema: S.WaitlistJoin, name: 'WaitlistJoin' },
  { schema: S.PublicWaitlistJoin, name: 'PublicWaitlistJoin' },
  { schema: S.WaitlistStatus, name: 'WaitlistStatus' },
  { schema: S.WaitlistMessage, name: 'WaitlistMessage', description: 'An e-mail to a waitlist entry’s guest (WAITLIST_JOINED, WAITLIST_OFFER) and how its sending went.' },
  { schema: S.Refund, name: 'Refund', description: 'Money given back on a booking, through Stripe or by hand.' },
  { schema: S.RefundCreate, name: 'RefundCreate' },
  { schema: S.RefundMethod, name: 'RefundMethod' },
  { schema: S.RefundStatus, name: 'RefundStatus' },
  { schema: S.EventRefund, name: 'EventRefund', description: 'The refund as it stands in `PAYMENT_REFUNDED` events.' },

  { schema: S.WebhookEndpoint, name: 'WebhookEndpoint', description: 'A URL that receives signed event deliveries.' },
  { schema: S.WebhookEndpointWithSecret, name: 'WebhookEndpointWithSecret' },
  { schema: S.WebhookEndpointCreate, name: 'WebhookEndpointCreate' },
  { schema: S.WebhookEndpointPatch, name: 'WebhookEndpointPatch', description: 'The fields to change; at least one.' },
  { schema: S.RotatedSecret, name: 'RotatedSecret' },
  { schema: S.Delivery, name: 'Delivery', description: 'The delivery of one event to one endpoint, with its attempts.' },
  { schema: S.EventKind, name: 'EventKind' },
  { schema: S.Message, name: 'Message', description: 'An e-mail to a booking’s guest (confirmation, change, cancellation, reminder) and how its sending went.' },
  { schema: S.MessageKind, name: 'MessageKind' },
  { schema: S.MessageStatus, name: 'MessageStatus' },
  { schema: S.ManagedBooking, name: 'ManagedBooking', description: 'What a guest sees through their manage link: the booking, what they may do, whom to ask.' },
  { schema: S.ManageCancel, name: 'ManageCancel' },
  { schema: S.ManageReschedule, name: 'ManageReschedule' },
  { schema: S.ManageUpdate, name: 'ManageUpdate' },
  { schema: S.ManagedGuestBooking, name: 'ManagedGuestBooking', description: 'A booking as its own guest sees it through the manage link: the public shape and their phone.' },
  { schema: S.WaitlistOffer, name: 'WaitlistOffer', description: 'A waitlist guest’s offer as its e-mail link opens it: the entry, what booking it costs now, whom to ask, and once BOOKED the booking.' },
  { schema: S.WaitlistAccepted, name: 'WaitlistAccepted', description: 'An accepted offer: the entry BOOKED and the booking its places became.' },
  { schema: S.WebhookEvent, name: 'WebhookEvent', description: 'The body of every webhook delivery and of each `/v1/events` entry.' },
  { schema: S.EventData, name: 'WebhookEventData' },
  { schema: S.EventBooking, name: 'EventBooking', description: 'The booking as it stands in events: the record without `experience` and `timeSlot`.' },

  { schema: S.Manifest, name: 'Manifest', description: "A day's time slots with the guests booked in each." },
  { schema: S.ManifestSlot, name: 'ManifestSlot', description: 'One time slot of the day, its places and its CONFIRMED and PENDING bookings.' },
  { schema: S.ManifestBooking, name: 'ManifestBooking', description: 'A booking as the manifest shows it: the guest, the party, the money.' },
  { schema: S.Ticket, name: 'Ticket', description: 'Tickets of one price category in a booking, with the name, type and unit price as booked.' },
  { schema: S.PriceCategory, name: 'PriceCategory', description: 'A price category of an experience (adult, child, …).' },
  { schema: S.DailyReport, name: 'DailyReport', description: 'Bookings, participants, revenue and cancellations per local day.' },
  { schema: S.DailyReportDay, name: 'DailyReportDay', description: 'The figures of one local day.' },
  { schema: S.ExperienceReport, name: 'ExperienceReport', description: 'Bookings, participants, revenue and cancellations per experience over a range of days.' },
  { schema: S.ExperienceReportEntry, name: 'ExperienceReportEntry', description: 'One experience’s figures over the range.' },
  { schema: S.OccupancyReport, name: 'OccupancyReport', description: 'How full the active experiences’ scheduled slots are over a range of days.' },
  { schema: S.ExperienceOccupancy, name: 'ExperienceOccupancy', description: 'One experience’s slots, places and places taken over the range.' },

  { schema: S.CalendarFeed, name: 'CalendarFeed', description: 'A private iCal feed of bookings. Its token and URL are shown only once, on creation.' },
  { schema: S.CalendarFeedWithToken, name: 'CalendarFeedWithToken' },
  { schema: S.CalendarFeedCreate, name: 'CalendarFeedCreate' },
  { schema: S.CalendarImport, name: 'CalendarImport', description: 'An external iCal calendar whose events block time slots.' },
  { schema: S.CalendarImportCreate, name: 'CalendarImportCreate' },
  { schema: S.Activity, name: 'Activity', description: 'One change to the organization’s data, and who made it.' },

  {
    schema: S.ApiKey,
    name: 'ApiKey',
    description: 'An API key as listed: its first characters; the whole value only for a publishable key (public by design) made from version 1.2 on.',
  },
  { schema: S.ApiKeyWithSecret, name: 'ApiKeyWithSecret', description: 'A new key, with its value: a secret key is shown only in this answer.' },
  { schema: S.ApiKeyCreate, name: 'ApiKeyCreate' },
  { schema: S.ApiKeyRevoked, name: 'ApiKeyRevoked' },
  { schema: S.Role, name: 'Role' },
  { schema: S.User, name: 'User', description: 'A person who signs in to the dashboard.' },
  { schema: S.UserWithSetupUrl, name: 'UserWithSetupUrl', description: 'A new user, with the link where they choose a password (shown once).' },
  { schema: S.UserCreate, name: 'UserCreate' },
  { schema: S.UserPatch, name: 'UserPatch', description: 'The fields to change; at least one.' },
  { schema: S.Session, name: 'Session', description: 'Who is signed in, and the CSRF token for `/v1` requests made with the session cookie.' },
  { schema: S.SessionCreate, name: 'SessionCreate' },
  { schema: S.PasswordSetup, name: 'PasswordSetup' },
  { schema: S.SignedOut, name: 'SignedOut' },
];

/** One id of each kind, so that the examples refer to each other consistently. */
export const EXAMPLE_IDS: Record<IdKind, string> = {
  organization: 'org_7Hq2kLm9PzX4',
  experience: 'exp_5Hk2PqW9sLm3Xa',
  booking: 'bk_2Lq8VxN4cR7wTz',
  customer: 'cus_4Wm7JdS2kP9xHb',
  timeSlot: 'ts_8Rz4YtB1nQ6cVe',
  apiKey: 'key_6Tn3GfK8wQ2jLs',
  webhookEndpoint: 'whe_1Cv9XkR5mT3pNd',
  event: 'evt_9Pb4HsW2zL7qKf',
  calendarFeed: 'feed_3Mx8QvT1bR6wYc',
  calendarImport: 'cal_7Dk2NpF9sV4hJm',
  payment: 'pay_5Rw1LtC8xM3qZb',
  delivery: 'dlv_2Jh6VbQ9kS4nXp',
  activity: 'act_8Kq3ZmW6tN1vBx',
  user: 'usr_4Ft9LcJ2pX7sQd',
  setupToken: 'stp_6Vn1RhK8wM3yTc',
  session: 'ses_2Bp7XdQ4zL9mWf',
  priceCategory: 'pc_3Gt8WnR2kV5xLq',
  message: 'msg_9Xc4TbL7qW2mRk',
  refund: 're_6Hs2KwP9vB4nTq',
  question: 'q_3Tb8MwK1xR5nGe',
  extra: 'ex_6Jp2VsD9qL4cWa',
  promoCode: 'promo_4Kd9TwQ2xB7mLs',
  giftVoucher: 'gv_8Nc3RpV6zH1kWt',
  giftVoucherPurchase: 'gvp_5Tq8WmR3xK7nLd',
  waitlistEntry: 'wl_7Rm2KxT9pW4nQc',
};
const id = EXAMPLE_IDS;

const created = '2026-06-01T10:15:42.120Z';
const experienceRef = { id: id.experience, title: 'Sunset kayak tour' };
// 17:30 in Lisbon in June (UTC+1).
const timeSlotRef = { id: id.timeSlot, startTime: '2026-06-13T16:30:00.000Z', endTime: '2026-06-13T18:30:00.000Z' };
const weekly = { fri: ['17:30'], sat: ['09:00', '17:30'], sun: ['09:00'] };
const schedule = { weekly, startDate: '2026-05-01', endDate: '2026-10-31', exceptions: [{ date: '2026-08-15', times: [] }] };
const guest = { customerName: 'Ana Costa', customerEmail: 'ana.costa@example.com' };
// The example experience asks one question and sells one extra; the example booking answers and takes it.
const question = { id: id.question, label: 'Can everyone in the group swim?', type: 'CHECKBOX', options: [], required: true, help: 'Needed for the sea cave' };
const extra = { id: id.extra, name: 'Photo pack', description: 'Every photo our guide takes of your group', price: 1500, per: 'BOOKING', maxQuantity: 1, active: true };
const bookingForm = {
  answers: [{ questionId: question.id, label: question.label, type: question.type, value: true }],
  extras: [{ extraId: extra.id, name: extra.name, per: extra.per, quantity: 1, unitPrice: extra.price }],
};
const formInput = { answers: [{ questionId: question.id, value: true }], extras: [{ extraId: extra.id, quantity: 1 }] };

const bookingMoney = { subtotal: '105.00', discount: null, voucher: null, total: '105.00', amountDue: '105.00' };

const eventBooking = {
  id: id.booking,
  bookingNumber: 'BK-7K3M9Q2D',
  status: 'CONFIRMED',
  customerId: id.customer,
  guestName: guest.customerName,
  guestEmail: guest.customerEmail,
  guestPhone: '+351 912 345 678',
  totalParticipants: 2,
  tickets: [],
  ...bookingForm,
  unitPrice: 4500,
  ...bookingMoney,
  currency: 'EUR',
  amountRefunded: '0.00',
  source: 'API',
  octo: null,
  metadata: { channel: 'front-desk' },
  locale: 'en',
  cancellationReason: null,
  cancelledAt: null,
  holdExpiresAt: null,
  checkedInAt: null,
  internalNote: null,
  createdAt: created,
  updatedAt: created,
};
const booking = { ...eventBooking, experience: experienceRef, timeSlot: timeSlotRef };
/** A waitlist entry holding an offer, as its guest's offer link shows it. */
const offeredEntry = {
  id: id.waitlistEntry,
  status: 'OFFERED',
  position: null,
  experience: experienceRef,
  timeSlot: timeSlotRef,
  places: 2,
  totalParticipants: 2,
  tickets: [],
  guestName: guest.customerName,
  guestEmail: guest.customerEmail,
  guestPhone: '+351 912 345 678',
  locale: 'en',
  offeredAt: '2026-06-10T09:12:00.000Z',
  offerExpiresAt: '2026-06-10T21:12:00.000Z',
  bookingId: null,
  createdAt: '2026-06-02T18:40:00.000Z',
};
const publicBooking = {
  bookingNumber: booking.bookingNumber,
  status: 'CONFIRMED',
  experience: experienceRef,
  timeSlot: timeSlotRef,
  totalParticipants: 2,
  tickets: [],
  ...bookingForm,
  ...bookingMoney,
  currency: 'EUR',
  guestName: guest.customerName,
  guestEmail: guest.customerEmail,
  checkoutUrl: null,
  holdExpiresAt: null,
};

const experience = {
  id: id.experience,
  name: experienceRef.title,
  description: 'Two hours along the cliffs at golden hour, with a stop in a sea cave. **Wetsuits included.**',
  duration: 120,
  price: 4500,
  currency: 'EUR',
  maxParticipants: 12,
  maxPerBooking: 6,
  priceCategories: [],
  meetingPoint: 'Blue kiosk at Praia da Marinha car park',
  meetingPointUrl: 'https://maps.example.com/?q=37.0902,-8.4128',
  guestInstructions: 'Bring a swimsuit and a towel. Arrive 15 minutes early.',
  questions: [question],
  extras: [extra],
  waitlist: true,
};

const customer = {
  id: id.customer,
  name: guest.customerName,
  email: guest.customerEmail,
  phone: '+351 912 345 678',
  bookingCount: 3,
  totalSpent: '270.00',
  currency: 'EUR',
  firstBookingAt: '2026-03-02T09:41:10.000Z',
  lastBookingAt: created,
  createdAt: '2026-03-02T09:41:10.000Z',
  updatedAt: created,
};

const payment = {
  id: id.payment,
  amount: '90.00',
  currency: 'EUR',
  status: 'SUCCEEDED',
  provider: 'manual',
  method: 'CASH',
  failureReason: null,
};

const refund = {
  id: id.refund,
  amount: '20.00',
  currency: 'EUR',
  method: 'CASH',
  status: 'SUCCEEDED',
  reason: 'One guest could not come',
};

const endpoint = {
  id: id.webhookEndpoint,
  url: 'https://hooks.example.com/outing',
  events: ['BOOKING_CREATED', 'BOOKING_CANCELED'],
  description: 'Front-desk tablet',
  enabled: true,
  disabledReason: null,
  createdAt: created,
};

const user = {
  id: id.user,
  email: 'rita.guide@cliffside.example.com',
  name: 'Rita Alves',
  role: 'staff',
  createdAt: '2026-03-02T09:41:10.000Z',
  lastSignInAt: created,
  disabledAt: null,
};

const secret = 'whsec_MfKQ9r8GKYqXTwJg7ULLhHFh5ZfbqrTUl4xSDmOQi9E=';
const feedToken = 'q3Vd9xYJmT2kR8bLwP5nZc7HfG1sA4eU0oN6iKyXvQw';
const eventData = { booking: eventBooking, experience: experienceRef, timeSlot: timeSlotRef };

/** A `WebhookEvent` of each kind, as deliveries and `/v1/events` carry it. */
export const EVENT_EXAMPLES: Record<S.EventKind, unknown> = {
  BOOKING_CREATED: { id: id.event, event: 'BOOKING_CREATED', timestamp: created, data: eventData },
  BOOKING_UPDATED: {
    id: 'evt_4Kd8WnP2rB6tYm',
    event: 'BOOKING_UPDATED',
    timestamp: '2026-06-02T08:03:11.504Z',
    data: {
      ...eventData,
      booking: { ...eventBooking, totalParticipants: 3, subtotal: '150.00', total: '150.00', amountDue: '150.00', updatedAt: '2026-06-02T08:03:11.504Z' },
      changes: { totalParticipants: { from: 2, to: 3 }, total: { from: '105.00', to: '150.00' } },
    },
  },
  BOOKING_CANCELED: {
    id: 'evt_7Qs3FhL9vX2cNb',
    event: 'BOOKING_CANCELED',
    timestamp: '2026-06-05T17:20:00.000Z',
    data: {
      ...eventData,
      booking: {
        ...eventBooking,
        status: 'CANCELLED',
        cancellationReason: 'Guest is ill',
        cancelledAt: '2026-06-05T17:20:00.000Z',
        updatedAt: '2026-06-05T17:20:00.000Z',
      },
    },
  },
  PAYMENT_SUCCEEDED: {
    id: 'evt_2Wv6JtR8mH4pLd',
    event: 'PAYMENT_SUCCEEDED',
    timestamp: '2026-06-01T10:19:03.870Z',
    data: { ...eventData, payment: { ...payment, provider: 'stripe' } },
  },
  PAYMENT_FAILED: {
    id: 'evt_8Nc5BqK1xT7sGf',
    event: 'PAYMENT_FAILED',
    timestamp: '2026-06-01T10:45:42.120Z',
    data: {
      ...eventData,
      booking: { ...eventBooking, status: 'CANCELLED', cancelledAt: '2026-06-01T10:45:42.120Z', updatedAt: '2026-06-01T10:45:42.120Z' },
      payment: { ...payment, id: 'pay_9Ty2DmV6wK1rQh', status: 'FAILED', provider: 'stripe', failureReason: 'expired' },
    },
  },
  PAYMENT_REFUNDED: {
    id: 'evt_5Lr7CwN3tQ8hXs',
    event: 'PAYMENT_REFUNDED',
    timestamp: '2026-06-14T09:05:30.000Z',
    data: {
      ...eventData,
      booking: { ...eventBooking, amountRefunded: '20.00' },
      refund,
    },
  },
};

/** One realistic value of each named schema, keyed by its component name. */
export const EXAMPLES: Record<string, unknown> = {
  Pagination: { total: 1, limit: 20, offset: 0, hasMore: false },
  Deleted: { id: id.experience, deleted: true },

  Organization: {
    id: id.organization,
    name: 'Cliffside Adventures',
    email: 'hello@cliffside.example.com',
    phone: '+351 282 000 000',
    timezone: 'Europe/Lisbon',
    currency: 'EUR',
    onlinePayments: false,
    cancellationCutoffHours: 24,
    guestSelfService: true,
    notificationEmails: ['bookings@cliffside.example.com'],
    notifyOn: ['BOOKING_CREATED', 'BOOKING_CANCELED'],
    brandColor: '#0b7285',
    logoUrl: 'https://cliffside.example.com/logo.png',
    giftVoucherAmounts: ['25.00', '50.00', '100.00'],
    waitlistOfferMinutes: 720,
    defaultLocale: 'pt',
    createdAt: '2026-01-12T08:00:00.000Z',
    updatedAt: created,
  },
  OrganizationPatch: { phone: '+351 282 000 001', defaultLocale: 'pt', notificationEmails: ['bookings@cliffside.example.com', 'guide@cliffside.example.com'], brandColor: '#0b7285' },

  Experience: {
    ...experience,
    schedule: { timezone: null, ...schedule },
    minNoticeMinutes: 120,
    maxAdvanceDays: 180,
    active: true,
    createdAt: '2026-02-20T14:02:09.331Z',
    updatedAt: created,
  },
  ExperienceCreate: {
    name: experience.name,
    description: experience.description,
    duration: 120,
    price: 4500,
    maxParticipants: 12,
    maxPerBooking: 6,
    minNoticeMinutes: 120,
    maxAdvanceDays: 180,
    schedule,
    questions: [{ label: question.label, type: question.type, required: true, help: question.help }],
    extras: [{ name: extra.name, description: extra.description, price: extra.price, maxQuantity: 1 }],
  },
  ExperiencePatch: { price: 5000, maxPerBooking: null },
  PublicExperience: { ...experience, defaultLocale: 'pt' },

  Availability: {
    experienceId: id.experience,
    timezone: 'Europe/Lisbon',
    startDate: '2026-06-13',
    endDate: '2026-06-13',
    slots: [
      { id: 'ts_3Gp7KwM2nV9xRc', startTime: '2026-06-13T08:00:00.000Z', endTime: '2026-06-13T10:00:00.000Z', capacity: 12, booked: 12, remaining: 0, available: false, unavailableReason: 'FULL' },
      { id: id.timeSlot, startTime: timeSlotRef.startTime, endTime: timeSlotRef.endTime, capacity: 12, booked: 2, remaining: 10, available: true, unavailableReason: null },
    ],
  },

  Slot: {
    id: id.timeSlot,
    experienceId: id.experience,
    startTime: timeSlotRef.startTime,
    endTime: timeSlotRef.endTime,
    capacity: 8,
    capacityOverride: 8,
    closed: false,
    note: 'Two guides off sick: smaller group',
    booked: 2,
    remaining: 6,
  },
  SlotPatch: { capacity: 8, note: 'Two guides off sick: smaller group' },

  Booking: booking,
  BookingCreate: {
    experienceId: id.experience,
    startTime: '2026-06-13T17:30:00+01:00',
    participants: 2,
    ...guest,
    customerPhone: '+351 912 345 678',
    ...formInput,
    metadata: { channel: 'front-desk' },
    ignoreNotice: true,
    payment: { method: 'CASH' },
    sendConfirmation: true,
    internalNote: 'Walk-in at the kiosk; wants the front seats',
  },
  BookingPatch: { participants: 3, customerPhone: '+351 913 000 111', internalNote: 'Moved to the 17:30 at their request' },
  BookingCancel: { reason: 'Guest is ill' },
  PublicBookingCreate: { experienceId: id.experience, startTime: '2026-06-13T17:30:00+01:00', participants: 2, ...guest, ...formInput, expectedTotal: '105.00' },
  PublicBooking: publicBooking,
  GiftVoucherPurchaseCreate: {
    amount: '50.00',
    buyerName: 'Ana Costa',
    buyerEmail: 'ana.costa@example.com',
    recipientName: 'Rui Costa',
    recipientEmail: 'rui.costa@example.com',
    message: 'Happy birthday! A sunset on the water, on us.',
  },
  GiftVoucherCheckout: { checkoutUrl: 'https://checkout.stripe.com/c/pay/cs_test_a1B2c3D4e5F6g7H8' },
  GiftVoucherOffer: { amounts: ['25.00', '50.00', '100.00'], currency: 'EUR', available: true },
  QuoteRequest: { experienceId: id.experience, startTime: '2026-06-13T17:30:00+01:00', participants: 2, extras: formInput.extras, promoCode: 'SUMMER10', voucherCode: 'GV-7K3M-9Q2D-X4TB' },
  Quote: {
    currency: 'EUR',
    lines: [
      { kind: 'TICKETS', label: experience.name, quantity: 2, unitPrice: 4500, amount: '90.00' },
      { kind: 'EXTRA', label: extra.name, quantity: 1, unitPrice: extra.price, amount: '15.00' },
      { kind: 'DISCOUNT', label: 'SUMMER10', quantity: 1, unitPrice: -1050, amount: '-10.50' },
      { kind: 'VOUCHER', label: 'GV-••••-••••-X4TB', quantity: 1, unitPrice: -5000, amount: '-50.00' },
    ],
    subtotal: '105.00',
    discount: '10.50',
    voucherAmount: '50.00',
    total: '94.50',
    amountDue: '44.50',
  },
  PublicBookingStatus: {
    bookingNumber: booking.bookingNumber,
    status: 'CONFIRMED',
    experience: experienceRef,
    timeSlot: timeSlotRef,
    totalParticipants: 2,
    tickets: [],
    ...bookingForm,
    ...bookingMoney,
    currency: 'EUR',
    checkoutUrl: null,
    holdExpiresAt: null,
  },

  Customer: customer,
  CustomerDetail: { ...customer, bookings: [booking] },
  CustomerErased: { id: id.customer, erased: true },

  PromoCode: {
    id: id.promoCode,
    code: 'SUMMER10',
    discountType: 'PERCENT',
    discountValue: 10,
    experienceIds: null,
    validFrom: '2026-06-01T00:00:00.000Z',
    validUntil: '2026-09-01T00:00:00.000Z',
    maxUses: 200,
    uses: 37,
    active: true,
    createdAt: '2026-05-20T09:30:00.000Z',
  },
  PromoCodeCreate: { code: 'summer10', discountType: 'PERCENT', discountValue: 10, validFrom: '2026-06-01T00:00:00Z', validUntil: '2026-09-01T00:00:00Z', maxUses: 200 },
  PromoCodePatch: { active: false },

  Payment: {
    ...payment,
    bookingId: id.booking,
    reference: 'Receipt 2026-0412',
    refundRequired: false,
    createdAt: '2026-06-13T16:20:05.000Z',
  },
  PaymentCreate: { amount: '90.00', status: 'SUCCEEDED', method: 'CASH', reference: 'Receipt 2026-0412' },
  GiftVoucher: {
    id: id.giftVoucher,
    code: 'GV-7K2M-Q9XD-4HTR',
    amount: '50.00',
    balance: '20.00',
    currency: 'EUR',
    expiresAt: '2029-06-01T10:15:42.120Z',
    status: 'ACTIVE',
    recipientName: 'Rui Costa',
    recipientEmail: 'rui.costa@example.com',
    message: 'Happy birthday! Enjoy the sea.',
    purchase: { provider: 'stripe', reference: 'pi_3QbT7e2eZvKYlo2C1h5Xc9Lm', amount: '50.00', buyerName: 'Ana Costa', buyerEmail: 'ana.costa@example.com' },
    createdAt: created,
    redemptions: [{ bookingId: id.booking, amount: '30.00', at: '2026-06-05T08:40:11.000Z' }],
  },
  GiftVoucherCreate: { amount: '50.00', recipientName: 'Rui Costa', recipientEmail: 'rui.costa@example.com', message: 'Happy birthday! Enjoy the sea.' },
  GiftVoucherPatch: { status: 'DISABLED' },
  GiftVoucherMessage: {
    id: id.message,
    giftVoucherId: id.giftVoucher,
    kind: 'GIFT_VOUCHER',
    to: 'rui.costa@example.com',
    status: 'SENT',
    attempts: 1,
    lastError: null,
    nextAttemptAt: null,
    sentAt: '2026-06-01T10:15:43.050Z',
    createdAt: created,
  },
  WaitlistEntry: {
    id: id.waitlistEntry,
    status: 'WAITING',
    position: 2,
    experience: experienceRef,
    timeSlot: timeSlotRef,
    places: 2,
    totalParticipants: 2,
    tickets: [],
    guestName: 'Rui Costa',
    guestEmail: 'rui.costa@example.com',
    guestPhone: null,
    locale: 'pt',
    offeredAt: null,
    offerExpiresAt: null,
    bookingId: null,
    createdAt: created,
  },
  WaitlistJoin: { experienceId: id.experience, startTime: timeSlotRef.startTime, participants: 2, customerName: 'Rui Costa', customerEmail: 'rui.costa@example.com', locale: 'pt' },
  PublicWaitlistJoin: { experienceId: id.experience, startTime: timeSlotRef.startTime, participants: 2, customerName: 'Rui Costa', customerEmail: 'rui.costa@example.com', locale: 'pt' },
  WaitlistMessage: {
    id: id.message,
    waitlistEntryId: id.waitlistEntry,
    kind: 'WAITLIST_JOINED',
    to: 'rui.costa@example.com',
    status: 'SENT',
    attempts: 1,
    lastError: null,
    nextAttemptAt: null,
    sentAt: '2026-06-01T10:15:43.050Z',
    createdAt: created,
  },
  Refund: { ...refund, bookingId: id.booking, createdAt: '2026-06-14T09:05:30.000Z' },
  RefundCreate: { amount: '20.00', reason: 'One guest could not come', method: 'CASH' },

  WebhookEndpoint: endpoint,
  WebhookEndpointWithSecret: { ...endpoint, secret },
  WebhookEndpointCreate: { url: endpoint.url, events: endpoint.events, description: endpoint.description },
  WebhookEndpointPatch: { events: ['BOOKING_CREATED', 'BOOKING_UPDATED', 'BOOKING_CANCELED'] },
  RotatedSecret: { secret: 'whsec_3yJv0lqPZ7tYc2bKx9WmN4sR8dF6hG1aE5uT0oIpQ2w=' },
  Delivery: {
    id: id.delivery,
    eventId: id.event,
    event: 'BOOKING_CREATED',
    status: 'SUCCEEDED',
    attempts: 1,
    lastStatusCode: 200,
    lastError: null,
    nextAttemptAt: null,
    createdAt: created,
    deliveredAt: '2026-06-01T10:15:42.480Z',
  },
  WebhookEvent: EVENT_EXAMPLES.BOOKING_CREATED,
  Message: {
    id: id.message,
    bookingId: id.booking,
    kind: 'BOOKING_CONFIRMED',
    to: guest.customerEmail,
    status: 'SENT',
    attempts: 1,
    lastError: null,
    nextAttemptAt: null,
    sentAt: '2026-06-01T10:15:43.050Z',
    createdAt: created,
  },
  ManagedBooking: {
    booking: { ...publicBooking, guestPhone: '+351 912 345 678' },
    locale: 'en',
    timezone: 'Europe/Lisbon',
    canCancel: true,
    canReschedule: true,
    canChangeParty: true,
    canEditContact: true,
    cutoffAt: '2026-06-12T16:30:00.000Z',
    reason: null,
    organization: {
      name: 'Cliffside Adventures',
      email: 'hello@cliffside.example.com',
      phone: '+351 282 000 000',
      brandColor: '#0b7285',
      logoUrl: 'https://cliffside.example.com/logo.png',
    },
    guestInfo: { meetingPoint: experience.meetingPoint, meetingPointUrl: experience.meetingPointUrl, guestInstructions: experience.guestInstructions },
  },
  ManageCancel: { reason: 'Our flight was moved' },
  ManageReschedule: { startTime: '2026-06-14T08:00:00.000Z' },
  ManageUpdate: { participants: 3, customerPhone: '+351 912 345 678' },
  ManagedGuestBooking: { ...publicBooking, guestPhone: '+351 912 345 678' },
  WaitlistOffer: {
    entry: offeredEntry,
    total: '90.00',
    currency: 'EUR',
    organization: { name: 'Cliffside Adventures', email: 'hello@cliffside.example.com', phone: '+351 282 000 000' },
  },
  WaitlistAccepted: {
    entry: { ...offeredEntry, status: 'BOOKED', bookingId: id.booking },
    total: '90.00',
    currency: 'EUR',
    organization: { name: 'Cliffside Adventures', email: 'hello@cliffside.example.com', phone: '+351 282 000 000' },
    booking: publicBooking,
  },

  Manifest: {
    date: '2026-06-13',
    timezone: 'Europe/Lisbon',
    slots: [
      {
        experience: experienceRef,
        timeSlot: { id: 'ts_3Gp7KwM2nV9xRc', startTime: '2026-06-13T08:00:00.000Z', endTime: '2026-06-13T10:00:00.000Z' },
        capacity: 12,
        booked: 0,
        remaining: 12,
        closed: true,
        note: 'Closed: strong wind forecast',
        waitlist: { waiting: 0, offered: 0 },
        bookings: [],
      },
      {
        experience: experienceRef,
        timeSlot: timeSlotRef,
        capacity: 12,
        booked: 2,
        remaining: 10,
        closed: false,
        note: null,
        waitlist: { waiting: 0, offered: 0 },
        bookings: [
          {
            id: id.booking,
            bookingNumber: eventBooking.bookingNumber,
            status: 'CONFIRMED',
            guestName: guest.customerName,
            guestEmail: guest.customerEmail,
            guestPhone: eventBooking.guestPhone,
            totalParticipants: 2,
            tickets: [],
            answers: [],
            extras: [],
            total: '90.00',
            paid: '90.00',
            currency: 'EUR',
            checkedInAt: '2026-06-13T16:21:37.000Z',
            metadata: eventBooking.metadata,
            internalNote: 'Celebrating a birthday',
          },
        ],
      },
    ],
  },
  ManifestCsv:
    'start,experience,bookingNumber,status,guestName,guestEmail,guestPhone,participants,tickets,total,paid,currency,checkedIn,note,extras,answers\r\n' +
    "17:30,Sunset kayak tour,BK-7K3M9Q2D,CONFIRMED,Ana Costa,ana.costa@example.com,'+351 912 345 678,2,,90.00,90.00,EUR,yes,Celebrating a birthday,,\r\n",
  BookingIcs:
    'BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Outing//Outing booking//EN\r\nMETHOD:PUBLISH\r\nBEGIN:VEVENT\r\n' +
    'UID:bk_2Lq8VxN4cR7wTz@book.cliffside.example.com\r\nSEQUENCE:0\r\nDTSTAMP:20260601T101500Z\r\n' +
    'DTSTART:20260613T163000Z\r\nDTEND:20260613T183000Z\r\nSUMMARY:Sunset kayak tour\r\nLOCATION:Blue kiosk at Praia da Marinha car park\r\n' +
    'DESCRIPTION:Booking number: BK-7K3M9Q2D\\nParticipants: 2 participants\\n\\nBefore you come:\\nBring a swimsuit and a towel.\r\n' +
    'STATUS:CONFIRMED\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n',
  DailyReport: {
    timezone: 'Europe/Lisbon',
    currency: 'EUR',
    days: [
      { date: '2026-06-01', bookings: 4, participants: 9, revenue: '405.00', cancellations: 0 },
      { date: '2026-06-02', bookings: 0, participants: 0, revenue: '0.00', cancellations: 1 },
    ],
  },
  DailyReportCsv:
    'date,bookings,participants,revenue,cancellations\r\n' +
    '2026-06-01,4,9,405.00,0\r\n' +
    '2026-06-02,0,0,0.00,1\r\n',
  ExperienceReport: {
    timezone: 'Europe/Lisbon',
    currency: 'EUR',
    startDate: '2026-06-01',
    endDate: '2026-06-30',
    experiences: [{ experience: experienceRef, bookings: 38, participants: 91, revenue: '4095.00', cancellations: 2 }],
  },
  ExperienceReportCsv:
    'experienceId,experience,bookings,participants,revenue,cancellations\r\n' +
    `${experienceRef.id},${experienceRef.title},38,91,4095.00,2\r\n`,
  OccupancyReport: {
    experiences: [{ experience: experienceRef, slots: 62, capacity: 744, booked: 311, occupancy: 0.418 }],
  },

  CalendarFeed: { id: id.calendarFeed, name: 'Guides’ calendar', experienceId: null, createdAt: created },
  CalendarFeedWithToken: {
    id: id.calendarFeed,
    name: 'Guides’ calendar',
    experienceId: null,
    createdAt: created,
    token: feedToken,
    url: `https://outing.example.com/api/ical/${feedToken}`,
  },
  CalendarFeedCreate: { name: 'Guides’ calendar' },
  CalendarImport: {
    id: id.calendarImport,
    name: 'Boat maintenance',
    url: 'https://calendar.example.com/boats/…',
    experienceId: id.experience,
    lastSyncedAt: '2026-06-01T10:00:03.000Z',
    lastError: null,
    eventCount: 4,
    createdAt: '2026-05-20T09:30:00.000Z',
  },
  Activity: {
    id: id.activity,
    actor: { type: 'user', id: id.user, name: 'Marta Sousa' },
    action: 'booking.cancel',
    targetType: 'booking',
    targetId: id.booking,
    summary: `Cancelled ${booking.bookingNumber} (2 guests, ${experienceRef.title})`,
    ip: '203.0.113.24',
    createdAt: created,
  },
  ApiKey: {
    id: id.apiKey,
    name: 'Front desk',
    type: 'secret',
    scopes: ['bookings:read', 'bookings:write'],
    prefix: 'osk_4fT9xKq2',
    key: null,
    createdAt: created,
    lastUsedAt: '2026-06-02T08:03:11.000Z',
    revokedAt: null,
  },
  ApiKeyWithSecret: {
    id: id.apiKey,
    name: 'Front desk',
    type: 'secret',
    scopes: ['bookings:read', 'bookings:write'],
    prefix: 'osk_4fT9xKq2',
    createdAt: created,
    lastUsedAt: null,
    revokedAt: null,
    key: 'osk_4fT9xKq2…',
  },
  ApiKeyCreate: { name: 'Front desk', type: 'secret', scopes: ['bookings:read', 'bookings:write'] },
  ApiKeyRevoked: { id: id.apiKey, revokedAt: '2026-06-05T17:20:00.000Z' },
  User: user,
  UserWithSetupUrl: { ...user, lastSignInAt: null, setupUrl: 'https://outing.example.com/dashboard/setup#Jq4v2XbN9sLk7Tz1Wm3Rc8Hd5Yp0Ge6Fa2Ut9Qo4Vi' },
  UserCreate: { email: user.email, name: user.name, role: 'staff' },
  UserPatch: { role: 'owner' },
  Session: { user, organization: { id: id.organization, name: 'Cliffside Adventures' }, csrfToken: 'Xq7…' },
  SessionCreate: { email: user.email, password: 'correct horse battery staple' },
  PasswordSetup: { token: 'the text after # in the setup link', password: 'correct horse battery staple' },
  SignedOut: { signedOut: true },

  CalendarImportCreate: {
    name: 'Boat maintenance',
    url: 'https://calendar.example.com/boats/maintenance.ics',
    experienceId: id.experience,
  },
};

/** An error example per code; the responses of one status show the codes it can carry. */
export const ERROR_EXAMPLES: Record<ErrorCode, { message: string; details?: S.ErrorDetails }> = {
  VALIDATION_ERROR: {
    message: 'Invalid body: participants must be at least 1',
    details: [{ path: 'participants', message: 'Too small: expected number to be >=1' }],
  },
  INVALID_JSON: { message: 'The body is not valid JSON' },
  INVALID_TOKEN: { message: 'This setup link is not valid: it was used already, has expired or never existed' },
  UNAUTHORIZED: { message: 'Missing API key: send Authorization: Bearer osk_…' },
  INVALID_API_KEY: { message: 'Invalid or revoked API key' },
  INVALID_CREDENTIALS: { message: 'The e-mail address or the password is wrong' },
  FORBIDDEN: { message: 'This key lacks the scope bookings:write' },
  NOT_FOUND: { message: 'Booking not found' },
  SLOT_UNAVAILABLE: { message: 'No bookable time slot starts at 2026-06-13T16:30:00.000Z' },
  CAPACITY_EXCEEDED: { message: 'Not enough places left', details: [{ path: 'participants', message: '1 remaining' }] },
  CAPACITY_BELOW_BOOKED: { message: '6 places are already booked in this departure: its capacity cannot be 4; nothing was changed' },
  PRICE_CHANGED: { message: 'The total is now 99.99, not the expected 25.00: a price changed; nothing was booked', details: { total: '99.99' } },
  PROMO_CODE_INVALID: { message: 'The promo code SUMMER10 has expired', details: { reason: 'EXPIRED' } },
  VOUCHER_INVALID: { message: 'This gift voucher has been used up', details: { reason: 'USED' } },
  PAYMENTS_NOT_CONFIGURED: { message: 'Gift vouchers are not sold online here: online payments, e-mail or the amounts are not set up' },
  ALREADY_ON_WAITLIST: { message: 'This e-mail address is already on the waitlist for this time' },
  SLOT_HAS_PLACES: { message: 'This time still has places for your party: book it instead' },
  OFFER_EXPIRED: { message: 'This offer has expired and its places have gone to the next guest' },
  INVALID_STATUS_TRANSITION: { message: 'A CANCELLED booking cannot become CONFIRMED' },
  CHANGE_NOT_ALLOWED: { message: 'This booking can no longer be changed online: the cutoff was 2026-06-12T16:30:00.000Z' },
  REFUND_EXCEEDS_PAID: { message: 'At most 70.00 EUR of this booking can be refunded: 90.00 was paid and 20.00 refunded already' },
  CONFLICT: { message: 'The currency cannot change once the organization has bookings' },
  IDEMPOTENCY_KEY_IN_USE: { message: 'A request with this Idempotency-Key is still in progress' },
  PAYLOAD_TOO_LARGE: { message: 'The body is larger than 64 KiB' },
  UNSUPPORTED_MEDIA_TYPE: { message: 'Send the body as JSON with Content-Type: application/json' },
  IDEMPOTENCY_KEY_REUSED: { message: 'This Idempotency-Key was used with another request' },
  RATE_LIMITED: { message: 'Rate limit of 120 requests per minute exceeded' },
  INTERNAL_ERROR: { message: 'Something went wrong on our side; quote the X-Request-Id if you contact support' },
  SERVICE_UNAVAILABLE: { message: 'The database cannot be reached right now; try again in a few seconds' },
};
