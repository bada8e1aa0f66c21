import { ApiRoutes } from '../http/router.js';
import type { RouteContext } from './context.js';
import { created, ok } from '../http/reply.js';
import { publicRateLimit } from './public.js';
import { serializeWaitlistAccepted, serializeWaitlistOffer } from '../serializers/waitlist-offer.js';
import { acceptOffer, declineOffer, getOfferAsGuest } from '../services/waitlist-offer.js';
import type { OnlinePayments } from '../services/online-checkout.js';
import { WaitlistAccepted, WaitlistOffer } from '../../shared/index.js';

/**
 * A waitlist guest's offer under /public/v1/waitlist/offer: no key, the token of the offer e-mail's
 * link in `X-Waitlist-Token`. Same-origin only (the manage page asks it), so no CORS; the public API's
 * per-IP request limit applies; answers are never cached.
 */
export function waitlistOfferRoutes(ctx: RouteContext): ApiRoutes {
  const tag = 'Waitlist offers (guests)';
  const { store, config } = ctx;
  const token = (header: string | undefined) => header?.trim();
  const online: OnlinePayments | undefined = ctx.payments && {
    provider: ctx.payments,
    holdMinutes: config.paymentHoldMinutes,
    fallbackPage: `${config.publicUrl}/manage`,
    logger: ctx.logger,
  };
  // After paying (or giving up) the guest comes back to the offer's page, which then shows the booking.
  const returnPage = (t: string) => `${config.publicUrl}/manage#${t}`;
  const expiry =
    'An offer whose `offerExpiresAt` has passed holds nothing: using its token makes it EXPIRED at once (its places are offered ' +
    'to the next guest waiting), and accepting or declining it answers 409 OFFER_EXPIRED, as for an EXPIRED entry (a slot ' +
    'closed meanwhile expires it too); a BOOKED or CANCELLED entry answers 409 INVALID_STATUS_TRANSITION.';
  return new ApiRoutes(ctx)
    // Counted with every other non-booking request of the address (PUBLIC_REQUESTS_PER_MINUTE).
    .use(publicRateLimit({ bookingsPerMinute: config.publicBookingsPerMinute, requestsPerMinute: config.publicRequestsPerMinute }, ctx.limiter, 'waitlist-offer'))
    .op(
      {
        method: 'get',
        path: '/waitlist/offer',
        summary: 'A waitlist guest’s offer, by the token of its e-mail link',
        description:
          'The entry whatever its status, `total` what booking its party costs now (a BOOKED entry: what its booking costs), ' +
          'the organization’s contact, and once BOOKED the booking it became. A token opens its own entry only. ' +
          'An offer past `offerExpiresAt` is made EXPIRED by this request (its places go to the next guest waiting).',
        tag,
        auth: 'waitlist',
        response: WaitlistOffer,
      },
      async ({ c }) => ok(serializeWaitlistOffer(await getOfferAsGuest(store, token(c.req.header('x-waitlist-token')), ctx.now()))),
    )
    .op(
      {
        method: 'post',
        path: '/waitlist/offer/accept',
        summary: 'Book the offered places',
        description:
          'Makes the booking of the entry’s party (its tickets at today’s prices, or its participants), name, e-mail, phone, ' +
          'language and answers, `source` WIDGET, in the same transaction that ends the offer: the offer’s places become the ' +
          'booking’s and nobody can take them in between. The booking is CONFIRMED (BOOKING_CREATED, its confirmation e-mail); ' +
          'with online payment due (a priced experience, a provider configured and the organization’s `onlinePayments` on) it ' +
          'is a PENDING hold whose `checkoutUrl` is the payment page, after which the guest returns to the offer’s link. The ' +
          `entry becomes BOOKED with \`bookingId\`. ${expiry} A booking refused (the slot blocked meanwhile) leaves the offer as it was.`,
        tag,
        auth: 'waitlist',
        response: WaitlistAccepted,
        status: 201,
        errors: ['OFFER_EXPIRED', 'INVALID_STATUS_TRANSITION', 'SLOT_UNAVAILABLE', 'CAPACITY_EXCEEDED'],
        // Opening the checkout is a network call.
        async: true,
      },
      async ({ c }) =>
        created(
          serializeWaitlistAccepted(
            await acceptOffer(store, token(c.req.header('x-waitlist-token')), ctx.now(), c.get('clientIp'), { online, returnPage }),
          ),
        ),
    )
    .op(
      {
        method: 'post',
        path: '/waitlist/offer/decline',
        summary: 'Let the offered places go',
        description: `The entry becomes CANCELLED and its places are offered to the next guest waiting (in the same transaction). ${expiry}`,
        tag,
        auth: 'waitlist',
        response: WaitlistOffer,
        errors: ['OFFER_EXPIRED', 'INVALID_STATUS_TRANSITION'],
      },
      async ({ c }) => ok(serializeWaitlistOffer(await declineOffer(store, token(c.req.header('x-waitlist-token')), ctx.now(), c.get('clientIp')))),
    );
}
