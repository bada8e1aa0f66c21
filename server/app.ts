import { Hono } from 'hono';
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Config } from './config.js';
import type { Logger } from './logger.js';
import { redactTarget } from './logger.js';
import type { Store } from './store/index.js';
import { Refusal } from './domain/refusal.js';
import { errorBody, renderRefusal } from './http/errors.js';
import type { AppEnv } from './http/context.js';
import { requestIdFor } from './http/request-id.js';
import { clientIp } from './http/client-ip.js';
import { Idempotency } from './http/idempotency.js';
import { GroupCommit } from './http/group-commit.js';
import { RateLimiter } from './http/rate-limit.js';
import type { ApiRoutes, RouteContext } from './http/router.js';
import { buildOpenApiDocument } from './http/openapi.js';
import { renderDocsPage } from './http/docs-page.js';
import { organizationRoutes } from './routes/organization.js';
import { experienceRoutes } from './routes/experiences.js';
import { availabilityRoutes } from './routes/availability.js';
import { bookingRoutes } from './routes/bookings.js';
import { customerRoutes } from './routes/customers.js';
import { webhookRoutes } from './routes/webhooks.js';
import { eventRoutes } from './routes/events.js';
import { publicCors, publicRateLimit, publicRoutes } from './routes/public.js';
import { mountStatic } from './routes/static.js';
import { mountPaymentCallbacks, paymentRoutes } from './routes/payments.js';
import { paymentProviderFrom } from './payments/configure.js';
import type { PaymentProvider } from './payments/provider.js';
import { calendarRoutes, icalFeedRoutes } from './routes/calendars.js';
import { CalendarSync } from './ical/sync.js';

export interface AppDeps {
  store: Store;
  config: Config;
  logger: Logger;
  now?: () => number;
  /** The online payment provider; default: the one `config` sets up (none without Stripe keys). */
  payments?: PaymentProvider | null;
  /** Calendar-import syncing shared by routes and the background loop; default: a new one (not started). */
  calendarSync?: CalendarSync;
}

export const VERSION = '0.1.0';

export function createApp(deps: AppDeps) {
  const { store, config, logger } = deps;
  const now = deps.now ?? Date.now;
  const payments = (deps.payments === undefined ? paymentProviderFrom(config, logger) : deps.payments) ?? undefined;
  const ctx: RouteContext = {
    store,
    now,
    idempotency: new Idempotency(store, now),
    limiter: new RateLimiter(now),
    rateLimitPerMinute: config.rateLimitPerMinute,
    writes: new GroupCommit(store),
  };
  const calendarSync = deps.calendarSync ?? new CalendarSync({ store, config, logger, now });

  const app = new Hono<AppEnv>();

  app.use('*', async (c, next) => {
    const started = performance.now();
    const requestId = requestIdFor(c.req.header('x-request-id'));
    c.set('requestId', requestId);
    let socketIp = 'unknown';
    try {
      socketIp = getConnInfo(c).remote.address ?? 'unknown';
    } catch {
      // app.request() in tests has no socket
    }
    c.set('clientIp', clientIp(socketIp, c.req.header('x-forwarded-for'), config.trustProxy));
    await next();
    c.res.headers.set('X-Request-Id', requestId);
    const url = new URL(c.req.url);
    const caller = c.get('caller');
    logger.info('request', {
      requestId,
      method: c.req.method,
      path: redactTarget(url.pathname + url.search),
      status: c.res.status,
      durationMs: Math.round((performance.now() - started) * 10) / 10,
      ...(caller ? { orgId: caller.orgId, keyId: caller.keyId } : {}),
    });
  });

  app.get('/healthz', (c) => c.json({ status: 'ok' }));

  const v1: ApiRoutes[] = [
    organizationRoutes(ctx),
    experienceRoutes(ctx),
    availabilityRoutes(ctx),
    bookingRoutes(ctx),
    customerRoutes(ctx),
    webhookRoutes(ctx, { allowPrivate: config.outboundAllowPrivate }),
    eventRoutes(ctx),
    calendarRoutes(ctx, { config, calendarSync }),
    paymentRoutes(ctx, { provider: payments, logger }),
  ];
  for (const routes of v1) {
    app.route('/v1', routes.app);
    app.route('/api/v1', routes.app);
  }

  const publicApi = publicRoutes(
    ctx,
    payments && {
      provider: payments,
      holdMinutes: config.paymentHoldMinutes,
      fallbackPage: () => `${config.publicUrl}/demo`,
      logger,
    },
  );
  app.use('/public/v1/*', publicCors);
  app.use(
    '/public/v1/*',
    publicRateLimit({ bookingsPerMinute: config.publicBookingsPerMinute, requestsPerMinute: config.publicRequestsPerMinute }, now),
  );
  app.route('/public/v1', publicApi.app);

  mountPaymentCallbacks(app, { store, providers: payments ? [payments] : [], now, logger });

  mountStatic(app, { store, publicUrl: () => config.publicUrl });
  app.route('/', icalFeedRoutes({ store, config, now }));

  let openApi: Record<string, unknown> | undefined;
  const openApiDocument = () =>
    (openApi ??= buildOpenApiDocument(
      [
        { prefix: '/v1', specs: v1.flatMap((r) => r.specs) },
        { prefix: '/public/v1', specs: publicApi.specs },
      ],
      {
        version: VERSION,
        serverUrl: config.publicUrl,
      },
    ));
  app.get('/v1/openapi.json', (c) => c.json(openApiDocument()));
  app.get('/api/v1/openapi.json', (c) => c.json(openApiDocument()));
  app.get('/docs', (c) => c.html(renderDocsPage(openApiDocument())));

  app.notFound((c) => c.json(errorBody('NOT_FOUND', `No route ${c.req.method} ${new URL(c.req.url).pathname}`), 404));

  app.onError((err, c) => {
    if (err instanceof Refusal) return renderRefusal(c, err);
    logger.error('unhandled error', {
      requestId: c.get('requestId'),
      error: err instanceof Error ? `${err.name}: ${err.message}` : String(err),
      stack: err instanceof Error ? err.stack : undefined,
    });
    return c.json(errorBody('INTERNAL_ERROR', 'Something went wrong on our side; quote the X-Request-Id if you contact support'), 500);
  });

  return { app, openApiDocument, calendarSync };
}
