import type { Context, Next } from 'hono';
import { cors } from 'hono/cors';
import { ApiRoutes, type RouteContext } from '../http/router.js';
import { created, list, ok, pageOf } from '../http/reply.js';
import { Refusal, notFound, invalid } from '../domain/refusal.js';
import { RateLimiter } from '../http/rate-limit.js';
import type { AppEnv } from '../http/context.js';
import { formatMoney } from '../domain/money.js';
import { BOOKING_NUMBER_RE } from '../domain/ids.js';
import { serializeBooking, serializeExperience } from '../serialize.js';
import { availabilityOf } from '../services/availability.js';
import { AvailabilityCache, cachedAvailability } from '../services/availability-cache.js';
import { createBooking } from '../services/bookings.js';
import { bookWithCheckout, hostPageOf, onlinePaymentDue, type OnlinePayments } from '../payments/checkout.js';
import type { BookingView } from '../store/bookings.js';
import {
  Availability,
  AvailabilityQuery,
  PageQuery,
  PublicBooking,
  PublicBookingCreate,
  PublicBookingStatus,
  PublicExperience,
} from '../../shared/index.js';
import { z } from 'zod';

export interface PublicLimits {
  bookingsPerMinute: number;
  requestsPerMinute: number;
}

/** What a guest sees of their booking: nothing about other customers, no internal ids beyond the slot. */
export function publicBooking(b: BookingView): PublicBooking {
  const record = serializeBooking(b);
  return {
    bookingNumber: record.bookingNumber,
    status: record.status,
    experience: record.experience,
    timeSlot: record.timeSlot,
    totalParticipants: record.totalParticipants,
    total: formatMoney(b.unitPrice * b.participants),
    currency: record.currency,
    guestName: record.guestName,
    guestEmail: record.guestEmail,
    checkoutUrl: b.status === 'PENDING' ? b.checkoutUrl : null,
    holdExpiresAt: record.holdExpiresAt,
  };
}

/** CORS for any origin, without credentials: the widget runs on other people's sites. */
export const publicCors = cors({
  origin: '*',
  allowMethods: ['GET', 'POST', 'OPTIONS'],
  allowHeaders: ['Content-Type', 'X-Outing-Key', 'Idempotency-Key', 'X-Request-Id'],
  exposeHeaders: ['X-Request-Id', 'Retry-After', 'Idempotent-Replayed'],
  maxAge: 600,
  credentials: false,
});

/** Per client IP: booking POSTs and everything else have separate budgets (SPEC §10). */
export function publicRateLimit(limits: PublicLimits, now: () => number) {
  const limiter = new RateLimiter(now);
  return async (c: Context<AppEnv>, next: Next) => {
    if (c.req.method === 'OPTIONS') return next();
    const booking = c.req.method === 'POST' && /\/bookings\/?$/.test(c.req.path);
    const limit = booking ? limits.bookingsPerMinute : limits.requestsPerMinute;
    if (limit > 0) {
      const decision = limiter.hit(`${booking ? 'b' : 'r'}:${c.get('clientIp')}`, limit);
      if (!decision.allowed) {
        throw new Refusal('RATE_LIMITED', `Too many requests from this address; retry in ${decision.resetSeconds} s`, undefined, decision.resetSeconds);
      }
    }
    return next();
  };
}

const PublicExperienceQuery = z.strictObject({ ...PageQuery });

/** `online`: set when this server takes online payment (SPEC §11). */
export function publicRoutes(ctx: RouteContext, online?: OnlinePayments): ApiRoutes {
  const tag = 'Public (widget)';
  const { store } = ctx;
  const availabilityCache = new AvailabilityCache();
  const activeExperience = (orgId: string, id: string) => {
    const exp = store.getExperience(orgId, id);
    if (!exp || exp.active !== 1) throw notFound('Experience');
    return exp;
  };
  const toPublic = (orgId: string, exp: Parameters<typeof serializeExperience>[0]) => {
    const full = serializeExperience(exp, store.getOrganization(orgId)?.currency ?? 'USD');
    return PublicExperience.parse(full);
  };

  return new ApiRoutes(ctx)
    .op(
      { method: 'get', path: '/experiences', summary: 'Active experiences of the key’s organization', tag, auth: 'publishable', query: PublicExperienceQuery, response: PublicExperience, list: true },
      ({ caller, query }) => {
        const page = pageOf(query);
        const { rows, total } = store.listExperiences(caller.orgId, { active: true }, page);
        return list(rows.map((r) => toPublic(caller.orgId, r)), total, page);
      },
    )
    .op(
      { method: 'get', path: '/experiences/:id', summary: 'One active experience', tag, auth: 'publishable', params: { id: 'experience' }, response: PublicExperience },
      ({ caller, params }) => ok(toPublic(caller.orgId, activeExperience(caller.orgId, params.id))),
    )
    .op(
      { method: 'get', path: '/availability', summary: 'Availability, as GET /v1/availability', tag, auth: 'publishable', query: AvailabilityQuery, response: Availability },
      ({ caller, query }) => {
        const now = ctx.now();
        const key = [caller.orgId, query.experienceId, query.startDate, query.endDate, query.participants].join('|');
        return cachedAvailability(availabilityCache, store, key, now, () => {
          const exp = activeExperience(caller.orgId, query.experienceId);
          const org = store.getOrganization(caller.orgId);
          if (!org) throw notFound('Experience');
          return { availability: availabilityOf(store, exp, org.timezone, query, now), minNoticeMinutes: exp.minNoticeMinutes };
        });
      },
    )
    .op(
      {
        method: 'post',
        path: '/bookings',
        summary: 'Book as a guest (source WIDGET)',
        description:
          'The body of POST /v1/bookings without metadata. `website` is a honeypot for bots: it must be absent or empty. ' +
          '`checkoutUrl` is null unless online payment is due. With online payment (a priced experience, Stripe configured, ' +
          'the org’s `onlinePayments` on) the booking is PENDING, holds its places until `holdExpiresAt`, and `checkoutUrl` ' +
          'is the payment page; after paying (or giving up) the guest returns to the page that made the request (its ' +
          '`Referer`, else its `Origin`) with `outing_booking={bookingNumber}&outing_status=success|cancel` appended.',
        tag,
        auth: 'publishable',
        body: PublicBookingCreate,
        response: PublicBooking,
        status: 201,
        errors: ['SLOT_UNAVAILABLE', 'CAPACITY_EXCEEDED'],
        // Opening the checkout is a network call: a concurrent retry gets IDEMPOTENCY_KEY_IN_USE.
        async: true,
      },
      async ({ caller, body, c }) => {
        if (body.website !== undefined && body.website.trim() !== '') throw invalid('website', 'Must be empty');
        const { website: _honeypot, ...booking } = body;
        const exp = activeExperience(caller.orgId, booking.experienceId);
        const now = ctx.now();
        if (onlinePaymentDue(store.getOrganization(caller.orgId), exp, online)) {
          const page = hostPageOf(c.req.header('origin'), c.req.header('referer'), online.fallbackPage());
          return created(publicBooking(await bookWithCheckout(store, online, caller.orgId, booking, page, now)));
        }
        return created(publicBooking(createBooking(store, caller.orgId, booking, { source: 'WIDGET' }, now)));
      },
    )
    .op(
      {
        method: 'get',
        path: '/bookings/:bookingNumber',
        summary: 'The state of a guest’s booking, by booking number',
        description:
          'For the widget when the guest comes back from the payment page: whether the booking is CONFIRMED, still PENDING ' +
          '(payment not yet confirmed; `checkoutUrl` leads back to it) or CANCELLED. Shows no personal data.',
        tag,
        auth: 'publishable',
        params: { bookingNumber: 'booking' },
        response: PublicBookingStatus,
      },
      ({ caller, params }) => {
        const number = params.bookingNumber.toUpperCase();
        const booking = BOOKING_NUMBER_RE.test(number) ? store.getBookingByNumber(caller.orgId, number) : undefined;
        if (!booking) throw notFound('Booking');
        const { guestName: _name, guestEmail: _email, ...status } = publicBooking(booking);
        return ok(status);
      },
    );
}
