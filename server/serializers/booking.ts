import type { BookingView } from '../store/bookings.js';
import { ticketsOf } from '../domain/tickets.js';
import { answersOf, bookingExtrasOf, bookingFigures, type BookingFigures } from '../domain/booking-form.js';
import { formatMoney } from '../domain/money.js';
import { slotId } from '../domain/slots.js';
import { iso, isoOrNull } from './instant.js';
import type { Booking, PublicBooking } from '../../shared/index.js';

export function serializeTimeSlot(b: Pick<BookingView, 'experienceId' | 'slotStart' | 'slotEnd'>): Booking['timeSlot'] {
  return { id: slotId(b.experienceId, b.slotStart), startTime: iso(b.slotStart), endTime: iso(b.slotEnd) };
}

/** The money fields of a booking's record (§19), from its figures. */
function moneyFields(f: BookingFigures): Pick<Booking, 'subtotal' | 'discount' | 'voucher' | 'total' | 'amountDue'> {
  return {
    subtotal: formatMoney(f.subtotal),
    discount: f.discount && { code: f.discount.code, amount: formatMoney(f.discount.cents) },
    voucher: f.voucher && { code: f.voucher.mask, amount: formatMoney(f.voucher.cents) },
    total: formatMoney(f.total),
    amountDue: formatMoney(f.due),
  };
}

export function serializeBooking(b: BookingView): Booking {
  return {
    id: b.id,
    bookingNumber: b.bookingNumber,
    status: b.status,
    experience: { id: b.experienceId, title: b.experienceName },
    timeSlot: serializeTimeSlot(b),
    customerId: b.customerId,
    guestName: b.guestName,
    guestEmail: b.guestEmail,
    guestPhone: b.guestPhone,
    totalParticipants: b.participants,
    tickets: ticketsOf(b.tickets),
    answers: answersOf(b.answers),
    extras: bookingExtrasOf(b.extras),
    unitPrice: b.tickets === null ? b.unitPrice : null,
    ...moneyFields(bookingFigures(b)),
    currency: b.currency,
    amountRefunded: formatMoney(b.amountRefunded),
    source: b.source,
    octo: b.octo,
    metadata: JSON.parse(b.metadata) as Record<string, string>,
    locale: b.locale ?? 'en',
    cancellationReason: b.cancellationReason,
    cancelledAt: isoOrNull(b.cancelledAt),
    holdExpiresAt: isoOrNull(b.holdExpiresAt),
    checkedInAt: isoOrNull(b.checkedInAt),
    internalNote: b.internalNote,
    createdAt: iso(b.createdAt),
    updatedAt: iso(b.updatedAt),
  };
}

/** What a guest sees of their booking: nothing about other customers, no internal ids beyond the slot. */
export function serializePublicBooking(b: BookingView): PublicBooking {
  return {
    bookingNumber: b.bookingNumber,
    status: b.status,
    experience: { id: b.experienceId, title: b.experienceName },
    timeSlot: serializeTimeSlot(b),
    totalParticipants: b.participants,
    tickets: ticketsOf(b.tickets),
    answers: answersOf(b.answers),
    extras: bookingExtrasOf(b.extras),
    ...moneyFields(bookingFigures(b)),
    currency: b.currency,
    guestName: b.guestName,
    guestEmail: b.guestEmail,
    checkoutUrl: b.status === 'PENDING' ? b.checkoutUrl : null,
    holdExpiresAt: isoOrNull(b.holdExpiresAt),
  };
}
