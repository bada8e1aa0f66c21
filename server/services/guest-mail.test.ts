import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createTestApp, expectData, expectList, harbourCruise, openStoreOn, testEngine, type TestApp,
} from '../test-helpers/index.js';
import { createApp } from '../app.js';
import { createLogger } from '../logger.js';
import type { Store } from '../store/index.js';
import { startGuestMail } from './guest-mail.js';
import { Booking, Message, type Experience } from '../../shared/index.js';

// Whether guest e-mails can go out is each process's own configuration (SMTP_URL), not a setting of
// the database they share: two processes over one database, one with a mail server and one without.

const SATURDAY_10 = '2026-01-10T10:00:00.000Z';

describe(`guest mail is process configuration (${testEngine()})`, () => {
  let t: TestApp;
  let other: Store;
  let otherApp: ReturnType<typeof createApp>['app'];
  let exp: Experience;

  beforeEach(async () => {
    const now = () => Date.UTC(2026, 0, 5, 12);
    // The test app can send; the other process over the same database has no mail server.
    t = await createTestApp({ now, logLevel: 'silent' });
    other = await openStoreOn({ path: t.dbPath, url: t.config.databaseUrl });
    ({ app: otherApp } = createApp({ store: other, config: t.config, logger: createLogger('silent'), now, guestMail: false }));
    exp = await harbourCruise(t);
  });
  afterEach(async () => {
    await other.close();
    await t.close();
  });

  const bookThrough = async (app: ReturnType<typeof createApp>['app'], email: string) => {
    const res = await app.request('/v1/bookings', {
      method: 'POST',
      headers: { authorization: `Bearer ${t.secretKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ experienceId: exp.id, startTime: SATURDAY_10, participants: 1, customerName: 'Eve Adams', customerEmail: email }),
    });
    return expectData({ status: res.status, body: await res.json() }, Booking, 201);
  };
  const messagesOf = async (id: string) => expectList(await t.request('GET', `/v1/bookings/${id}/messages`), Message).data;

  it('queues for sending in the process with a mail server, SKIPPED in the one without, whichever started its mail last', async () => {
    await startGuestMail(t.store, true);
    await startGuestMail(other, false);
    const withMail = await bookThrough(t.app, 'with@example.com');
    const without = await bookThrough(otherApp, 'without@example.com');
    expect(await messagesOf(withMail.id)).toMatchObject([{ kind: 'BOOKING_CONFIRMED', status: 'PENDING' }]);
    expect(await messagesOf(without.id)).toMatchObject([{ kind: 'BOOKING_CONFIRMED', status: 'SKIPPED', lastError: expect.stringMatching(/SMTP_URL/) }]);

    // And the other way round: the process with a mail server starting last changes nothing elsewhere.
    await startGuestMail(t.store, true);
    const again = await bookThrough(otherApp, 'again@example.com');
    expect(await messagesOf(again.id)).toMatchObject([{ status: 'SKIPPED' }]);
    const sent = await bookThrough(t.app, 'sent@example.com');
    expect(await messagesOf(sent.id)).toMatchObject([{ status: 'PENDING' }]);
  });

  it('reads no setting of the database when a booking queues its message', async () => {
    await t.store.settings.setSetting('guest_mail', 'on');
    const booking = await bookThrough(otherApp, 'eve@example.com');
    expect(await messagesOf(booking.id)).toMatchObject([{ status: 'SKIPPED' }]);
  });

  it('holds per process, not per database handle: two apps over one store each queue as configured', async () => {
    const { app: withoutMail } = createApp({ store: t.store, config: t.config, logger: createLogger('silent'), now: () => Date.UTC(2026, 0, 5, 12), guestMail: false });
    const skipped = await bookThrough(withoutMail, 'skipped@example.com');
    const pending = await bookThrough(t.app, 'pending@example.com');
    expect(await messagesOf(skipped.id)).toMatchObject([{ status: 'SKIPPED' }]);
    expect(await messagesOf(pending.id)).toMatchObject([{ status: 'PENDING' }]);
  });
});
