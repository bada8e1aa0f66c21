/**
 * The Outing contract as zod schemas: the server validates with them, the OpenAPI document is
 * generated from them, and tests assert responses with them. Exports are listed one by one so
 * that the widget's bundle takes only what it imports.
 */
export {
  ID_PREFIXES, idPattern, isTimeZone, canonicalZoneCase, isCalendarDate, InstantInput, Instant, LocalDate, LocalTime, TimeZone,
  Email, MoneyString, Pagination, PageQuery, Deleted, queryInt, DisplayName, hasBidiControl,
  MAX_AMOUNT_CENTS,
} from './schemas/common.js';
export type { IdKind } from './schemas/common.js';
export { ERROR_CODES, ErrorCode, ErrorDetail, ErrorDetails, ErrorEnvelope, PriceChangedDetails, CodeRefusedDetails } from './schemas/error.js';
export { Organization, OrganizationPatch, CurrencyCode, TWO_DECIMAL_CURRENCIES, NOTICE_EVENTS, NoticeEvent, DEFAULT_NOTICE_EVENTS, MAX_NOTIFICATION_EMAILS } from './schemas/organization.js';
export {
  WEEKDAYS, ScheduleInput, Schedule, ExperienceCreate, ExperiencePatch, Experience, ExperienceListQuery,
  PublicExperience, PRICE_CATEGORY_TYPES, PriceCategoryType, PriceCategoryInput, PriceCategoriesInput, PriceCategory,
} from './schemas/experience.js';
export type { Weekday } from './schemas/experience.js';
export {
  QUESTION_TYPES, QuestionType, EXTRA_PER, ExtraPer, QuestionInput, QuestionsInput, Question, ExtraInput, ExtrasInput, Extra,
  AnswerValue, AnswerInput, AnswersInput, BookingExtraInput, BookingExtrasInput, Answer, BookingExtra,
} from './schemas/booking-form.js';
export { bookingLines, percentOf } from './lines.js';
export {
  DISCOUNT_TYPES, DiscountType, CodeInput, GIFT_VOUCHER_CODE, PromoCodeText, promoCodeRules, PromoCodeCreate, PromoCodePatch, PromoCode,
  PromoCodeListQuery, PROMO_CODE_REASONS, VOUCHER_REASONS, GIFT_VOUCHER_STATUSES, GiftVoucherStatus, GiftVoucherCreate, GiftVoucherPatch,
  GiftVoucherRedemption, GiftVoucher, GiftVoucherListQuery, maskVoucherCode,
  GiftVoucherPurchaseCreate,
  GiftVoucherCheckout,
  GiftVoucherOffer,
} from './schemas/promotions.js';
export type { LineKind, MoneyLine, BookingLines, LinesInput, DiscountRule } from './lines.js';
export {
  WAITLIST_STATUSES, WaitlistStatus, WaitlistJoin, PublicWaitlistJoin, WaitlistEntry, WaitlistListQuery, WaitlistOffer, WaitlistAccepted,
} from './schemas/waitlist.js';
export { QuoteRequest, QUOTE_LINE_KINDS, QuoteLine, Quote } from './schemas/quote.js';
export type { BookingInput } from './schemas/booking.js';
export { AvailabilityQuery, OperatorAvailabilityQuery, Availability, TimeSlotAvailability, UNAVAILABLE_REASONS } from './schemas/availability.js';
export {
  BOOKING_STATUSES, BookingStatus, BOOKING_SOURCES, Metadata, InternalNote, BookingPaymentInput, BookingCreate, PublicBookingCreate, BookingPatch,
  BOOKING_PATCH_ALIASES, BookingCancel, Booking, BookingExperienceRef, BookingTimeSlotRef, BookingListQuery, BOOKING_SORTS, BookingSort,
  PublicBooking, BookingDiscount, BookingVoucher,
  PublicBookingStatus, TicketInput, TicketsInput, Ticket, LOCALES, Locale,
} from './schemas/booking.js';
export { Customer, CustomerDetail, CustomerListQuery, CustomerErased } from './schemas/customer.js';
export { PAYMENT_STATUSES, PaymentStatus, PAYMENT_METHODS, PaymentMethod, MANUAL_PAYMENT_METHODS, ManualPaymentMethod, PaymentCreate, Payment, PaymentListQuery, EventPayment } from './schemas/payment.js';
export {
  REFUND_METHODS, RefundMethod, REFUND_STATUSES, RefundStatus, RefundCreate, Refund, RefundListQuery, EventRefund,
} from './schemas/refund.js';
export {
  EVENT_KINDS, EventKind, EventBooking, EventData, WebhookEvent, EventListQuery, WebhookEndpointCreate,
  WebhookEndpointPatch, WebhookEndpoint, WebhookEndpointWithSecret, DELIVERY_STATUSES, Delivery, DeliveryListQuery,
  RotatedSecret,
} from './schemas/webhook-event.js';
export {
  CalendarFeedCreate, CalendarFeed, CalendarFeedWithToken, CalendarImportCreate, CalendarImport, CalendarListQuery,
} from './schemas/calendar.js';
export { ManifestQuery, ManifestBooking, ManifestSlot, Manifest } from './schemas/manifest.js';
export { Slot, SlotPatch } from './schemas/slot.js';
export {
  MAX_REPORT_DAYS, DailyReportQuery, DailyReportDay, DailyReport, OccupancyReportQuery, ExperienceOccupancy, OccupancyReport,
  ExperienceReportQuery, ExperienceReportEntry, ExperienceReport,
} from './schemas/report.js';
export { SCOPES, Scope, ApiKeyType, ApiKey, ApiKeyWithSecret, ApiKeyCreate, ApiKeyRevoked } from './schemas/api-key.js';
export { ACTOR_TYPES, Activity, ActivityListQuery } from './schemas/activity.js';
export { ROLES, Role, User, UserWithSetupUrl, UserCreate, UserPatch } from './schemas/user.js';
export { Password, SessionCreate, PasswordSetup, Session, SignedOut } from './schemas/session.js';
export {
  MESSAGE_KINDS, MessageKind, MESSAGE_STATUSES, MessageStatus, Message, GiftVoucherMessage, WaitlistMessage, GuestInfo, ManagedBooking, ManagedGuestBooking, ManageCancel, ManageReschedule, ManageUpdate,
} from './schemas/message.js';
export { dataEnvelope, listEnvelope } from './schemas/envelope.js';
export {
  OctoUuid, OctoContactInput, OctoUnitItemInput, OctoReserveBody, OctoExtendBody, OctoConfirmBody, OctoUpdateBody, OctoCancelBody,
  OctoBookingListQuery, OCTO_BOOKING_STATUSES, OctoBookingStatus, OctoPricing, OctoContact, OctoBookingAvailability, OctoUnitItem, OctoBooking,
} from './schemas/octo-bookings.js';
