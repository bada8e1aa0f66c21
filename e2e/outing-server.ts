/**
 * Starts the real server for browser tests: `node bin/outing.js serve --demo` on a free port, over
 * a fresh database, and reads the demo keys it prints on first start. The database is a SQLite file
 * in a temporary folder, or with OUTING_TEST_ENGINE=postgres (the 'e2e-postgres' project) a migrated
 * database of the throwaway PostgreSQL cluster the project's global setup started.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { leaseMigratedDatabase } from '../server/test-helpers/postgres.js';

export interface OutingServer {
  /** e.g. `http://127.0.0.1:41234`, also the server's PUBLIC_URL. */
  origin: string;
  publishableKey: string;
  secretKey: string;
  /** The server's database, for a test that opens it beside the server: the SQLite file or the PostgreSQL URL. */
  database: { path?: string; url?: string };
  /** Everything the server printed so far, for failure messages. */
  output(): string;
  stop(): Promise<void>;
}

const root = resolve(import.meta.dirname, '..');

export function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolvePort(port));
    });
  });
}

/**
 * The demo keys in whatever the server printed: JSON lines with `publishableKey` / `apiKey`, or
 * a human banner. Keys are recognizable by their prefixes (osk_, opk_), so the last resort is to
 * find `opk_…` and `osk_…` tokens anywhere.
 */
export function parseKeys(text: string): { publishableKey?: string; secretKey?: string } {
  const found: { publishableKey?: string; secretKey?: string } = {};
  for (const line of text.split('\n')) {
    try {
      const value: unknown = JSON.parse(line);
      if (typeof value === 'object' && value !== null) {
        const record = value as Record<string, unknown>;
        if (typeof record['publishableKey'] === 'string') found.publishableKey ??= record['publishableKey'];
        if (typeof record['apiKey'] === 'string') found.secretKey ??= record['apiKey'];
      }
    } catch {
      // Not JSON: the banner or a log line.
    }
  }
  found.publishableKey ??= /\bopk_[A-Za-z0-9]{20,}/.exec(text)?.[0];
  found.secretKey ??= /\bosk_[A-Za-z0-9]{20,}/.exec(text)?.[0];
  return found;
}

async function healthy(origin: string): Promise<boolean> {
  try {
    const res = await fetch(`${origin}/healthz`);
    return res.ok;
  } catch {
    return false;
  }
}

function exited(child: ChildProcess): Promise<void> {
  return new Promise((done) => {
    if (child.exitCode !== null || child.signalCode !== null) done();
    else child.once('exit', () => done());
  });
}

/** The `--db` or `--database-url` the server gets, and how to give it back once the server is stopped. */
async function freshDatabase(): Promise<{ args: string[]; names: { path?: string; url?: string }; drop(): Promise<void> }> {
  if (process.env.OUTING_TEST_ENGINE === 'postgres') {
    const database = await leaseMigratedDatabase();
    return { args: ['--database-url', database.url], names: { url: database.url }, drop: () => database.drop() };
  }
  const dir = await mkdtemp(join(tmpdir(), 'outing-e2e-'));
  const path = join(dir, 'outing.db');
  return { args: ['--db', path], names: { path }, drop: () => rm(dir, { recursive: true, force: true }) };
}

export async function startOuting(env: Record<string, string> = {}): Promise<OutingServer> {
  const database = await freshDatabase();
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const child = spawn(
    process.execPath,
    ['bin/outing.js', 'serve', '--demo', '--port', String(port), '--host', '127.0.0.1', ...database.args],
    {
      cwd: root,
      env: {
        ...process.env,
        // The database is named by the arguments alone, whatever the calling shell exports.
        DATABASE_PATH: undefined,
        DATABASE_URL: undefined,
        PUBLIC_URL: origin,
        PUBLIC_BOOKINGS_PER_MINUTE: '0',
        PUBLIC_REQUESTS_PER_MINUTE: '0',
        LOG_LEVEL: 'warn',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let printed = '';
  child.stdout!.on('data', (chunk: Buffer) => (printed += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (printed += chunk.toString()));

  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited(child);
      clearTimeout(killer);
    }
    await database.drop();
  };

  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) {
      await stop();
      throw new Error(`outing serve exited with ${child.exitCode}:\n${printed}`);
    }
    const keys = parseKeys(printed);
    if (keys.publishableKey && keys.secretKey && (await healthy(origin))) {
      return { origin, publishableKey: keys.publishableKey, secretKey: keys.secretKey, database: database.names, output: () => printed, stop };
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`outing serve did not come up with its demo keys in 30 s:\n${printed}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}
