import { createAdaptorServer } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { createApp } from './app.js';
import type { Config } from './config.js';
import { createLogger, type Logger } from './logger.js';
import { openStore, type Store } from './store/index.js';
import { seedDemo, type DemoSeed } from './demo.js';
import { startMaintenance } from './jobs.js';

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
  const store = openStore(config.databasePath);
  const explicitPublicUrl = process.env.PUBLIC_URL !== undefined && process.env.PUBLIC_URL.trim() !== '';
  const { app } = createApp({ store, config, logger });
  const server = createAdaptorServer({ fetch: app.fetch }) as Server;
  server.keepAliveTimeout = 5_000;
  let address: AddressInfo;
  try {
    address = await listen(server, config.port, config.host);
  } catch (err) {
    store.close();
    throw err;
  }
  if (!explicitPublicUrl) config.publicUrl = `http://localhost:${address.port}`;
  const demo = options.demo ? seedDemo(store, config.publicUrl, Date.now()) : undefined;
  const stopMaintenance = startMaintenance({ store, config, logger });
  logger.info('listening', { host: config.host, port: address.port, database: config.databasePath });

  let closing: Promise<void> | undefined;
  return {
    url: `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${address.port}`,
    port: address.port,
    store,
    demo,
    close: () =>
      (closing ??= (async () => {
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections();
        const force = setTimeout(() => server.closeAllConnections(), 10_000);
        force.unref();
        await closed;
        clearTimeout(force);
        await stopMaintenance();
        store.close();
      })()),
  };
}
