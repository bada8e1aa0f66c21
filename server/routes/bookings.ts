import { ApiRoutes } from '../http/router.js';
import type { RouteContext } from './context.js';
import { created, list, ok, pageOf } from '../http/reply.js';
import { AnswerCache, cachedAnswer } from '../http/answer-cache.js';
import { canonicalJson } from '../http/idempotency.js';
import { serializeBooking } from '../serializers/booking.js';
import { cancelBooking, createBooking, findBooking, listBookings, updateBooking } from '../services/bookings.js';
import { serializeMessage } from '../serializers/message.js';
import { listBookingMessages, resendMessage } from '../services/messages.js';
import { Booking, BookingCancel, BookingCreate, BookingListQuery, BookingPatch, Message, PageQuery } from '../../shared/index.js';
import { z } from 'zod';

const MessageListQuery = z.strictObject({ ...PageQuery });

export function bookingRoutes(ctx: RouteContext): ApiRoutes {
  const tag = 'Bookings';
  const { store } = ctx;
  // Pages of the list, reused while nothing was written (a dashboard polls them).
  const answers = new AnswerCache();
  return new ApiRoutes(ctx)
    .op(
      {
        method: 'post',
        path: '/bookings',
        summary: 'Book a time slot',
        description:
          'Checks, in order: the body (400), the experience (404), the party (400), the answers and extras (400), `promoCode` ' +
          '(400 PROMO_CODE_INVALID, `details.reason` NOT_FOUND, INACTIVE, NOT_YET_VALID, EXPIRED, NOT_FOR_EXPERIENCE or USED_UP), ' +
          'the `expectedTotal` when sent (409 PRICE_CHANGED, `details.total` the total now, after the discount), the slot (409 SLOT_UNAVAILABLE), the places left ' +
          '(409 CAPACITY_EXCEEDED with details). Under any concurrency a slot is never overbooked. Bookings made here are CONFIRMED, ' +
          'with `source` DASHBOARD when made with a dashboard session, else API. For bookings taken at the desk: `ignoreNotice` books ' +
          'a slot inside the notice period or under way (until it ends); `payment` records the money taken as a SUCCEEDED payment ' +
          'in the same transaction (`amount` default the total, more than 0.00 and at most the total, else 400 on `payment.amount`; ' +
          'PAYMENT_SUCCEEDED follows BOOKING_CREATED); `sendConfirmation: false` sends the guest no confirmation e-mail; ' +
          '`internalNote` is for the operator only. None of these exist on /public/v1. ' +
          'An experience with price categories books `tickets` (one entry per category) instead of `participants`; places count ' +
          'the categories that occupy one.',
        tag,
        auth: 'secret',
        scope: 'bookings:write',
        body: BookingCreate,
        response: Booking,
        status: 201,
        errors: ['PRICE_CHANGED', 'SLOT_UNAVAILABLE', 'CAPACITY_EXCEEDED'],
        groupCommit: true,
      },
      async ({ caller, body }) => {
        // A user signed in to the dashboard books at the desk; a secret key, through the API.
        const source = caller.type === 'session' ? 'DASHBOARD' : 'API';
        return created(serializeBooking(await createBooking(store, caller.orgId, body, { source, actor: caller.actor }, ctx.now())));
      },
    )
    .op(
      {
        method: 'get',
        path: '/bookings',
        summary: 'List bookings, by slot start or by creation',
        description:
          '`sort` orders the list: `startTime` (the default) by slot start, then creation, then id; `createdAt` by creation, ' +
          'then id; a leading `-` (`-startTime`, `-createdAt`) reverses every key, the id included, so pages of one order ' +
          'never repeat or skip a booking while the list stays unchanged. Any other value is refused (400 on `sort`).',
        tag,
        auth: 'secret',
        scope: 'bookings:read',
        query: BookingListQuery,
        response: Booking,
        list: true,
      },
      async ({ caller, query }) =>
        await cachedAnswer(answers, store, `${caller.orgId}|${canonicalJson(query)}`, ctx.now(), async () => {
          const page = pageOf(query);
          const { rows, total } = await listBookings(store, caller.orgId, query, page);
          return list(rows.map(serializeBooking), total, page);
        }),
    )
    .op(
      { method: 'get', path: '/bookings/:id', summary: 'Get a booking by id or booking number', tag, auth: 'secret', scope: 'bookings:read', params: { id: 'booking' }, response: Booking },
      async ({ caller, params }) => ok(serializeBooking(await findBooking(store, caller.orgId, params.id))),
    )
    .op(
      {
        method: 'get',
        path: '/bookings/:id/messages',
        summary: 'The e-mails sent to a booking’s guest',
        description:
          'Oldest first: confirmations, changes, cancellations and reminders, with their delivery status. `PENDING` messages ' +
          'wait for their (next) attempt at `nextAttemptAt`; `SKIPPED` ones were not sent because no mail server is configured.',
        tag,
        auth: 'secret',
        scope: 'bookings:read',
        params: { id: 'booking' },
        query: MessageListQuery,
        response: Message,
        list: true,
      },
      async ({ caller, params, query }) => {
        const page = pageOf(query);
        const { rows, total } = await listBookingMessages(store, caller.orgId, params.id, page);
        return list(rows.map(serializeMessage), total, page);
      },
    )
    .op(
      {
        method: 'post',
        path: '/bookings/:id/messages/:messageId/resend',
        summary: 'Send a guest e-mail again',
        description:
          'Queues a new message of the same kind to the booking’s current address, sent at once; the original stays as it was. ' +
          'A message still PENDING is tried again on its own and cannot be resent (409 CONFLICT); nor can a cancelled ' +
          'booking’s confirmation, change notice or reminder, which is no longer true.',
        tag,
        auth: 'secret',
        scope: 'bookings:write',
        params: { id: 'booking', messageId: 'message' },
        response: Message,
        status: 202,
        errors: ['CONFLICT'],
      },
      async ({ caller, params }) => ok(serializeMessage(await resendMessage(store, caller.orgId, params.id, params.messageId, ctx.now())), 202),
    )
    .op(
      {
        method: 'patch',
        path: '/bookings/:id/cancel',
        summary: 'Cancel a booking',
        description: 'Frees its places and fires BOOKING_CANCELED. A booking already cancelled answers 409 INVALID_STATUS_TRANSITION.',
        tag,
        auth: 'secret',
        scope: 'bookings:write',
        params: { id: 'booking' },
        body: BookingCancel,
        response: Booking,
        errors: ['INVALID_STATUS_TRANSITION'],
        groupCommit: true,
      },
      async ({ caller, params, body }) => ok(serializeBooking(await cancelBooking(store, caller.orgId, params.id, body.reason, ctx.now(), caller.actor))),
    )
    .op(
      {
        method: 'patch',
        path: '/bookings/:id',
        summary: 'Change a booking',
        description:
          'Status moves: PENDING → CONFIRMED, PENDING → CANCELLED, CONFIRMED → CANCELLED. A new startTime or more participants ' +
          'is checked like a new booking (its own places excepted), and so are more tickets or a higher total (all tickets at most ' +
          "the experience's maxParticipants, the total at most 999999.99); fewer participants on the same slot are never refused. " +
          'A new startTime clears `checkedInAt`: the guest has not arrived for the new slot. ' +
          '`metadata` replaces the whole metadata object. A cancelled booking accepts metadata changes only. The record names ' +
          '(totalParticipants, guestName, guestEmail, guestPhone) are accepted as aliases. A patch that changes nothing fires nothing. ' +
          '`internalNote` (null clears it) may change on a cancelled booking too; it never reaches the guest.',
        tag,
        auth: 'secret',
        scope: 'bookings:write',
        params: { id: 'booking' },
        body: BookingPatch,
        response: Booking,
        errors: ['SLOT_UNAVAILABLE', 'CAPACITY_EXCEEDED', 'INVALID_STATUS_TRANSITION'],
        groupCommit: true,
      },
      async ({ caller, params, body }) => ok(serializeBooking(await updateBooking(store, caller.orgId, params.id, body, ctx.now(), caller.actor))),
    );
}
