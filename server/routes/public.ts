import type { Context, Next } from 'hono';
import { cors } from 'hono/cors';
import { ApiRoutes } from '../http/router.js';
import type { RouteContext } from './context.js';
import { created, list, ok, pageOf } from '../http/reply.js';
import type { ExperienceRow } from '../store/experiences.js';
import { Refusal, invalid } from '../domain/refusal.js';
import { guestActor } from '../domain/actor.js';
import type { RateLimiter } from '../http/rate-limit.js';
import type { AppEnv } from '../http/context.js';
import { serializePublicBooking } from '../serializers/booking.js';
import { serializePublicExperience } from '../serializers/experience.js';
import { availabilityFor } from '../services/availability.js';
import { AnswerCache, cachedAvailability } from '../http/answer-cache.js';
import { countCodeGuesses, refuseCodeGuesser } from '../http/code-guessing.js';
import { createBooking, findBookingByNumber } from '../services/bookings.js';
import { getActiveExperience, listExperiences } from '../services/experiences.js';
import { getOrganization } from '../services/organizations.js';
import { bookWithCheckout, hostPageOf, onlinePaymentDue, type OnlinePayments } from '../services/online-checkout.js';
import {
  Availability,
  AvailabilityQuery,
  PageQuery,
  PublicBooking,
  PublicBookingCreate,
  PublicBookingStatus,
  PublicExperience,
  Quote,
  QuoteRequest,
  GiftVoucherCheckout,
  GiftVoucherPurchaseCreate,
  GiftVoucherOffer,
  PublicWaitlistJoin,
  WaitlistEntry,
} from '../../shared/index.js';
import { z } from 'zod';
import { QUOTE_DESCRIPTION } from './quote.js';
import { quoteBooking } from '../services/quote.js';
import { giftVoucherOffer, sellGiftVoucher } from '../services/gift-voucher-sales.js';
import { joinWaitlist } from '../services/waitlist-entries.js';
import { JOIN_DESCRIPTION, entryOf } from './waitlist.js';

export interface PublicLimits {
  bookingsPerMinute: number;
  requestsPerMinute: number;
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

/**
 * Per client IP: booking POSTs and everything else have separate budgets (README: Configuration).
 * Each `scope` (the group of routes using it) counts on its own, in `limiter`.
 */
export function publicRateLimit(limits: PublicLimits, limiter: RateLimiter, scope: string) {
  return async (c: Context<AppEnv>, next: Next) => {
    if (c.req.method === 'OPTIONS') return next();
    // Joining a waitlist counts as a booking: it is one, waiting for places.
    const booking = c.req.method === 'POST' && /\/(bookings|waitlist)\/?$/.test(c.req.path);
    const limit = booking ? limits.bookingsPerMinute : limits.requestsPerMinute;
    if (limit > 0) {
      const decision = await limiter.hit(`${scope}:${booking ? 'b' : 'r'}:${c.get('clientIp')}`, limit);
      if (!decision.allowed) {
        throw new Refusal('RATE_LIMITED', `Too many requests from this address; retry in ${decision.resetSeconds} s`, undefined, decision.resetSeconds);
      }
    }
    return next();
  };
}

const PublicExperienceQuery = z.strictObject({ ...PageQuery });

/** The widget's API: publishable keys, CORS for any origin, per-IP limits. */
export function publicRoutes(ctx: RouteContext): ApiRoutes {
  const tag = 'Public (widget)';
  const { store, config } = ctx;
  const availabilityCache = new AnswerCache();
  const online: OnlinePayments | undefined = ctx.payments && {
    provider: ctx.payments,
    holdMinutes: config.paymentHoldMinutes,
    fallbackPage: `${config.publicUrl}/demo`,
    logger: ctx.logger,
  };
  const toPublic = async (orgId: string, rows: ExperienceRow[]) => {
    const { currency, defaultLocale } = await getOrganization(store, orgId);
    return rows.map((row) => serializePublicExperience(row, currency, defaultLocale));
  };

  return new ApiRoutes(ctx)
    .use(publicCors, publicRateLimit({ bookingsPerMinute: config.publicBookingsPerMinute, requestsPerMinute: config.publicRequestsPerMinute }, ctx.limiter, 'public'))
    // Refused promo and voucher codes count against the client's address (the guessing limit).
    .use(countCodeGuesses(ctx))
    .op(
      { method: 'get', path: '/experiences', summary: 'Active experiences of the key’s organization', tag, auth: 'publishable', query: PublicExperienceQuery, response: PublicExperience, list: true },
      async ({ caller, query }) => {
        const page = pageOf(query);
        const { rows, total } = await listExperiences(store, caller.orgId, { active: true }, page);
        return list(await toPublic(caller.orgId, rows), total, page);
      },
    )
    .op(
      { method: 'get', path: '/experiences/:id', summary: 'One active experience', tag, auth: 'publishable', params: { id: 'experience' }, response: PublicExperience },
      async ({ caller, params }) => ok((await toPublic(caller.orgId, [await getActiveExperience(store, caller.orgId, params.id)]))[0]),
    )
    .op(
      { method: 'get', path: '/availability', summary: 'Availability, as GET /v1/availability', tag, auth: 'publishable', query: AvailabilityQuery, response: Availability },
      async ({ caller, query }) => {
        const now = ctx.now();
        const key = [caller.orgId, query.experienceId, query.startDate, query.endDate, query.participants].join('|');
        return await cachedAvailability(availabilityCache, store, key, now, async () =>
          await availabilityFor(store, caller.orgId, query, now, { activeOnly: true }),
        );
      },
    )
    .op(
      {
        method: 'post',
        path: '/bookings',
        summary: 'Book as a guest (source WIDGET)',
        description:
          'The body of POST /v1/bookings without metadata, checked in the same order. `website` is a honeypot for bots: it must ' +
          'be absent or empty. Send `expectedTotal`, the total the guest saw: if a price changed since, the answer is 409 ' +
          'PRICE_CHANGED with the new total in `details.total`, and nothing is booked. ' +
          '`checkoutUrl` is null unless online payment is due. With online payment (a priced experience or a priced extra chosen, Stripe configured, ' +
          'the org’s `onlinePayments` on) the booking is PENDING, holds its places until `holdExpiresAt`, and `checkoutUrl` ' +
          'is the payment page; after paying (or giving up) the guest returns to the page that made the request (its ' +
          '`Referer`, else its `Origin`) with `outing_booking={bookingNumber}&outing_status=success|cancel` appended.' +
          ' Guessing limit: after 10 bookings refused PROMO_CODE_INVALID or VOUCHER_INVALID within 10 minutes from one address, its ' +
          'requests carrying `promoCode` or `voucherCode` are answered 429 RATE_LIMITED (codes unchecked) until `Retry-After`.',
        tag,
        auth: 'publishable',
        body: PublicBookingCreate,
        response: PublicBooking,
        status: 201,
        errors: ['PRICE_CHANGED', 'SLOT_UNAVAILABLE', 'CAPACITY_EXCEEDED'],
        // Opening the checkout is a network call: a concurrent retry gets IDEMPOTENCY_KEY_IN_USE.
        async: true,
      },
      async ({ caller, body, c }) => {
        await refuseCodeGuesser(ctx, c, body);
        if (body.website !== undefined && body.website.trim() !== '') throw invalid('website', 'Must be empty');
        const { website: _honeypot, ...booking } = body;
        const exp = await getActiveExperience(store, caller.orgId, booking.experienceId);
        const now = ctx.now();
        // The guest is named in the activity log as they gave their name.
        const actor = guestActor(booking.customerName, caller.actor.ip);
        if (onlinePaymentDue(await getOrganization(store, caller.orgId), exp, online, booking.extras)) {
          const page = hostPageOf(c.req.header('origin'), c.req.header('referer'), online.fallbackPage);
          return created(serializePublicBooking(await bookWithCheckout(store, online, caller.orgId, booking, page, now, actor)));
        }
        return created(serializePublicBooking(await createBooking(store, caller.orgId, booking, { source: 'WIDGET', actor }, now)));
      },
    )
    .op(
      {
        method: 'post',
        path: '/quote',
        summary: 'Price a booking without making it (the widget’s code box)',
        description: `${QUOTE_DESCRIPTION} An inactive experience is a 404, as for bookings. Counts against PUBLIC_REQUESTS_PER_MINUTE; a refused code counts toward the guessing limit of /public/v1 (429 RATE_LIMITED with Retry-After once reached, codes unchecked).`,
        tag,
        auth: 'publishable',
        body: QuoteRequest,
        response: Quote,
        errors: ['PROMO_CODE_INVALID', 'VOUCHER_INVALID'],
      },
      async ({ caller, body, c }) => {
        // Codes guessed too often from this address: 429 before any is checked (a refused one counts).
        await refuseCodeGuesser(ctx, c, body);
        return ok(await quoteBooking(store, caller.orgId, body, ctx.now(), { activeOnly: true }));
      },
    )
    .op(
      {
        method: 'get',
        path: '/gift-vouchers',
        summary: 'The gift voucher amounts sold online (the widget’s gift-voucher mode)',
        description:
          'The organization’s `giftVoucherAmounts`, its currency, and `available`: true only when POST /public/v1/gift-vouchers ' +
          'takes a purchase now (Stripe and the org’s `onlinePayments`, e-mail on the server, at least one amount); where it is ' +
          'false, the purchase answers 409 PAYMENTS_NOT_CONFIGURED. Counts against PUBLIC_REQUESTS_PER_MINUTE.',
        tag,
        auth: 'publishable',
        response: GiftVoucherOffer,
      },
      async ({ caller }) => ok(await giftVoucherOffer(store, online, config.smtpUrl !== undefined, caller.orgId)),
    )
    .op(
      {
        method: 'post',
        path: '/gift-vouchers',
        summary: 'Buy a gift voucher online',
        description:
          'For one of the organization’s `giftVoucherAmounts`: answers the payment page (`checkoutUrl`). The voucher is made, ' +
          'ACTIVE, only when the provider reports the payment (once per payment), and its code goes by e-mail (GIFT_VOUCHER) to ' +
          'the recipient and to the buyer, or to the buyer alone without `recipientEmail`. An abandoned checkout makes nothing. ' +
          'Without online payment (Stripe and the org’s `onlinePayments`), without e-mail on the server, or without amounts: ' +
          '409 PAYMENTS_NOT_CONFIGURED; another amount: 400. After paying (or giving up) the buyer returns to the page that ' +
          'made the request with `outing_booking={purchase id}&outing_status=success|cancel` appended.',
        tag,
        auth: 'publishable',
        body: GiftVoucherPurchaseCreate,
        response: GiftVoucherCheckout,
        status: 201,
        errors: ['PAYMENTS_NOT_CONFIGURED'],
        async: true,
      },
      async ({ caller, body, c }) => {
        const page = hostPageOf(c.req.header('origin'), c.req.header('referer'), `${config.publicUrl}/demo`);
        return created(await sellGiftVoucher(store, online, config.smtpUrl !== undefined, caller.orgId, body, page, ctx.now()));
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
      async ({ caller, params }) => {
        const { guestName: _name, guestEmail: _email, ...status } = serializePublicBooking(await findBookingByNumber(store, caller.orgId, params.bookingNumber));
        return ok(status);
      },
    )
    .op(
      {
        method: 'post',
        path: '/waitlist',
        summary: 'Join a full time slot’s waitlist as a guest',
        description:
          `${JOIN_DESCRIPTION} An inactive experience is a 404, as for bookings. \`website\` is the honeypot of bookings: it must be ` +
          'absent or empty. Counts against PUBLIC_BOOKINGS_PER_MINUTE.',
        tag,
        auth: 'publishable',
        body: PublicWaitlistJoin,
        response: WaitlistEntry,
        status: 201,
        errors: ['SLOT_UNAVAILABLE', 'ALREADY_ON_WAITLIST', 'SLOT_HAS_PLACES'],
      },
      async ({ caller, body }) => {
        if (body.website !== undefined && body.website.trim() !== '') throw invalid('website', 'Must be empty');
        const { website: _honeypot, ...join } = body;
        // The guest is named in the activity log as they gave their name.
        const actor = guestActor(join.customerName, caller.actor.ip);
        return created(entryOf(await joinWaitlist(store, caller.orgId, join, { actor, publicApi: true }, ctx.now())));
      },
    );
}
