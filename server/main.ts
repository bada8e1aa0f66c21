import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { createApp } from './app.js';
import type { Config } from './config.js';
import { createLogger, type Logger } from './logger.js';
import type { Store } from './store/index.js';
import { openConfiguredStore, databaseLabel } from './store/open.js';
import { holdServerLock } from './store/sqlite/server-lock.js';
import { readableByOthers } from './store/private-files.js';
import { answerMalformedRequests } from './http/client-errors.js';
import { seedDemo, type DemoSeed } from './demo.js';
import type { Job } from './jobs/job.js';
import type { MailTransport } from './mail/message.js';
import { maintenanceJob } from './jobs/maintenance.js';
import { webhookDeliveryJob } from './jobs/webhook-deliveries.js';
import { calendarSyncJob } from './jobs/calendar-sync.js';
import { holdExpiryJob } from './jobs/hold-expiry.js';
import { guestMailJob } from './jobs/guest-mail.js';

export interface RunningServer {
  url: string;
  /** PUBLIC_URL as served (it follows the port when not set). */
  publicUrl: string;
  port: number;
  store: Store;
  demo: DemoSeed | undefined;
  /** Stops accepting, lets in-flight requests finish, stops background work, closes the database. */
  close(): Promise<void>;
}

function listen(server: Server, port: number, host: string): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve(server.address() as AddressInfo);
    });
  });
}

/**
 * The configuration as served: with port 0 (tests) the port is known only once listening, and the
 * public URL follows it unless PUBLIC_URL was given. Nothing changes it afterwards.
 */
function servedConfig(config: Config, port: number): Readonly<Config> {
  const explicitPublicUrl = process.env.PUBLIC_URL !== undefined && process.env.PUBLIC_URL.trim() !== '';
  return Object.freeze({ ...config, port, publicUrl: explicitPublicUrl ? config.publicUrl : `http://localhost:${port}` });
}

/** The SMTP transport when SMTP_URL is set (nodemailer is loaded only then), else none: messages are SKIPPED. */
async function mailTransportFrom(config: Readonly<Config>): Promise<MailTransport | null> {
  if (config.smtpUrl === undefined) return null;
  const { smtpTransport } = await import('./mail/smtp.js');
  return smtpTransport({ url: config.smtpUrl, from: config.mailFrom });
}

/**
 * Boot: open and migrate the database, listen, make the app from the final configuration, seed
 * the demo when asked, and start the background jobs.
 */
export async function startServer(initial: Config, options: { demo?: boolean; logger?: Logger } = {}): Promise<RunningServer> {
  const logger = options.logger ?? createLogger(initial.logLevel);
  // Held while serving, so that `outing restore` refuses to replace the SQLite file under us. On
  // PostgreSQL several processes share the database by design: there is no such lock.
  const serverLock =
    initial.databaseUrl === undefined
      ? holdServerLock(initial.databasePath, (msg, fields) => logger.warn(msg, fields))
      : { release: () => {} };
  let store: Store;
  try {
    store = await openConfiguredStore(initial);
  } catch (err) {
    serverLock.release();
    throw err;
  }
  // The socket is bound before the app exists; the request listener is attached in the same
  // turn of the event loop as `listening`, before any connection can be read.
  const server = createServer();
  answerMalformedRequests(server);
  server.keepAliveTimeout = 5_000;
  let address: AddressInfo;
  try {
    address = await listen(server, initial.port, initial.host);
  } catch (err) {
    await store.close();
    serverLock.release();
    throw err;
  }
  const config = servedConfig(initial, address.port);
  // `outing serve --demo` (npm start) keeps the start banner, with its one-time password, on screen:
  // its request lines are at debug, printed only when LOG_LEVEL asks for them.
  // Its unit of work carries whether this process can send guest e-mails (SMTP_URL set).
  const { app, calendarSync, payments, work } = createApp({ store, config, logger, requestLogLevel: options.demo ? 'debug' : 'info' });
  server.on('request', getRequestListener(app.fetch));

  const demo = options.demo ? (await work.run({}, () => seedDemo(store, config.publicUrl, Date.now()))).result : undefined;
  const jobs: Job<unknown>[] = [
    maintenanceJob({ store, config, logger }),
    webhookDeliveryJob({ store, config, logger }),
    calendarSyncJob(calendarSync, logger),
    holdExpiryJob({ store, provider: payments, logger, work }),
    guestMailJob({ store, config, logger, transport: await mailTransportFrom(config), work }),
  ];
  for (const job of jobs) await job.start();
  logger.info('listening', { host: config.host, port: address.port, database: databaseLabel(config) });
  // New databases are private (0600); one made by an older Outing, or copied in by hand, may not be.
  if (config.databaseUrl === undefined && readableByOthers(config.databasePath)) {
    logger.warn('other users of this machine can read the database: chmod 600 it and its -wal and -shm files, chmod 700 its folder', {
      database: config.databasePath,
    });
  }

  let closing: Promise<void> | undefined;
  return {
    url: `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${address.port}`,
    publicUrl: config.publicUrl,
    port: address.port,
    store,
    demo,
    close: () =>
      (closing ??= (async () => {
        // Jobs stop taking work now; attempts in flight get a moment to finish, the rest stay due.
        const jobsStopped = Promise.allSettled(jobs.map((job) => job.stop()));
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections();
        // A keep-alive connection whose request was in flight turns idle only once answered: close it
        // then, rather than after keepAliveTimeout.
        const sweep = setInterval(() => server.closeIdleConnections(), 50);
        const force = setTimeout(() => server.closeAllConnections(), 10_000);
        force.unref();
        await closed;
        clearInterval(sweep);
        clearTimeout(force);
        await jobsStopped;
        await store.close();
        serverLock.release();
      })()),
  };
}
