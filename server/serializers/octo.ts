import { zoneOffsetMs } from '../domain/time.js';
import { OCTO_OPTION_ID, type OctoCalendarDate, type OctoExperience, type OctoProductFacts, type OctoSlot, type OctoUnitRule } from '../domain/octo.js';
import type { OrganizationRow } from '../store/organizations.js';
import type {
  OctoAvailability,
  OctoCalendarEntry,
  OctoCapability,
  OctoPricing,
  OctoProduct,
  OctoSupplier,
  OctoUnit,
  OctoUnitPricing,
} from '../../shared/schemas/octo.js';

/** What `GET /octo/capabilities` lists. */
export const OCTO_CAPABILITIES: OctoCapability[] = [
  { id: 'octo/pricing', revision: 1, required: false, dependencies: [], docs: null },
];

const two = (n: number) => String(n).padStart(2, '0');

/** A UTC instant as OCTO's `utc…` fields write it: whole seconds (truncated) and `Z`. */
export function octoUtc(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().slice(0, 19) + 'Z';
}

/** An instant as a local date-time in `zone` with the offset then in force, `+00:00` rather than `Z`. */
export function octoLocalDateTime(ms: number, zone: string): string {
  const offset = zoneOffsetMs(ms, zone);
  const local = new Date(Math.floor((ms + offset) / 1000) * 1000).toISOString().slice(0, 19);
  const minutes = Math.round(Math.abs(offset) / 60_000);
  return `${local}${offset < 0 ? '-' : '+'}${two(Math.floor(minutes / 60))}:${two(minutes % 60)}`;
}

/** P(c): an amount in cents of the organization's currency, the same for every price field. */
export function octoPricing(cents: number, currency: string): OctoPricing {
  return { original: cents, retail: cents, net: null, currency, currencyPrecision: 2, includedTaxes: [] };
}

export const octoUnitPricing = (unit: OctoUnitRule, currency: string): OctoUnitPricing => ({
  unitId: unit.id,
  ...octoPricing(unit.price, currency),
});

export function serializeOctoSupplier(org: OrganizationRow, publicUrl: string): OctoSupplier {
  return {
    id: org.id,
    name: org.name,
    endpoint: `${publicUrl.replace(/\/+$/, '')}/octo`,
    contact: { website: null, email: org.email, telephone: org.phone, address: null },
  };
}

function serializeOctoUnit(unit: OctoUnitRule, currency: string, pricing: boolean): OctoUnit {
  return {
    id: unit.id,
    internalName: unit.name,
    reference: null,
    type: unit.type,
    requiredContactFields: [],
    restrictions: {
      minAge: unit.minAge,
      maxAge: unit.maxAge,
      idRequired: false,
      minQuantity: null,
      maxQuantity: null,
      paxCount: unit.paxCount,
      accompaniedBy: [],
    },
    ...(pricing ? { pricingFrom: [octoPricing(unit.price, currency)] } : {}),
  };
}

const maxUnitsOf = (exp: OctoExperience): number => exp.maxPerBooking ?? exp.maxParticipants;

export function serializeOctoProduct(facts: OctoProductFacts, org: OrganizationRow, pricing: boolean): OctoProduct {
  const exp = facts.experience;
  const cutoff = org.cancellationCutoffHours;
  return {
    id: exp.id,
    internalName: exp.name,
    reference: null,
    locale: 'en',
    timeZone: facts.zone,
    allowFreesale: false,
    instantConfirmation: true,
    instantDelivery: true,
    availabilityRequired: true,
    availabilityType: 'START_TIME',
    deliveryFormats: ['QRCODE'],
    deliveryMethods: ['VOUCHER'],
    redemptionMethod: 'DIGITAL',
    options: [
      {
        id: OCTO_OPTION_ID,
        default: true,
        internalName: 'Default',
        reference: null,
        availabilityLocalStartTimes: facts.localStartTimes,
        cancellationCutoff: `${cutoff} hours`,
        cancellationCutoffAmount: cutoff,
        cancellationCutoffUnit: 'hour',
        requiredContactFields: [],
        restrictions: { minUnits: 1, maxUnits: maxUnitsOf(exp) },
        units: facts.units.map((unit) => serializeOctoUnit(unit, org.currency, pricing)),
      },
    ],
    ...(pricing ? { defaultCurrency: org.currency, availableCurrencies: [org.currency], pricingPer: 'UNIT' as const } : {}),
  };
}

export function serializeOctoAvailability(slot: OctoSlot, facts: OctoProductFacts, currency: string, pricing: boolean): OctoAvailability {
  return {
    id: slot.id,
    localDateTimeStart: octoLocalDateTime(slot.start, facts.zone),
    localDateTimeEnd: octoLocalDateTime(slot.end, facts.zone),
    utcCutoffAt: octoUtc(slot.cutoffAt),
    allDay: false,
    available: slot.available,
    status: slot.status,
    vacancies: slot.remaining,
    capacity: slot.capacity,
    maxUnits: maxUnitsOf(facts.experience),
    openingHours: [],
    ...(pricing ? { unitPricing: facts.units.map((unit) => octoUnitPricing(unit, currency)) } : {}),
  };
}

export function serializeOctoCalendarEntry(day: OctoCalendarDate, facts: OctoProductFacts, currency: string, pricing: boolean): OctoCalendarEntry {
  return {
    localDate: day.localDate,
    available: day.available,
    status: day.status,
    vacancies: day.vacancies,
    capacity: day.capacity,
    openingHours: [],
    ...(pricing ? { unitPricingFrom: facts.units.map((unit) => octoUnitPricing(unit, currency)) } : {}),
  };
}
