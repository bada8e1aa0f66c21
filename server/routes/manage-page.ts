import { Hono } from 'hono';
import type { AppEnv } from '../http/context.js';
import type { RouteContext } from './context.js';

/**
 * The guests' manage page at /manage (the link in their e-mails carries the token after `#`, so it
 * never reaches a server log). Served under the dashboard's CSP; its API is /public/v1/manage.
 */
export function managePageRoutes(_ctx: RouteContext): Hono<AppEnv> {
  return new Hono<AppEnv>();
}
