import { Hono } from 'hono';
import type { Config } from './config.js';
import { redactTarget, type Logger } from './logger.js';
import type { Store } from './store/index.js';
import { Refusal } from './domain/refusal.js';
import { renderRefusal } from './http/errors.js';
import { ClientAbortedRequest, logClientAbort } from './http/body.js';
import type { AppEnv } from './http/context.js';
import { rateLimiterFor } from './http/rate-limit.js';
import { requestLog } from './http/request-log.js';
import { noStore } from './http/no-store.js';
import type { ApiRoutes } from './http/router.js';
import { buildOpenApiDocument } from './http/openapi.js';
import { referenceRoutes } from './http/docs.js';
import type { RouteContext } from './routes/context.js';
import { organizationRoutes } from './routes/organization.js';
import { experienceRoutes } from './routes/experiences.js';
import { availabilityRoutes } from './routes/availability.js';
import { slotRoutes } from './routes/slots.js';
import { bookingRoutes } from './routes/bookings.js';
import { quoteRoutes } from './routes/quote.js';
import { promoCodeRoutes } from './routes/promo-codes.js';
import { customerRoutes } from './routes/customers.js';
import { giftVoucherRoutes } from './routes/gift-vouchers.js';
import { webhookRoutes } from './routes/webhooks.js';
import { eventRoutes } from './routes/events.js';
import { activityRoutes } from './routes/activity.js';
import { publicRoutes } from './routes/public.js';
import { manageRoutes } from './routes/manage.js';
import { waitlistOfferRoutes } from './routes/waitlist-offer.js';
import { staticRoutes } from './routes/static.js';
import { paymentCallbackRoutes, paymentRoutes } from './routes/payments.js';
import { refundRoutes } from './routes/refunds.js';
import { calendarRoutes, icalFeedRoutes } from './routes/calendars.js';
import { apiKeyRoutes } from './routes/api-keys.js';
import { userRoutes } from './routes/users.js';
import { dashboardSessionRoutes } from './routes/dashboard-session.js';
import { dashboardAppRoutes } from './routes/dashboard-app.js';
import { managePageRoutes } from './routes/manage-page.js';
import { manifestRoutes } from './routes/manifest.js';
import { reportRoutes } from './routes/reports.js';
import { waitlistRoutes } from './routes/waitlist.js';
import { octoRoutes } from './routes/octo.js';
import { paymentProviderFrom } from './payments/configure.js';
import type { PaymentProvider } from './payments/provider.js';
import { CalendarSync } from './services/calendar-sync.js';
import { UnitOfWork } from './services/unit-of-work.js';

export interface AppDeps {
  store: Store;
  /** Final: nothing changes it after the app is made. */
  config: Readonly<Config>;
  logger: Logger;
  now?: () => number;
  /** The online payment provider; default: the one `config` sets up (none without Stripe keys). */
  payments?: PaymentProvider | null;
  /** Calendar-import syncing shared by routes and the background job; default: a new one. */
  calendarSync?: CalendarSync;
  /** The level of the one line per request; default `info` (the demo uses `debug`). */
  requestLogLevel?: 'info' | 'debug';
  /** Whether this process's guest e-mails can go out; default: when `config` has an SMTP_URL. */
  guestMail?: boolean;
}

export const VERSION = '0.1.0';

/** The `/v1` resources, each mounted under `/v1` and its alias `/api/v1`. */
const V1_ROUTES = [
  organizationRoutes,
  experienceRoutes,
  availabilityRoutes,
  slotRoutes,
  bookingRoutes,
  quoteRoutes,
  promoCodeRoutes,
  customerRoutes,
  webhookRoutes,
  eventRoutes,
  activityRoutes,
  calendarRoutes,
  paymentRoutes,
  refundRoutes,
  apiKeyRoutes,
  userRoutes,
  manifestRoutes,
  reportRoutes,
  giftVoucherRoutes,
  waitlistRoutes,
];
/** What sits at the root: the widget and demo pages, the iCal feeds, the payment provider's callbacks, the dashboard's and the manage page. */
const ROOT_ROUTES = [staticRoutes, icalFeedRoutes, paymentCallbackRoutes, dashboardAppRoutes, managePageRoutes];

export function createApp(deps: AppDeps) {
  const { store, config, logger } = deps;
  const now = deps.now ?? Date.now;
  const payments = (deps.payments === undefined ? paymentProviderFrom(config, logger) : deps.payments) ?? undefined;
  const calendarSync = deps.calendarSync ?? new CalendarSync({ store, config, logger, now });
  // Every request's work, once, in the transaction it calls for, with this process's own settings.
  const work = new UnitOfWork(store, now, { guestMail: deps.guestMail ?? config.smtpUrl !== undefined });
  const ctx: RouteContext = {
    store,
    now,
    config,
    logger,
    payments,
    calendarSync,
    work,
    // Shared by every process on PostgreSQL, in this process's memory on SQLite.
    limiter: rateLimiterFor(store, now),
    rateLimitPerMinute: config.rateLimitPerMinute,
  };

  const app = new Hono<AppEnv>();
  app.use('*', requestLog(logger, config.trustProxy, deps.requestLogLevel));
  // A load balancer takes a process out of rotation while its database cannot be reached.
  app.get('/healthz', async (c) => {
    try {
      await store.ping();
      return c.json({ status: 'ok' });
    } catch {
      return c.json({ status: 'unavailable', reason: 'The database cannot be reached' }, 503);
    }
  });

  // Personal data: never kept by a browser, a proxy or a CDN (errors and 404s included).
  for (const path of ['/v1', '/v1/*', '/api/v1', '/api/v1/*', '/public/v1/manage', '/public/v1/manage/*', '/public/v1/waitlist/offer', '/public/v1/waitlist/offer/*', '/octo', '/octo/*']) app.use(path, noStore);

  const v1: ApiRoutes[] = V1_ROUTES.map((routes) => routes(ctx));
  for (const routes of v1) {
    app.route('/v1', routes.app);
    app.route('/api/v1', routes.app);
  }
  const publicApi = publicRoutes(ctx);
  app.route('/public/v1', publicApi.app);
  const manageApi = manageRoutes(ctx);
  app.route('/public/v1', manageApi.app);
  const waitlistOfferApi = waitlistOfferRoutes(ctx);
  app.route('/public/v1', waitlistOfferApi.app);
  // The OCTO supplier API for resellers: its own answers and errors, none of /v1's envelope.
  app.route('/octo', octoRoutes(ctx).app);
  // Same-origin only: no CORS, so no other site's page can read an answer or send JSON here.
  const dashboardApi = dashboardSessionRoutes(ctx);
  app.route('/dashboard/api', dashboardApi.app);
  for (const routes of ROOT_ROUTES) app.route('/', routes(ctx));

  let openApi: Record<string, unknown> | undefined;
  const openApiDocument = () =>
    (openApi ??= buildOpenApiDocument(
      [
        { prefix: '/v1', specs: v1.flatMap((r) => r.specs) },
        { prefix: '/public/v1', specs: [...publicApi.specs, ...manageApi.specs, ...waitlistOfferApi.specs] },
        { prefix: '/dashboard/api', specs: dashboardApi.specs },
      ],
      {
        version: VERSION,
        serverUrl: config.publicUrl,
      },
    ));
  app.route('/', referenceRoutes(openApiDocument));

  app.notFound((c) => renderRefusal(c, new Refusal('NOT_FOUND', `No route ${c.req.method} ${new URL(c.req.url).pathname}`)));
  app.onError((err, c) => {
    if (err instanceof ClientAbortedRequest) {
      logClientAbort(logger, err, { requestId: c.get('requestId'), method: c.req.method, path: redactTarget(new URL(c.req.url).pathname) });
      return renderRefusal(c, err);
    }
    if (err instanceof Refusal) return renderRefusal(c, err);
    logger.error('unhandled error', {
      requestId: c.get('requestId'),
      error: err instanceof Error ? `${err.name}: ${err.message}` : String(err),
      stack: err instanceof Error ? err.stack : undefined,
    });
    return renderRefusal(c, new Refusal('INTERNAL_ERROR', 'Something went wrong on our side; quote the X-Request-Id if you contact support'));
  });

  return { app, openApiDocument, calendarSync, payments, work };
}
