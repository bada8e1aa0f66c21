import type { Context } from 'hono';
import { deleteCookie, setCookie } from 'hono/cookie';
import { ApiRoutes } from '../http/router.js';
import { SESSION_COOKIE, sessionOf } from '../http/auth.js';
import type { AppEnv } from '../http/context.js';
import { ok } from '../http/reply.js';
import { Refusal } from '../domain/refusal.js';
import type { RouteContext } from './context.js';
import { publicRateLimit } from './public.js';
import { serializeSession } from '../serializers/user.js';
import {
  SESSION_MAX_MS, SIGN_IN_ATTEMPTS_PER_ADDRESS, SIGN_IN_FAILURES_ALLOWED, completeSetup, describeSession, signIn, signOut, type SignedIn,
} from '../services/sessions.js';
import { PASSWORD_HASHING } from '../domain/passwords.js';
import { PasswordSetup, Session, SessionCreate, SignedOut } from '../../shared/index.js';

/**
 * The dashboard's sign-in, under `/dashboard/api`: a session in an HttpOnly, SameSite=Strict cookie
 * (Secure behind https), which `/v1` accepts together with the session's CSRF token. JSON in and
 * out like `/v1`, limited per client address like the public API, and never cached.
 */
export function dashboardSessionRoutes(ctx: RouteContext): ApiRoutes {
  const tag = 'Dashboard sessions';
  const { store, config } = ctx;
  const secure = new URL(config.publicUrl).protocol === 'https:';
  const cookieOptions = { httpOnly: true, secure, sameSite: 'Strict', path: '/' } as const;

  const signedIn = (c: Context<AppEnv>, done: SignedIn) => {
    setCookie(c, SESSION_COOKIE, done.token, { ...cookieOptions, maxAge: Math.floor(SESSION_MAX_MS / 1000) });
    return ok(serializeSession(done));
  };

  return new ApiRoutes(ctx)
    .use(
      async (c, next) => {
        await next();
        c.header('Cache-Control', 'no-store');
      },
      publicRateLimit({ bookingsPerMinute: config.publicRequestsPerMinute, requestsPerMinute: config.publicRequestsPerMinute }, ctx.limiter, 'dashboard'),
    )
    .op(
      {
        method: 'post',
        path: '/session',
        summary: 'Sign in',
        description:
          'Sets the `outing_session` cookie (HttpOnly, SameSite=Strict) and answers who signed in, with the CSRF token ' +
          'that `/v1` requests made with the cookie must send as `X-CSRF-Token`. A wrong e-mail or password is a 401 ' +
          `INVALID_CREDENTIALS. 429 RATE_LIMITED, with \`Retry-After\`: after ${SIGN_IN_FAILURES_ALLOWED} failures for one ` +
          'e-mail within 15 minutes (even with the right password, until the window has passed); after ' +
          `${SIGN_IN_ATTEMPTS_PER_ADDRESS} attempts from one client address (an IPv6 /64) within 15 minutes, failed or not; ` +
          'and when the server is already checking as many passwords as it takes at once ' +
          `(${PASSWORD_HASHING.running} running, ${PASSWORD_HASHING.waiting} waiting, ${PASSWORD_HASHING.perClient} per client address).`,
        tag,
        auth: 'none',
        body: SessionCreate,
        response: Session,
        errors: ['INVALID_CREDENTIALS', 'RATE_LIMITED'],
      },
      async ({ body, c }) => signedIn(c, await signIn(store, body, c.get('clientIp'), ctx.now)),
    )
    .op(
      {
        method: 'get',
        path: '/session',
        summary: 'The signed-in user',
        description: 'The same body as signing in, while the session lives (12 hours unused, 7 days in all).',
        tag,
        auth: 'session',
        response: Session,
      },
      async ({ c }) => {
        const live = await sessionOf(c, store, ctx.now());
        if (!live) throw new Refusal('UNAUTHORIZED', 'Sign in first: no live session');
        return ok(serializeSession(await describeSession(store, live)));
      },
    )
    .op(
      { method: 'delete', path: '/session', summary: 'Sign out', description: 'Ends the session on the server and clears the cookie.', tag, auth: 'session', response: SignedOut },
      async ({ caller, c }) => {
        if (caller.sessionId) await signOut(store, caller.sessionId);
        deleteCookie(c, SESSION_COOKIE, cookieOptions);
        return ok({ signedOut: true });
      },
    )
    .op(
      {
        method: 'post',
        path: '/setup',
        summary: 'Set a password with a setup link, and sign in',
        description:
          'The token is what follows `#` in the setup link (`/dashboard/setup#…`). A link works once, for 72 hours; a ' +
          'used, expired or unknown one is a 400 INVALID_TOKEN. The password takes 10 to 200 characters and must not be ' +
          'the e-mail address. Answers as signing in does; its hash waits in the same bounded line (429 RATE_LIMITED ' +
          'with `Retry-After` when it is full, the link still unused).',
        tag,
        auth: 'none',
        body: PasswordSetup,
        response: Session,
        errors: ['INVALID_TOKEN', 'RATE_LIMITED'],
      },
      async ({ body, c }) => signedIn(c, await completeSetup(store, body, c.get('clientIp'), ctx.now)),
    );
}
