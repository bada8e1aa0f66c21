import { ApiRoutes } from '../http/router.js';
import type { RouteContext } from './context.js';
import { created, list, ok, pageOf } from '../http/reply.js';
import { serializeWaitlistEntry, serializeWaitlistMessage } from '../serializers/waitlist.js';
import {
  cancelWaitlistEntry,
  getWaitlistEntry,
  joinWaitlist,
  listWaitlist,
  listWaitlistEntryMessages,
  type WaitlistEntryView,
} from '../services/waitlist-entries.js';
import { PageQuery, WaitlistEntry, WaitlistJoin, WaitlistListQuery, WaitlistMessage } from '../../shared/index.js';
import { z } from 'zod';

const MessageListQuery = z.strictObject({ ...PageQuery });

export const entryOf = (v: WaitlistEntryView): WaitlistEntry => serializeWaitlistEntry(v.row, v.experienceName, v.position);

/** What both APIs say of joining: the checks in their order, and what the entry becomes. */
export const JOIN_DESCRIPTION =
  'For a full time slot of an experience whose `waitlist` is on. The party (`participants` or `tickets`), `answers` and the ' +
  'guest are checked as a booking’s. Checks, in order: the body (400), the experience (404), the party and answers (400), ' +
  'that the experience is active, takes a waitlist and the start is a bookable slot, open and not blocked by a calendar ' +
  '(409 SLOT_UNAVAILABLE), that the e-mail address (in any case) has no WAITING or OFFERED entry on the slot (409 ' +
  'ALREADY_ON_WAITLIST), and that the slot has fewer places left than the party takes (409 SLOT_HAS_PLACES: book instead). ' +
  'The entry is WAITING with its `position`; the guest is sent a WAITLIST_JOINED e-mail in its `locale`, which defaults to the organization’s `defaultLocale`.';

export function waitlistRoutes(ctx: RouteContext): ApiRoutes {
  const tag = 'Waitlist';
  const { store } = ctx;
  return new ApiRoutes(ctx)
    .op(
      {
        method: 'post',
        path: '/waitlist',
        summary: 'Put a guest on a full time slot’s waitlist',
        description: JOIN_DESCRIPTION,
        tag,
        auth: 'secret',
        scope: 'bookings:write',
        body: WaitlistJoin,
        response: WaitlistEntry,
        status: 201,
        errors: ['SLOT_UNAVAILABLE', 'ALREADY_ON_WAITLIST', 'SLOT_HAS_PLACES'],
      },
      async ({ caller, body }) => created(entryOf(await joinWaitlist(store, caller.orgId, body, { actor: caller.actor }, ctx.now()))),
    )
    .op(
      {
        method: 'get',
        path: '/waitlist',
        summary: 'List waitlist entries, by slot start then creation',
        description:
          '`startDate` and `endDate` bound the slot start (a date is a whole day in the organization’s time zone, an instant ' +
          'is itself), both inclusive. Entries of one slot come in the order they joined; `position` is given to WAITING ones.',
        tag,
        auth: 'secret',
        scope: 'bookings:read',
        query: WaitlistListQuery,
        response: WaitlistEntry,
        list: true,
      },
      async ({ caller, query }) => {
        const page = pageOf(query);
        const { rows, total } = await listWaitlist(store, caller.orgId, query, page);
        return list(rows.map(entryOf), total, page);
      },
    )
    .op(
      { method: 'get', path: '/waitlist/:id', summary: 'Get a waitlist entry', tag, auth: 'secret', scope: 'bookings:read', params: { id: 'waitlistEntry' }, response: WaitlistEntry },
      async ({ caller, params }) => ok(entryOf(await getWaitlistEntry(store, caller.orgId, params.id))),
    )
    .op(
      {
        method: 'get',
        path: '/waitlist/:id/messages',
        summary: 'The e-mails sent to a waitlist entry’s guest',
        description: 'Oldest first (WAITLIST_JOINED, WAITLIST_OFFER), with their delivery status; `SKIPPED` ones were not sent because no mail server is configured.',
        tag,
        auth: 'secret',
        scope: 'bookings:read',
        params: { id: 'waitlistEntry' },
        query: MessageListQuery,
        response: WaitlistMessage,
        list: true,
      },
      async ({ caller, params, query }) => {
        const page = pageOf(query);
        const { rows, total } = await listWaitlistEntryMessages(store, caller.orgId, params.id, page);
        return list(rows.map(serializeWaitlistMessage), total, page);
      },
    )
    .op(
      {
        method: 'delete',
        path: '/waitlist/:id',
        summary: 'Remove a guest from the waitlist',
        description:
          'The entry becomes CANCELLED. An OFFERED entry gives back the places its offer held at once, and they are offered to ' +
          'the next waiting guests that fit. A BOOKED, EXPIRED or CANCELLED entry answers 409 INVALID_STATUS_TRANSITION.',
        tag,
        auth: 'secret',
        scope: 'bookings:write',
        params: { id: 'waitlistEntry' },
        response: WaitlistEntry,
        errors: ['INVALID_STATUS_TRANSITION'],
      },
      async ({ caller, params }) => ok(entryOf(await cancelWaitlistEntry(store, caller.orgId, params.id, caller.actor, ctx.now()))),
    );
}
