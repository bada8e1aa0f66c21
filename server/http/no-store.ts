import type { MiddlewareHandler } from 'hono';

/**
 * `Cache-Control: no-store` on an answer that says nothing of caching itself: the `/v1` answers
 * (bookings, customers, the manifest and its CSV, users, activity… and their errors) and the guests'
 * manage API carry personal data that no browser, proxy or CDN should keep. An answer that sets its
 * own policy keeps it: `/v1/openapi.json` (public, revalidated with its ETag).
 */
export const noStore: MiddlewareHandler = async (c, next) => {
  await next();
  if (!c.res.headers.has('Cache-Control')) c.res.headers.set('Cache-Control', 'no-store');
};
