import {
  OCTO_OPTION_ID,
  OctoRefusal,
  octoAvailable,
  octoCalendarDays,
  octoCutoffAt,
  octoDateRange,
  octoLocalStartTimes,
  octoSelection,
  octoStatus,
  octoUnitsOf,
  placesOfUnits,
  type OctoCalendarDate,
  type OctoProductFacts,
  type OctoSlot,
} from '../domain/octo.js';
import type { SlotPlaces } from '../domain/availability.js';
import { parseSlotId, slotIdPrefixOf } from '../domain/slots.js';
import { addDays, daysBetween, localDateOf, localTodayOf } from '../domain/time.js';
import { categoriesOf } from '../domain/tickets.js';
import { rulesOf, slotPlacesBetween, zoneOf } from './availability.js';
import { getOrganization } from './organizations.js';
import type { ExperienceRow } from '../store/experiences.js';
import type { Store } from '../store/index.js';
import type { OrganizationRow } from '../store/organizations.js';
import type { OctoAvailabilityRequest, OctoCalendarRequest } from '../../shared/schemas/octo.js';

/**
 * The read side of the OCTO supplier API: the organization as a supplier, its experiences as
 * products (one `DEFAULT` option, price categories as units) and their slots as availability.
 * Slots, places and closures are the availability service's: nothing here makes slots of its own.
 */

/** A product with the experience it stands for. */
export type OctoProductOf = OctoProductFacts<ExperienceRow>;

/** The supplier and its products. */
export interface OctoCatalog {
  org: OrganizationRow;
  products: OctoProductOf[];
}

/** One product and its supplier. */
export interface OctoProductIn {
  org: OrganizationRow;
  product: OctoProductOf;
}

const isProduct = (exp: ExperienceRow): boolean => exp.active === 1 && exp.schedule !== null;

function factsOf(exp: ExperienceRow, org: OrganizationRow, now: number): OctoProductOf {
  const zone = zoneOf(exp, org.timezone);
  return {
    experience: exp,
    zone,
    units: octoUnitsOf(categoriesOf(exp.priceCategories), exp.price),
    localStartTimes: octoLocalStartTimes(rulesOf(exp).schedule, localTodayOf(now, zone)),
  };
}

export async function getOctoSupplier(store: Store, orgId: string): Promise<OrganizationRow> {
  return await getOrganization(store, orgId);
}

/** The organization's products, oldest first. */
export async function listOctoProducts(store: Store, orgId: string, now: number): Promise<OctoCatalog> {
  const org = await getOrganization(store, orgId);
  const experiences = await store.experiences.listAllExperiences(orgId);
  return { org, products: experiences.filter(isProduct).map((exp) => factsOf(exp, org, now)) };
}

/**
 * The product `productId` names, or `INVALID_PRODUCT_ID`: an id of no experience of the
 * organization, or of one that is inactive or has no schedule. Only ids of the experience shape
 * reach the store.
 */
export async function getOctoProduct(store: Store, orgId: string, productId: string, now: number): Promise<OctoProductIn> {
  const org = await getOrganization(store, orgId);
  const exp = /^exp_[A-Za-z0-9]{1,64}$/.test(productId) ? await store.experiences.getExperience(orgId, productId) : undefined;
  if (!exp || !isProduct(exp)) throw new OctoRefusal('INVALID_PRODUCT_ID', `There is no product ${productId}`, productId);
  return { org, product: factsOf(exp, org, now) };
}

/** `getOctoProduct`, then the option: `DEFAULT` is the only one (else `INVALID_OPTION_ID`). */
export async function getOctoOption(
  store: Store,
  orgId: string,
  productId: string,
  optionId: string,
  now: number,
): Promise<OctoProductIn> {
  const found = await getOctoProduct(store, orgId, productId, now);
  if (optionId !== OCTO_OPTION_ID) throw new OctoRefusal('INVALID_OPTION_ID', `The product has no option ${optionId}`, optionId);
  return found;
}

/** A `currency` other than the organization's: OCTO prices are in one currency only. */
export function refuseOtherCurrency(org: OrganizationRow, currency: string | undefined): void {
  if (currency !== undefined && currency.toUpperCase() !== org.currency) {
    throw new OctoRefusal('BAD_REQUEST', `Prices are in ${org.currency} only`);
  }
}

export interface OctoAvailabilityAnswer extends OctoProductIn {
  slots: OctoSlot[];
}

function octoSlotOf(slot: SlotPlaces, exp: ExperienceRow, places: number | undefined, now: number): OctoSlot {
  const state = { start: slot.start, capacity: slot.capacity, remaining: slot.remaining, shut: slot.unavailableReason === 'CLOSED' || slot.unavailableReason === 'BLOCKED' };
  const status = octoStatus(state, exp.minNoticeMinutes, now);
  return {
    id: slot.id,
    end: slot.end,
    ...state,
    cutoffAt: octoCutoffAt(slot.start, exp.minNoticeMinutes),
    status,
    available: octoAvailable(status, slot.remaining, places),
  };
}

/**
 * The product's slots between two local dates that have not started, within its booking window,
 * SOLD_OUT and CLOSED ones included, by start.
 */
async function octoSlotsBetween(store: Store, facts: OctoProductOf, from: string, to: string, places: number | undefined, now: number): Promise<OctoSlot[]> {
  const exp = facts.experience;
  // The operator's view keeps the slots inside the notice period (they show CLOSED); those under way go.
  const slots = await slotPlacesBetween(store, exp, facts.zone, from, to, now, { ignoreNotice: true });
  return slots.filter((slot) => slot.start > now).map((slot) => octoSlotOf(slot, exp, places, now));
}

const DAY_MS = 86_400_000;

/**
 * The local dates a set of slot ids could fall on. Ids of another product, of no slot, or of a start
 * outside the days that can still be booked are left out (so that one absurd id cannot stretch the range).
 */
function datesOfIds(ids: readonly string[], exp: ExperienceRow, zone: string, now: number): { from: string; to: string } | null {
  const prefix = slotIdPrefixOf(exp.id);
  const earliest = now - 2 * DAY_MS;
  const latest = now + (exp.maxAdvanceDays + 2) * DAY_MS;
  let first = Infinity;
  let last = -Infinity;
  for (const id of ids) {
    const parsed = parseSlotId(id);
    if (!parsed || parsed.prefix !== prefix || parsed.start < earliest || parsed.start > latest) continue;
    first = Math.min(first, parsed.start);
    last = Math.max(last, parsed.start);
  }
  if (first === Infinity) return null;
  return { from: localDateOf(first, zone), to: localDateOf(last, zone) };
}

/** `POST /octo/availability`: the slots the request selects, with their places and status. */
export async function octoAvailability(store: Store, orgId: string, req: OctoAvailabilityRequest, now: number): Promise<OctoAvailabilityAnswer> {
  const selection = octoSelection(req, daysBetween);
  const found = await getOctoOption(store, orgId, req.productId, req.optionId, now);
  const facts = found.product;
  const places = req.units === undefined ? undefined : placesOfUnits(req.units, facts.units);
  refuseOtherCurrency(found.org, req.currency);
  if (selection.kind === 'dates') {
    return { ...found, slots: await octoSlotsBetween(store, facts, selection.from, selection.to, places, now) };
  }
  const span = datesOfIds(selection.ids, facts.experience, facts.zone, now);
  if (!span) return { ...found, slots: [] };
  // A start in a spring-forward gap belongs to the local date before its instant's: a day's margin
  // (slotsBetween keeps to the days that can still hold a bookable slot, however wide the range).
  const wanted = new Set(selection.ids);
  const slots = await octoSlotsBetween(store, facts, addDays(span.from, -1), span.to, places, now);
  return { ...found, slots: slots.filter((slot) => wanted.has(slot.id)) };
}

/** `POST /octo/availability/calendar`: one entry per local date of the range. */
export async function octoCalendar(
  store: Store,
  orgId: string,
  req: OctoCalendarRequest,
  now: number,
): Promise<OctoProductIn & { dates: OctoCalendarDate[] }> {
  const range = octoDateRange(req.localDateStart, req.localDateEnd, daysBetween);
  const found = await getOctoOption(store, orgId, req.productId, req.optionId, now);
  const facts = found.product;
  const places = req.units === undefined ? undefined : placesOfUnits(req.units, facts.units);
  refuseOtherCurrency(found.org, req.currency);
  const slots = await octoSlotsBetween(store, facts, range.from, range.to, places, now);
  const dates: string[] = [];
  for (let d = range.from; d <= range.to; d = addDays(d, 1)) dates.push(d);
  const days = octoCalendarDays(slots, dates, (slot) => localDateOf(slot.start, facts.zone), (slot) => slot.status);
  return {
    ...found,
    dates: days.map(({ localDate, best, slots: count }) =>
      best
        ? { localDate, status: best.status, available: best.available, vacancies: best.remaining, capacity: best.capacity }
        : { localDate, status: 'CLOSED', available: false, vacancies: 0, capacity: count > 0 ? facts.experience.maxParticipants : 0 },
    ),
  };
}
