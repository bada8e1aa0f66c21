import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { addressesOf, startSmtpServer, type SmtpHooks } from '../test-helpers/smtp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { renderBookingsFeed } from '../ical/feed.js';
import { composeGuestMessage } from './compose.js';
import { SendFailure, smtpSettings, smtpTransport } from './smtp.js';
import { bookingView, eventsOf, HOST, MANAGE_URL, messageInput, ORGANIZATION, startOf, TICKETS } from './test-helpers/guest.js';

const FROM = 'Outing <no-reply@book.example.com>';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

/** A real SMTP server on a free local port, closed after the test. */
async function smtpServer(hooks: SmtpHooks = {}) {
  const server = await startSmtpServer(hooks);
  closers.push(server.close);
  return server;
}

/** A port nothing listens on: bound once for its number, then closed. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/** A server that takes the connection and never says hello. */
async function silentServer(): Promise<number> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(
    () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  );
  return (server.address() as AddressInfo).port;
}

const transportTo = (port: number, auth = '') => smtpTransport({ url: `smtp://${auth}127.0.0.1:${port}`, from: FROM, greetingTimeoutMs: 300 });
const addresses = addressesOf;

async function failureOf(promise: Promise<unknown>): Promise<SendFailure> {
  const error = await promise.then(() => null, (e: unknown) => e);
  expect(error).toBeInstanceOf(SendFailure);
  return error as SendFailure;
}

describe('smtpTransport', () => {
  it('delivers a confirmation a mail client reads: addresses, headers, both parts and a booking.ics for the calendar', async () => {
    const { port, received } = await smtpServer();
    const booking = bookingView({ tickets: TICKETS, totalCents: 7500, places: 3, sequence: 2 });
    const message = composeGuestMessage(messageInput({ booking }));
    expect(await transportTo(port).send(message)).toEqual({ accepted: true });

    expect(received).toHaveLength(1);
    const { from, to, mail } = received[0]!;
    expect(from).toBe('no-reply@book.example.com');
    expect(to).toEqual(['eve@example.com']);
    expect(addresses(mail.to)).toEqual(['eve@example.com']);
    // MAIL_FROM's address under the organization's name, which replaces MAIL_FROM's own.
    expect(mail.from?.value).toEqual([{ name: ORGANIZATION.name, address: 'no-reply@book.example.com' }]);
    expect(addresses(mail.replyTo)).toEqual([ORGANIZATION.email]);
    expect(mail.messageId).toBe('<msg_01JTESTMESSAGE000000000@book.example.com>');
    expect(mail.subject).toBe('Booking confirmed: Alfama Walk, 1 July, 10:00');
    expect(mail.text).toContain('Date and time: Thursday, 1 July 2027, 10:00–12:00 (Europe/Lisbon, UTC+1)');
    expect(mail.text).toContain('Tickets: 2 × Adult, 1 × Child');
    expect(mail.text).toContain('Total: €75.00');
    expect(mail.text).toContain('Booking number: OUT-7K2M9Q');
    expect(mail.text).toContain(MANAGE_URL);
    expect(mail.html).toContain('<td style="padding:4px 0">2 × Adult, 1 × Child</td>');
    expect(mail.html).toContain(`href="${MANAGE_URL}"`);

    expect(mail.attachments).toHaveLength(1);
    const ics = mail.attachments[0]!;
    expect(ics.filename).toBe('booking.ics');
    expect(ics.contentType).toBe('text/calendar');
    expect(ics.headers.get('content-type')).toMatchObject({ value: 'text/calendar', params: { charset: 'utf-8', method: 'PUBLISH' } });
    const [event, ...others] = eventsOf(ics.content.toString('utf8'));
    expect(others).toEqual([]);
    const feed = eventsOf(renderBookingsFeed({ calendarName: 'Guides', host: HOST, bookings: [booking] }))[0]!;
    expect(event!.getFirstPropertyValue('uid')).toBe(feed.getFirstPropertyValue('uid'));
    expect(event!.getFirstPropertyValue('uid')).toBe(`${booking.id}@${HOST}`);
    expect(event!.getFirstPropertyValue('sequence')).toBe(2);
    expect(startOf(event!)).toBe('2027-07-01T09:00:00.000Z');
  });

  it('sends a Portuguese cancellation without the manage link or a calendar file', async () => {
    const { port, received } = await smtpServer();
    const message = composeGuestMessage(messageInput({ kind: 'BOOKING_CANCELLED', locale: 'pt', booking: bookingView({ status: 'CANCELLED' }) }));
    await transportTo(port).send(message);
    const { mail } = received[0]!;
    expect(mail.subject).toBe('Reserva cancelada: Alfama Walk, 1 de julho, 10:00');
    expect(mail.text).toContain('A sua reserva foi cancelada.');
    expect(mail.text).toContain('Data e hora: quinta-feira, 1 de julho de 2027, 10:00–12:00 (Europe/Lisbon, UTC+1)');
    expect(mail.html).toContain('A sua reserva foi cancelada');
    expect(mail.text).not.toContain('/manage');
    expect(mail.html).not.toContain('/manage');
    expect(mail.attachments).toEqual([]);
  });

  it('keeps one Message-ID across attempts, so a retry is the same message', async () => {
    const { port, received } = await smtpServer();
    const transport = transportTo(port);
    await transport.send(composeGuestMessage(messageInput({ kind: 'BOOKING_REMINDER' })));
    await transport.send(composeGuestMessage(messageInput({ kind: 'BOOKING_REMINDER' })));
    expect(received.map((r) => r.mail.messageId)).toEqual([
      '<msg_01JTESTMESSAGE000000000@book.example.com>',
      '<msg_01JTESTMESSAGE000000000@book.example.com>',
    ]);
  });

  it('lets no CR, LF or HTML in a guest name add a header or a recipient', async () => {
    const { port, received } = await smtpServer();
    const evil = 'Eve\r\nBcc: victim@example.com\r\nX-Injected: 1\r\n\r\n<script>alert(1)</script>';
    const booking = bookingView({ guestName: evil, experienceName: 'Walk\r\nX-Also-Injected: 1' });
    await transportTo(port).send(composeGuestMessage(messageInput({ booking })));
    const { to, mail } = received[0]!;
    expect(to).toEqual(['eve@example.com']);
    expect(mail.bcc).toBeUndefined();
    expect(mail.headers.has('x-injected')).toBe(false);
    expect(mail.headers.has('x-also-injected')).toBe(false);
    expect(mail.subject).toBe('Booking confirmed: Walk X-Also-Injected: 1, 1 July, 10:00');
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).toContain('&#60;script&#62;alert(1)&#60;/script&#62;');
    expect(mail.text).toContain('Hello Eve Bcc: victim@example.com X-Injected: 1 <script>alert(1)</script>,');
  });

  it('calls a refused connection temporary', async () => {
    const failure = await failureOf(transportTo(await closedPort()).send(composeGuestMessage(messageInput())));
    expect(failure.kind).toBe('temporary');
    expect(failure.responseCode).toBeNull();
    expect(failure.message).toMatch(/ECONNECTION|ECONNREFUSED/);
  });

  it('calls a server that never greets temporary, after the short timeout', async () => {
    const started = Date.now();
    const failure = await failureOf(transportTo(await silentServer()).send(composeGuestMessage(messageInput())));
    expect(failure.kind).toBe('temporary');
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it('calls a 451 reply temporary', async () => {
    const { port, received } = await smtpServer({
      onRcptTo(_address, _session, callback) {
        callback(Object.assign(new Error('Greylisted, try again later'), { responseCode: 451 }));
      },
    });
    const failure = await failureOf(transportTo(port).send(composeGuestMessage(messageInput())));
    expect(failure).toMatchObject({ kind: 'temporary', responseCode: 451 });
    expect(failure.message).toContain('Greylisted');
    expect(received).toEqual([]);
  });

  it('calls a 550 reply permanent', async () => {
    const { port } = await smtpServer({
      onData(stream, _session, callback) {
        stream.resume();
        stream.on('end', () => callback(Object.assign(new Error('Mailbox unavailable'), { responseCode: 550 })));
      },
    });
    const failure = await failureOf(transportTo(port).send(composeGuestMessage(messageInput())));
    expect(failure).toMatchObject({ kind: 'permanent', responseCode: 550 });
    expect(failure.message).toContain('Mailbox unavailable');
  });

  it('signs in with the credentials of SMTP_URL and never repeats them in a failure', async () => {
    const seen: { username?: string; password?: string }[] = [];
    const { port: goodPort, received } = await smtpServer({
      onAuth(auth, _session, callback) {
        seen.push({ username: auth.username, password: auth.password ?? undefined });
        callback(null, { user: auth.username });
      },
    });
    await transportTo(goodPort, 'mailer%40outing:s3cret%2Fpass@').send(composeGuestMessage(messageInput()));
    expect(seen).toEqual([{ username: 'mailer@outing', password: 's3cret/pass' }]);
    expect(received).toHaveLength(1);

    const { port: badPort } = await smtpServer({
      onAuth(auth, _session, callback) {
        callback(Object.assign(new Error(`Bad credentials for ${auth.username} / ${auth.password}`), { responseCode: 535 }));
      },
    });
    const failure = await failureOf(transportTo(badPort, 'mailer%40outing:s3cret%2Fpass@').send(composeGuestMessage(messageInput())));
    expect(failure).toMatchObject({ kind: 'permanent', responseCode: 535 });
    expect(failure.message).not.toContain('s3cret');
    expect(failure.message).not.toContain('mailer@outing');
  });
});

describe('smtpSettings', () => {
  it('reads SMTP_URL: TLS for smtps, default ports, decoded credentials, short timeouts, no file or URL access', () => {
    expect(smtpSettings({ url: 'smtps://u%40x:p%3Aw@mail.example.com', from: FROM })).toMatchObject({
      host: 'mail.example.com',
      port: 465,
      secure: true,
      auth: { user: 'u@x', pass: 'p:w' },
      connectionTimeout: 5_000,
      disableFileAccess: true,
      disableUrlAccess: true,
    });
    const plain = smtpSettings({ url: 'smtp://mail.example.com:2525', from: FROM });
    expect(plain).toMatchObject({ host: 'mail.example.com', port: 2525, secure: false });
    expect(plain).not.toHaveProperty('auth');
  });

  it('refuses another scheme, a missing host and a From header with a line break', () => {
    expect(() => smtpSettings({ url: 'http://mail.example.com', from: FROM })).toThrow(/smtp:\/\//);
    expect(() => smtpSettings({ url: 'not a url', from: FROM })).toThrow(/not a URL/);
    expect(() => smtpSettings({ url: 'smtp://mail.example.com', from: 'a@b\r\nBcc: c@d' })).toThrow(/one line/);
  });
});
