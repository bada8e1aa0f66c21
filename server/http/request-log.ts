import { getConnInfo } from '@hono/node-server/conninfo';
import type { MiddlewareHandler } from 'hono';
import type { Logger } from '../logger.js';
import { redactTarget } from '../logger.js';
import type { AppEnv } from './context.js';
import { clientIp } from './client-ip.js';
import { requestIdFor } from './request-id.js';

/**
 * Every request: an id (echoed as X-Request-Id), the client's address, `nosniff` on every answer
 * (none of them is meant to be sniffed into another type), and one JSON log line once answered, at
 * level `level` (nothing of it is built when the server does not log that level).
 */
export function requestLog(logger: Logger, trustProxy: boolean, level: 'info' | 'debug' = 'info'): MiddlewareHandler<AppEnv> {
  const logs = logger.logs(level);
  return async (c, next) => {
    const started = performance.now();
    const requestId = requestIdFor(c.req.header('x-request-id'));
    c.set('requestId', requestId);
    let socketIp = 'unknown';
    try {
      socketIp = getConnInfo(c).remote.address ?? 'unknown';
    } catch {
      // app.request() in tests has no socket
    }
    c.set('clientIp', clientIp(socketIp, c.req.header('x-forwarded-for'), trustProxy));
    await next();
    c.res.headers.set('X-Request-Id', requestId);
    c.res.headers.set('X-Content-Type-Options', 'nosniff');
    if (!logs) return;
    const url = new URL(c.req.url);
    const caller = c.get('caller');
    logger[level]('request', {
      requestId,
      method: c.req.method,
      path: redactTarget(url.pathname + url.search),
      status: c.res.status,
      durationMs: Math.round((performance.now() - started) * 10) / 10,
      ...(caller ? { orgId: caller.orgId, keyId: caller.keyId, userId: caller.userId } : {}),
    });
  };
}
