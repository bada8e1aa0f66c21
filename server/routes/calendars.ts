import { Hono } from 'hono';
import type { Config } from '../config.js';
import { errorBody } from '../http/errors.js';
import type { AppEnv } from '../http/context.js';
import { ApiRoutes, type RouteContext } from '../http/router.js';
import { created, list, ok, pageOf } from '../http/reply.js';
import { FEED_FUTURE_MS, FEED_PAST_MS, feedEtag, matchesIfNoneMatch, renderBookingsFeed } from '../ical/feed.js';
import type { CalendarSync } from '../ical/sync.js';
import { createCalendarFeed, deleteCalendarFeed, feedForToken, feedUrl, serializeCalendarFeed } from '../services/calendar-feeds.js';
import {
  createCalendarImport,
  deleteCalendarImport,
  findCalendarImport,
  serializeCalendarImport,
} from '../services/calendar-imports.js';
import { notFound } from '../domain/refusal.js';
import type { Store } from '../store/index.js';
import {
  CalendarFeed,
  CalendarFeedCreate,
  CalendarFeedWithToken,
  CalendarImport,
  CalendarImportCreate,
  CalendarListQuery,
  Deleted,
} from '../../shared/index.js';

export interface CalendarRouteDeps {
  config: Config;
  calendarSync: CalendarSync;
}

const IMPORT_RULES =
  'The URL must be http, https or webcal (read as https) and, unless the server runs with OUTBOUND_ALLOW_PRIVATE=true, ' +
  'may not be `localhost` or a loopback, private, link-local, CGNAT or unspecified address (400 on `url`); names are ' +
  'resolved and checked again at each fetch, redirects are followed at most 3 times with each hop checked. A fetch ' +
  'takes at most 15 s and 5 MB; a failed one keeps the last good copy and sets `lastError`.';

/** Bookings feeds and calendar imports (SPEC §9), under `/v1`. */
export function calendarRoutes(ctx: RouteContext, deps: CalendarRouteDeps): ApiRoutes {
  const { store } = ctx;
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
      ({ caller, body }) => {
        const { row, token } = createCalendarFeed(store, { orgId: caller.orgId, name: body.name, experienceId: body.experienceId ?? null }, ctx.now());
        return created({ ...serializeCalendarFeed(row), token, url: feedUrl(deps.config.publicUrl, token) });
      },
    )
    .op(
      { ...read, method: 'get', path: '/calendar-feeds', summary: 'List bookings feeds, oldest first', description: 'Tokens and URLs are not shown again.', query: CalendarListQuery, response: CalendarFeed, list: true },
      ({ caller, query }) => {
        const page = pageOf(query);
        const { rows, total } = store.listCalendarFeeds(caller.orgId, page);
        return list(rows.map(serializeCalendarFeed), total, page);
      },
    )
    .op(
      { ...read, method: 'get', path: '/calendar-feeds/:id', summary: 'Get a bookings feed', params: { id: 'calendarFeed' }, response: CalendarFeed },
      ({ caller, params }) => {
        const row = store.getCalendarFeed(caller.orgId, params.id);
        if (!row) throw notFound('Calendar feed');
        return ok(serializeCalendarFeed(row));
      },
    )
    .op(
      { ...write, method: 'delete', path: '/calendar-feeds/:id', summary: 'Delete a bookings feed', description: 'Its URL answers 404 from then on.', params: { id: 'calendarFeed' }, response: Deleted },
      ({ caller, params }) => {
        deleteCalendarFeed(store, caller.orgId, params.id);
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
        const row = createCalendarImport(store, caller.orgId, body, { allowPrivate: deps.config.outboundAllowPrivate }, ctx.now());
        await deps.calendarSync.sync(row.id);
        return created(serializeCalendarImport(findCalendarImport(store, caller.orgId, row.id)));
      },
    )
    .op(
      { ...read, method: 'get', path: '/calendar-imports', summary: 'List calendar imports, oldest first', query: CalendarListQuery, response: CalendarImport, list: true },
      ({ caller, query }) => {
        const page = pageOf(query);
        const { rows, total } = store.listCalendarImports(caller.orgId, page);
        return list(rows.map(serializeCalendarImport), total, page);
      },
    )
    .op(
      { ...read, method: 'get', path: '/calendar-imports/:id', summary: 'Get a calendar import', params: { id: 'calendarImport' }, response: CalendarImport },
      ({ caller, params }) => ok(serializeCalendarImport(findCalendarImport(store, caller.orgId, params.id))),
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
        findCalendarImport(store, caller.orgId, params.id);
        await deps.calendarSync.sync(params.id);
        return ok(serializeCalendarImport(findCalendarImport(store, caller.orgId, params.id)), 202);
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
      ({ caller, params }) => {
        deleteCalendarImport(store, caller.orgId, params.id);
        return ok({ id: params.id, deleted: true });
      },
    );
}

/**
 * `GET /api/ical/{token}` (and `.ics`): the bookings feed, with no API key. It is not JSON, so it
 * sits at the root rather than among the `/v1` operations. Every token that opens nothing gets the
 * same 404.
 */
export function icalFeedRoutes(deps: { store: Store; config: Config; now: () => number }): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.get('/api/ical/:token', (c) => {
    const raw = c.req.param('token');
    const feed = feedForToken(deps.store, raw.endsWith('.ics') ? raw.slice(0, -4) : raw);
    const org = feed && deps.store.getOrganization(feed.orgId);
    if (!feed || !org) return c.json(errorBody('NOT_FOUND', 'Calendar feed not found'), 404);
    const now = deps.now();
    const bookings = deps.store.listActiveBookingsBetween(org.id, now - FEED_PAST_MS, now + FEED_FUTURE_MS + 1, feed.experienceId ?? undefined);
    const body = renderBookingsFeed({ calendarName: `${org.name} · ${feed.name}`, host: new URL(deps.config.publicUrl).host, bookings });
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
  app.all('/api/ical/*', (c) => c.json(errorBody('NOT_FOUND', 'Calendar feed not found'), 404));
  return app;
}
