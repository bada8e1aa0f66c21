import { createAdaptorServer } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { createApp } from './app.js';
import type { Config } from './config.js';
import { createLogger, type Logger } from './logger.js';
import { openStore, type Store } from './store/index.js';
import { holdServerLock } from './store/server-lock.js';
import { answerMalformedRequests } from './http/client-errors.js';
import { seedDemo, type DemoSeed } from './demo.js';
import { startMaintenance } from './jobs.js';
import { startWebhookWorker } from './webhooks/worker.js';
import { paymentProviderFrom } from './payments/configure.js';
import { startHoldSweeper } from './payments/holds.js';

export interface RunningServer {
  url: string;
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

/** Boot: open and migrate the database, seed the demo when asked, serve, and start background work. */
export async function startServer(config: Config, options: { demo?: boolean; logger?: Logger } = {}): Promise<RunningServer> {
  const logger = options.logger ?? createLogger(config.logLevel);
  // Held while serving, so that `outing restore` refuses to replace the database under us.
  const serverLock = holdServerLock(config.databasePath, (msg, fields) => logger.warn(msg, fields));
  const store = openStore(config.databasePath);
  const explicitPublicUrl = process.env.PUBLIC_URL !== undefined && process.env.PUBLIC_URL.trim() !== '';
  const payments = paymentProviderFrom(config, logger);
  const { app, calendarSync } = createApp({ store, config, logger, payments: payments ?? null });
  const server = createAdaptorServer({ fetch: app.fetch }) as Server;
  answerMalformedRequests(server);
  server.keepAliveTimeout = 5_000;
  let address: AddressInfo;
  try {
    address = await listen(server, config.port, config.host);
  } catch (err) {
    store.close();
    serverLock.release();
    throw err;
  }
  if (!explicitPublicUrl) config.publicUrl = `http://localhost:${address.port}`;
  const demo = options.demo ? seedDemo(store, config.publicUrl, Date.now()) : undefined;
  const stopMaintenance = startMaintenance({ store, config, logger });
  const webhookWorker = startWebhookWorker({ store, config, logger });
  // Imports calendars due now (also those that fell due while the server was down), then on schedule.
  calendarSync.start();
  // Releases lapsed payment holds now (also those that lapsed while the server was down) and every few seconds.
  const holdSweeper = startHoldSweeper({ store, provider: payments, logger });
  logger.info('listening', { host: config.host, port: address.port, database: config.databasePath });

  let closing: Promise<void> | undefined;
  return {
    url: `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${address.port}`,
    port: address.port,
    store,
    demo,
    close: () =>
      (closing ??= (async () => {
        // Stops taking deliveries now; attempts in flight get a moment to finish, the rest stay due.
        const webhooksStopped = webhookWorker.stop();
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
        await stopMaintenance();
        await webhooksStopped;
        await holdSweeper.stop();
        // Cancels calendar fetches still under way; their last good copies stay.
        await calendarSync.stop();
        store.close();
        serverLock.release();
      })()),
  };
}
