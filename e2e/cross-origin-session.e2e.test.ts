import type { Page, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPage } from './browser.js';
import { startHostSite, type HostSite } from './host-page.js';
import { useOutingAndChromium } from './suite.js';

/**
 * The dashboard's cookie must be worth nothing to another site's page. The owner signs in on
 * Outing's own origin; then pages elsewhere try the two things a page can do with someone else's
 * cookie: submit a form, and fetch with `credentials: 'include'`. Three locks are at work:
 * SameSite=Strict (a cross-site request carries no cookie at all), the CSRF token (a same-site
 * page on another port gets the cookie sent, but cannot know the token) and no CORS on `/v1`
 * (no preflight is answered, no answer can be read).
 */
describe('the session cookie from another origin', () => {
  const current = useOutingAndChromium();
  let host: HostSite;
  let bookingId: string;
  let endpointId: string;
  let page: Page;
  let csrfToken: string;

  const api = async (path: string, init: RequestInit = {}) => {
    const { outing } = current();
    const res = await fetch(`${outing.origin}${path}`, {
      ...init,
      headers: { authorization: `Bearer ${outing.secretKey}`, 'content-type': 'application/json', ...init.headers },
    });
    return (await res.json()) as { data: any; pagination?: { total: number } };
  };
  /** What a successful attack would change: the booking, the keys, the users. */
  const state = async () => ({
    booking: (await api(`/v1/bookings/${bookingId}`)).data.status as string,
    keys: (await api('/v1/api-keys')).data.map((k: { id: string; revokedAt: string | null }) => [k.id, k.revokedAt]),
    users: (await api('/v1/users')).data.map((u: { email: string; role: string }) => [u.email, u.role]),
  });

  beforeAll(async () => {
    const { outing, browser } = current();
    host = await startHostSite();

    // Things an attacker would like to change. Rotating a webhook secret is a POST with an empty
    // body, exactly what a form without fields sends.
    endpointId = (await api('/v1/webhook-endpoints', { method: 'POST', body: JSON.stringify({ url: 'https://hooks.example.com/outing' }) })).data.id;
    const experience = (await api('/v1/experiences')).data[0];
    const from = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
    const to = new Date(Date.now() + 12 * 86_400_000).toISOString().slice(0, 10);
    const slots = (await api(`/v1/availability?experienceId=${experience.id}&startDate=${from}&endDate=${to}`)).data.slots;
    const slot = slots.find((s: { available: boolean }) => s.available);
    const booked = await api('/v1/bookings', {
      method: 'POST',
      body: JSON.stringify({ experienceId: experience.id, startTime: slot.startTime, participants: 1, customerName: 'Ana', customerEmail: 'ana@example.com' }),
    });
    bookingId = booked.data.id;
    expect(booked.data.status).toBe('CONFIRMED');

    // Sign in on Outing's own origin, as the dashboard will.
    const email = /Owner e-mail:\s+(\S+)/.exec(outing.output())?.[1];
    const password = /Owner password:\s+(\S+)/.exec(outing.output())?.[1];
    expect(email && password, outing.output()).toBeTruthy();
    ({ page } = await openPage(browser));
    await page.goto(`${outing.origin}/demo`);
    const signedIn = await page.evaluate(async ([e, p]) => {
      const res = await fetch('/dashboard/api/session', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: e, password: p }) });
      return { status: res.status, body: await res.json() };
    }, [email, password]);
    expect(signedIn.status).toBe(200);
    csrfToken = signedIn.body.data.csrfToken;
    const cookies = await page.context().cookies(outing.origin);
    expect(cookies.find((c) => c.name === 'outing_session')).toMatchObject({ httpOnly: true, sameSite: 'Strict' });
  }, 60_000);

  afterAll(async () => {
    await page?.context().close();
    await host?.stop();
  });

  it('works on Outing’s origin with the CSRF token (the cookie is live)', async () => {
    const status = await page.evaluate(async (token) => (await fetch('/v1/users', { headers: { 'X-CSRF-Token': token } })).status, csrfToken);
    expect(status).toBe(200);
  });

  /** The other origins: another site (localhost is not 127.0.0.1), and the same site on another port. */
  const origins = () => {
    const port = new URL(host.origin).port;
    return [
      { name: 'another site', origin: `http://localhost:${port}`, expected: 401 },
      { name: 'the same site on another port', origin: host.origin, expected: 403 },
    ];
  };

  it('a form POST from another origin changes nothing', async () => {
    const { outing } = current();
    const before = await state();
    for (const { origin, expected } of origins()) {
      const url = host.page(
        '/form.html',
        `<!doctype html><html><body>
          <iframe name="sink"></iframe>
          <form id="rotate" method="post" target="sink" action="${outing.origin}/v1/webhook-endpoints/${endpointId}/rotate-secret"></form>
          <form id="mint" method="post" target="sink" enctype="text/plain" action="${outing.origin}/v1/api-keys">
            <input name='{"name":"stolen","x":"' value='"}'>
          </form>
        </body></html>`,
      ).replace(host.origin, origin);
      await page.goto(url);
      for (const form of ['rotate', 'mint']) {
        const answered = page.waitForResponse((r: Response) => r.url().startsWith(outing.origin) && r.request().method() === 'POST');
        await page.evaluate((id) => (document.getElementById(id) as HTMLFormElement).submit(), form);
        const res = await answered;
        // Another site's form arrives without the cookie (SameSite=Strict): a request with no credentials.
        // A same-site page's form carries the cookie, and is refused for want of the CSRF token.
        expect(res.status(), `${form} from ${origin}`).toBe(expected);
        expect(await res.json()).toMatchObject({ success: false, error: { code: expected === 401 ? 'UNAUTHORIZED' : 'FORBIDDEN' } });
      }
    }
    expect(await state()).toEqual(before);
  });

  it('a fetch with credentials: include from another origin changes nothing and reads nothing', async () => {
    const { outing } = current();
    const before = await state();
    for (const { origin } of origins()) {
      await page.goto(host.page('/fetch.html', '<!doctype html><html><body>attacker</body></html>').replace(host.origin, origin));
      const outcomes = await page.evaluate(
        async ([base, id, key]) => {
          const attempt = async (path: string, init: RequestInit) => {
            try {
              const res = await fetch(base + path, { credentials: 'include', ...init });
              return `read ${res.status}`;
            } catch (err) {
              return `blocked: ${(err as Error).name}`;
            }
          };
          return [
            // A "simple" request: sent without a preflight, but its answer cannot be read.
            await attempt(`/v1/webhook-endpoints/${id}/rotate-secret`, { method: 'POST' }),
            // JSON or DELETE need a preflight, which /v1 never answers: the request itself is never sent.
            await attempt('/v1/users', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'evil@example.com', name: 'Evil', role: 'owner' }) }),
            await attempt(`/v1/api-keys/${key}`, { method: 'DELETE' }),
            await attempt('/v1/users', { method: 'GET' }),
          ];
        },
        [outing.origin, endpointId, before.keys[0]![0]] as const,
      );
      expect(outcomes, origin).toEqual(['blocked: TypeError', 'blocked: TypeError', 'blocked: TypeError', 'blocked: TypeError']);
    }
    expect(await state()).toEqual(before);
  });
});
