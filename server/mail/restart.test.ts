import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { processDatabase, runCli, startTestServer, type ProcessDatabase, type TestServer } from '../test-helpers/index.js';
import { startSmtpServer, type TestSmtpServer } from '../test-helpers/smtp.js';
import { Message, listEnvelope } from '../../shared/index.js';

// The real built server (`npm run build:server` first), killed mid-send and started again on the
// same database: a SQLite file, or a PostgreSQL database (OUTING_TEST_ENGINE=postgres).
const servers: TestServer[] = [];
let smtp: TestSmtpServer | undefined;
let db: ProcessDatabase | undefined;
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.stop('SIGKILL')));
  await smtp?.close();
  await db?.drop();
  db = undefined;
});

// On SQLite the restarted server holds the file alone and takes a killed process's sends back at
// once. On PostgreSQL another process might still be sending, so the message is due again only
// when the dead process's lease runs out (60 s by default): the test moves that lease into the past
// while no server runs, as if the minute had gone by, rather than waiting it out.
async function letLeasesRunOut(database: ProcessDatabase): Promise<void> {
  if (database.url === undefined) return;
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    const { rowCount } = await client.query('UPDATE messages SET leased_until = $1 WHERE leased_until IS NOT NULL', [Date.now() - 1]);
    expect(rowCount).toBe(1); // the killed send's lease
  } finally {
    await client.end();
  }
}

async function api(server: TestServer, key: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, body: (await res.json()) as { data: Record<string, unknown> } };
}

describe('guest e-mails across a crash', () => {
  it('sends, with the same Message-ID, a confirmation whose send was cut short by SIGKILL', { timeout: 90_000 }, async () => {
    let hanging = true;
    let reachedServer!: () => void;
    const reached = new Promise<void>((resolve) => (reachedServer = resolve));
    smtp = await startSmtpServer({
      onRcptTo(_address, _session, callback) {
        reachedServer();
        if (!hanging) callback(); // while hanging, the reply never comes: the send is in flight
      },
    });
    const env = { SMTP_URL: smtp.url, PUBLIC_URL: 'https://book.restart.example', MAIL_FROM: 'Restart Tours <book@restart.example>' };
    db = await processDatabase();
    const init = await runCli(['init', '--name', 'Restart Tours', '--email', 'ops@restart.example', '--timezone', 'UTC', ...db.args]);
    expect(init.code, init.stderr).toBe(0);
    const { apiKey } = JSON.parse(init.stdout) as { apiKey: string };
    const server = await startTestServer({ ...db.server, env });
    servers.push(server);
    const exp = await api(server, apiKey, 'POST', '/v1/experiences', {
      name: 'Sunset sail', description: '', duration: 60, price: 5000, maxParticipants: 10,
      schedule: { timezone: 'UTC', weekly: { mon: ['18:00'], tue: ['18:00'], wed: ['18:00'], thu: ['18:00'], fri: ['18:00'], sat: ['18:00'], sun: ['18:00'] } },
    });
    const startTime = `${new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10)}T18:00:00.000Z`;
    const booking = await api(server, apiKey, 'POST', '/v1/bookings', {
      experienceId: exp.body.data.id, startTime, participants: 2, customerName: 'Ana', customerEmail: 'ana@example.com',
    });
    expect(booking.status).toBe(201);
    await reached;
    expect((await server.stop('SIGKILL')).signal).toBe('SIGKILL');
    expect(smtp.received).toHaveLength(0);

    hanging = false;
    await letLeasesRunOut(db);
    const again = await startTestServer({ ...db.server, env });
    servers.push(again);
    const [mail] = await smtp.waitFor(1, 30_000);
    // The SMTP server has the mail a moment before the sender records it as sent: poll the log.
    let message: Message | undefined;
    for (const deadline = Date.now() + 20_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 100))) {
      const log = await api(again, apiKey, 'GET', `/v1/bookings/${String(booking.body.data.id)}/messages`);
      [message] = listEnvelope(Message).parse(log.body).data;
      if (message?.status !== 'PENDING') break;
    }
    expect(message).toMatchObject({ kind: 'BOOKING_CONFIRMED', status: 'SENT', attempts: 1 });
    expect(mail!.mail.messageId).toBe(`<${message!.id}@book.restart.example>`);
    expect(mail!.to).toEqual(['ana@example.com']);
    expect((await again.stop('SIGTERM')).code).toBe(0);
  });
});
