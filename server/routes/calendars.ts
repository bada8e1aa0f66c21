import { Hono } from 'hono';
import { notFound } from '../domain/refusal.js';
import type { AppEnv } from '../http/context.js';
import { ApiRoutes } from '../http/router.js';
import type { RouteContext } from './context.js';
import { created, list, ok, pageOf } from '../http/reply.js';
import { matchesIfNoneMatch } from '../http/etag.js';
import { refuseNulInUrl } from '../http/nul.js';
import { bookingsFeed, createCalendarFeed, deleteCalendarFeed, feedUrl, getCalendarFeed, listCalendarFeeds } from '../services/calendar-feeds.js';
import { createCalendarImport, deleteCalendarImport, findCalendarImport, listCalendarImports } from '../services/calendar-imports.js';
import { serializeCalendarFeed } from '../serializers/calendar-feed.js';
import { serializeCalendarImport } from '../serializers/calendar-import.js';
import {
  CalendarFeed,
  CalendarFeedCreate,
  CalendarFeedWithToken,
  CalendarImport,
  CalendarImportCreate,
  CalendarListQuery,
  Deleted,
} from '../../shared/index.js';


const IMPORT_RULES =
  'The URL must be http, https or webcal (read as https) and, unless the server runs with OUTBOUND_ALLOW_PRIVATE=true, ' +
  'may not be `localhost` or a loopback, private, link-local, CGNAT or unspecified address (400 on `url`); names are ' +
  'resolved and checked again at each fetch, redirects are followed at most 3 times with each hop checked. A fetch ' +
  'takes at most 15 s and 5 MB; a failed one keeps the last good copy and sets `lastError`.';

/** Bookings feeds and calendar imports (docs/ical.md), under `/v1`. */
export function calendarRoutes(ctx: RouteContext): ApiRoutes {
  const { store, config, calendarSync } = ctx;
  const feeds = { tag: 'Calendars', auth: 'secret' } as const;
  const read = { ...feeds, scope: 'calendars:read' } as const;
  const write = { ...feeds, scope: 'calendars:write' } as const;

  return new ApiRoutes(ctx)
    .op(
      {
        ...write,
        method: 'post',
        path: '/calendar-feeds',
        summary: 'Create a private iCal feed of bookings',
        description:
          'The `token` and `url` are shown only in this response (only a hash is kept). Subscribe to `url` in Google, ' +
          'Apple or Outlook calendars. With `experienceId`, only that experience’s bookings; an unknown experience is 404.',
        body: CalendarFeedCreate,
        response: CalendarFeedWithToken,
        status: 201,
      },
      async ({ caller, body }) => {
        const { row, token } = await createCalendarFeed(store, { orgId: caller.orgId, name: body.name, experienceId: body.experienceId ?? null }, ctx.now(), caller.actor);
        return created({ ...serializeCalendarFeed(row), token, url: feedUrl(config.publicUrl, token) });
      },
    )
    .op(
      { ...read, method: 'get', path: '/calendar-feeds', summary: 'List bookings feeds, oldest first', description: 'Tokens and URLs are not shown again.', query: CalendarListQuery, response: CalendarFeed, list: true },
      async ({ caller, query }) => {
        const page = pageOf(query);
        const { rows, total } = await listCalendarFeeds(store, caller.orgId, page);
        return list(rows.map(serializeCalendarFeed), total, page);
      },
    )
    .op(
      { ...read, method: 'get', path: '/calendar-feeds/:id', summary: 'Get a bookings feed', params: { id: 'calendarFeed' }, response: CalendarFeed },
      async ({ caller, params }) => ok(serializeCalendarFeed(await getCalendarFeed(store, caller.orgId, params.id))),
    )
    .op(
      { ...write, method: 'delete', path: '/calendar-feeds/:id', summary: 'Delete a bookings feed', description: 'Its URL answers 404 from then on.', params: { id: 'calendarFeed' }, response: Deleted },
      async ({ caller, params }) => {
        await deleteCalendarFeed(store, caller.orgId, params.id, ctx.now(), caller.actor);
        return ok({ id: params.id, deleted: true });
      },
    )
    .op(
      {
        ...write,
        method: 'post',
        path: '/calendar-imports',
        summary: 'Import an external calendar whose events block slots',
        description:
          'Fetched at once (the 201 comes after that first fetch, even when it fails: `lastError` says why), then every ' +
          '`CALENDAR_SYNC_INTERVAL` seconds. Without `experienceId` it blocks every experience of the org. Every event ' +
          'that is not TRANSP:TRANSPARENT or STATUS:CANCELLED blocks the slots it overlaps; all-day events block whole ' +
          `local days; times without a zone are read in the experience’s zone (the org’s when it blocks all). ${IMPORT_RULES}`,
        body: CalendarImportCreate,
        response: CalendarImport,
        status: 201,
        async: true,
      },
      async ({ caller, body }) => {
        const row = await createCalendarImport(store, caller.orgId, body, { allowPrivate: config.outboundAllowPrivate, syncIntervalSeconds: calendarSync.intervalSeconds }, ctx.now(), caller.actor);
        await calendarSync.sync(row.id);
        return created(serializeCalendarImport(await findCalendarImport(store, caller.orgId, row.id)));
      },
    )
    .op(
      { ...read, method: 'get', path: '/calendar-imports', summary: 'List calendar imports, oldest first', query: CalendarListQuery, response: CalendarImport, list: true },
      async ({ caller, query }) => {
        const page = pageOf(query);
        const { rows, total } = await listCalendarImports(store, caller.orgId, page);
        return list(rows.map(serializeCalendarImport), total, page);
      },
    )
    .op(
      { ...read, method: 'get', path: '/calendar-imports/:id', summary: 'Get a calendar import', params: { id: 'calendarImport' }, response: CalendarImport },
      async ({ caller, params }) => ok(serializeCalendarImport(await findCalendarImport(store, caller.orgId, params.id))),
    )
    .op(
      {
        ...write,
        method: 'post',
        path: '/calendar-imports/:id/sync',
        summary: 'Sync a calendar import now',
        description: 'Answers 202 with the record once the fetch has finished (a failed one sets `lastError`).',
        params: { id: 'calendarImport' },
        response: CalendarImport,
        status: 202,
        async: true,
      },
      async ({ caller, params }) => {
        await findCalendarImport(store, caller.orgId, params.id);
        await calendarSync.sync(params.id);
        return ok(serializeCalendarImport(await findCalendarImport(store, caller.orgId, params.id)), 202);
      },
    )
    .op(
      {
        ...write,
        method: 'delete',
        path: '/calendar-imports/:id',
        summary: 'Delete a calendar import',
        description: 'Its busy times stop blocking slots at once.',
        params: { id: 'calendarImport' },
        response: Deleted,
      },
      async ({ caller, params }) => {
        await deleteCalendarImport(store, caller.orgId, params.id, ctx.now(), caller.actor);
        return ok({ id: params.id, deleted: true });
      },
    );
}

/**
 * `GET /api/ical/{token}` (and `.ics`): the bookings feed, with no API key. It is not JSON, so it
 * sits at the root rather than among the `/v1` operations. Every token that opens nothing gets the
 * same 404.
 */
export function icalFeedRoutes(ctx: RouteContext): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.get('/api/ical/:token', async (c) => {
    const raw = c.req.param('token');
    refuseNulInUrl(c.req.url, () => ({ token: raw }));
    const found = await bookingsFeed(ctx.store, raw.endsWith('.ics') ? raw.slice(0, -4) : raw, ctx.now());
    if (!found) throw notFound('Calendar feed');
    const { organization, feed, bookings } = found;
    // ical-generator is loaded by the first feed request, not at start.
    const { feedEtag, renderBookingsFeed } = await import('../ical/feed.js');
    const body = renderBookingsFeed({ calendarName: `${organization.name} · ${feed.name}`, host: new URL(ctx.config.publicUrl).host, bookings });
    const etag = feedEtag(body);
    const headers = {
      ETag: etag,
      // Private (the URL is the secret); calendar apps revalidate with If-None-Match.
      'Cache-Control': 'private, no-cache',
      'Referrer-Policy': 'no-referrer',
      'X-Robots-Tag': 'noindex',
    };
    if (matchesIfNoneMatch(c.req.header('if-none-match'), etag)) return c.body(null, 304, headers);
    return c.body(body, 200, {
      ...headers,
      'Content-Type': 'text/calendar; charset=utf-8',
      'Content-Disposition': 'inline; filename="bookings.ics"',
    });
  });
  // Any other method or path below /api/ical gets the same answer as an unknown token.
  app.all('/api/ical/*', () => {
    throw notFound('Calendar feed');
  });
  return app;
}
