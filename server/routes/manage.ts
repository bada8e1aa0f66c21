import { ApiRoutes } from '../http/router.js';
import type { RouteContext } from './context.js';
import { ok } from '../http/reply.js';
import { publicRateLimit } from './public.js';
import { serializeAvailability } from '../serializers/availability.js';
import { serializeManagedBooking } from '../serializers/message.js';
import { availabilityForGuest, cancelAsGuest, getManagedBooking, rescheduleAsGuest, updateAsGuest } from '../services/self-service.js';
import { Availability, LocalDate, ManageCancel, ManagedBooking, ManageReschedule, ManageUpdate } from '../../shared/index.js';
import { z } from 'zod';

const ManageCalendarQuery = z.strictObject({
  token: z
    .string()
    .optional()
    .describe('The manage token, for a plain link (a download the browser starts); `X-Manage-Token` wins when both are sent. Never logged.'),
});

const ManageAvailabilityQuery = z.strictObject({
  startDate: LocalDate.optional().describe("Default: today in the experience's time zone"),
  endDate: LocalDate.optional().describe('Inclusive; default startDate + 30 days; at most 92 days after startDate'),
});

/**
 * The guests' manage API under /public/v1/manage: no key, the token of the e-mail link in
 * `X-Manage-Token`. Same-origin only (the manage page is served by Outing), so no CORS; the public
 * API's per-IP limits apply.
 */
export function manageRoutes(ctx: RouteContext): ApiRoutes {
  const tag = 'Manage (guests)';
  const { store, config } = ctx;
  const token = (header: string | undefined) => header?.trim();
  const rules =
    'A guest may cancel or change the time while the booking is CONFIRMED or PENDING, the organization’s ' +
    '`guestSelfService` is on and the start is more than `cancellationCutoffHours` away (`cutoffAt`); otherwise 409 CHANGE_NOT_ALLOWED.';
  return new ApiRoutes(ctx)
    .use(publicRateLimit({ bookingsPerMinute: config.publicBookingsPerMinute, requestsPerMinute: config.publicRequestsPerMinute }, ctx.limiter, 'manage'))
    .op(
      {
        method: 'get',
        path: '/manage',
        summary: 'A guest’s booking, by the token of their manage link',
        description: `What the manage page shows: the booking, what the guest may do and the organization's contact. ${rules}`,
        tag,
        auth: 'manage',
        response: ManagedBooking,
      },
      async ({ c }) => ok(serializeManagedBooking(await getManagedBooking(store, token(c.req.header('x-manage-token')), ctx.now()))),
    )
    .op(
      {
        method: 'get',
        path: '/manage/calendar.ics',
        summary: 'A guest’s booking as a calendar file',
        description:
          'The booking as an iCalendar (.ics) attachment named after its booking number: one VEVENT with the UID and SEQUENCE ' +
          'of the bookings feed (a later download replaces the event rather than adding another), DTSTART and DTEND in UTC, ' +
          'SUMMARY the experience, LOCATION the meeting point (absent when there is none), DESCRIPTION the booking number, ' +
          'the participants or tickets and the guest instructions, in the guest’s language; `STATUS:CANCELLED` once the ' +
          'booking is cancelled. The token may come as `?token=` so that a plain link downloads the file; a missing or unknown ' +
          'token is 404. Errors answer as JSON envelopes.',
        tag,
        auth: 'manage',
        query: ManageCalendarQuery,
        file: { mediaType: 'text/calendar', example: 'BookingIcs' },
      },
      async ({ c, query }) => {
        const m = await getManagedBooking(store, token(c.req.header('x-manage-token') ?? query.token), ctx.now());
        // ical-generator is loaded by the first calendar request, not at start.
        const { guestCalendarFile, guestLocaleOf } = await import('../mail/compose.js');
        const body = guestCalendarFile({ locale: guestLocaleOf(m.booking.locale), booking: m.booking, host: new URL(config.publicUrl).host, guestInfo: m.guestInfo });
        return {
          status: 200,
          body: undefined,
          raw: {
            body,
            contentType: 'text/calendar; charset=utf-8',
            headers: {
              'Content-Disposition': `attachment; filename="${m.booking.bookingNumber}.ics"`,
              'Cache-Control': 'no-store',
              'Referrer-Policy': 'no-referrer',
              'X-Robots-Tag': 'noindex',
            },
          },
        };
      },
    )
    .op(
      {
        method: 'get',
        path: '/manage/availability',
        summary: 'The times a guest may move their booking to',
        description:
          'The experience’s availability counted for the booking’s places, without its own slot and without the slots that ' +
          'start inside the cutoff (a guest cannot move a booking to where they could no longer change it).',
        tag,
        auth: 'manage',
        query: ManageAvailabilityQuery,
        response: Availability,
      },
      async ({ c, query }) =>
        ok(serializeAvailability(await availabilityForGuest(store, token(c.req.header('x-manage-token')), query, ctx.now()))),
    )
    .op(
      {
        method: 'post',
        path: '/manage/cancel',
        summary: 'Cancel a booking as its guest',
        description: `Frees its places, fires BOOKING_CANCELED, e-mails the cancellation and logs the guest as the actor. ${rules}`,
        tag,
        auth: 'manage',
        body: ManageCancel,
        response: ManagedBooking,
        errors: ['CHANGE_NOT_ALLOWED', 'INVALID_STATUS_TRANSITION'],
      },
      async ({ c, body }) =>
        ok(serializeManagedBooking(await cancelAsGuest(store, token(c.req.header('x-manage-token')), body.reason, ctx.now(), c.get('clientIp')))),
    )
    .op(
      {
        method: 'post',
        path: '/manage/reschedule',
        summary: 'Move a booking to another time as its guest',
        description:
          'Another bookable slot of the same experience with room for the booking’s places, starting after the cutoff; fires ' +
          `BOOKING_UPDATED and e-mails the change. ${rules} A full or non-bookable slot answers as PATCH /v1/bookings/{id} does.`,
        tag,
        auth: 'manage',
        body: ManageReschedule,
        response: ManagedBooking,
        errors: ['CHANGE_NOT_ALLOWED', 'SLOT_UNAVAILABLE', 'CAPACITY_EXCEEDED'],
      },
      async ({ c, body }) =>
        ok(serializeManagedBooking(await rescheduleAsGuest(store, token(c.req.header('x-manage-token')), body.startTime, ctx.now(), c.get('clientIp')))),
    )
    .op(
      {
        method: 'post',
        path: '/manage/update',
        summary: 'Change the party or the contact details as the guest',
        description:
          'Any of `participants` (a booking without tickets) or `tickets` (the new whole list), `customerName` and `customerPhone` ' +
          '(null clears it). The party is checked as PATCH /v1/bookings/{id} checks it: more places must fit like a new booking ' +
          '(CAPACITY_EXCEEDED, SLOT_UNAVAILABLE), and the party limits hold on increases only. A party change needs `canChangeParty` ' +
          '(the rules of a new time, and no online payment open); a name or phone change needs `canEditContact` (self-service on, ' +
          'the booking CONFIRMED or PENDING, before its start); otherwise 409 CHANGE_NOT_ALLOWED. Fires BOOKING_UPDATED, e-mails the ' +
          'guest the new details when the party changed, and logs the guest as the actor. Sending what the booking already has changes nothing.',
        tag,
        auth: 'manage',
        body: ManageUpdate,
        response: ManagedBooking,
        errors: ['CHANGE_NOT_ALLOWED', 'SLOT_UNAVAILABLE', 'CAPACITY_EXCEEDED', 'INVALID_STATUS_TRANSITION'],
      },
      async ({ c, body }) =>
        ok(serializeManagedBooking(await updateAsGuest(store, token(c.req.header('x-manage-token')), body, ctx.now(), c.get('clientIp')))),
    );
}
