import { zoneOffsetMs } from '../domain/time.js';
import { contactFromJson, holdEndOf, isCancellable, octoStatusOf, unitItemsOf, DEFAULT_OPTION_ID, type OctoBookingView, type OctoSlotNow } from '../domain/octo-booking.js';
import type { OctoBooking } from '../../shared/index.js';
import type { z } from 'zod';
import type { OctoBookingAvailability, OctoPricing } from '../../shared/index.js';

const pad = (n: number) => String(n).padStart(2, '0');

/** `YYYY-MM-DDTHH:MM:SSZ`: UTC, seconds truncated. */
export const octoUtc = (ms: number): string => `${new Date(Math.floor(ms / 1000) * 1000).toISOString().slice(0, 19)}Z`;
const octoUtcOrNull = (ms: number | null): string | null => (ms === null ? null : octoUtc(ms));

/** `YYYY-MM-DDTHH:MM:SS±HH:MM`: the wall time in `zone` with the offset then in force (`+00:00`, never `Z`). */
export function octoLocal(ms: number, zone: string): string {
  const offset = zoneOffsetMs(ms, zone);
  const wall = new Date(Math.floor(ms / 1000) * 1000 + offset).toISOString().slice(0, 19);
  const minutes = Math.round(Math.abs(offset) / 60_000);
  return `${wall}${offset < 0 ? '-' : '+'}${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}`;
}

/** A price in cents in the organization's currency (`octo/pricing`). */
export const octoPrice = (cents: number, currency: string): z.infer<typeof OctoPricing> => ({
  original: cents, retail: cents, net: null, currency, currencyPrecision: 2, includedTaxes: [],
});

function availabilityOf(slot: OctoSlotNow): z.infer<typeof OctoBookingAvailability> {
  return {
    id: slot.id,
    localDateTimeStart: octoLocal(slot.start, slot.zone),
    localDateTimeEnd: octoLocal(slot.end, slot.zone),
    utcCutoffAt: octoUtc(slot.cutoffAt),
    allDay: false,
    available: slot.status === 'AVAILABLE' || slot.status === 'LIMITED',
    status: slot.status,
    vacancies: slot.vacancies,
    capacity: slot.capacity,
    maxUnits: slot.maxUnits,
    openingHours: [],
  };
}

/** The OCTO booking object; with `pricing`, the `octo/pricing` capability's fields too. */
export function serializeOctoBooking(v: OctoBookingView, pricing: boolean): OctoBooking {
  const { booking: b, octo } = v;
  const facts = { status: b.status, holdExpiresAt: b.holdExpiresAt, expiredAt: octo.expiredAt };
  const status = octoStatusOf(facts, v.now);
  const holdEnd = holdEndOf(facts, status);
  const items = unitItemsOf(octo.unitItems);
  const cancellation =
    status === 'CANCELLED'
      ? { refund: 'FULL' as const, reason: b.cancellationReason, utcCancelledAt: octoUtc(b.cancelledAt ?? b.updatedAt) }
      : status === 'EXPIRED'
        ? { refund: 'FULL' as const, reason: 'expired', utcCancelledAt: octoUtc(holdEnd ?? b.updatedAt) }
        : null;
  const booking: OctoBooking = {
    id: b.id,
    uuid: octo.uuid,
    testMode: false,
    resellerReference: octo.resellerReference,
    supplierReference: b.bookingNumber,
    status,
    utcCreatedAt: octoUtc(b.createdAt),
    utcUpdatedAt: octoUtc(b.updatedAt),
    utcExpiresAt: octoUtcOrNull(holdEnd),
    utcRedeemedAt: octoUtcOrNull(b.checkedInAt),
    utcConfirmedAt: octoUtcOrNull(octo.confirmedAt),
    productId: b.experienceId,
    optionId: DEFAULT_OPTION_ID,
    cancellable: isCancellable(status, b.slotStart, v.cancellationCutoffHours, v.now),
    cancellation,
    freesale: false,
    availabilityId: v.slot.id,
    availability: availabilityOf(v.slot),
    contact: contactFromJson(octo.contact),
    notes: b.internalNote,
    deliveryMethods: ['VOUCHER'],
    voucher: {
      redemptionMethod: 'DIGITAL',
      utcRedeemedAt: null,
      deliveryOptions: status === 'CONFIRMED' ? [{ deliveryFormat: 'QRCODE', deliveryValue: b.bookingNumber }] : [],
    },
    unitItems: items.map((i) => ({
      uuid: i.uuid,
      resellerReference: i.resellerReference,
      supplierReference: null,
      unitId: i.unitId,
      status,
      utcRedeemedAt: null,
      contact: i.contact,
      ticket: null,
      ...(pricing ? { pricing: octoPrice(i.priceCents, b.currency) } : {}),
    })),
  };
  if (pricing) booking.pricing = octoPrice(items.reduce((sum, i) => sum + i.priceCents, 0), b.currency);
  return booking;
}
