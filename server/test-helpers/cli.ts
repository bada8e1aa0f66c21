import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root folder. */
export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
/** The built `outing` command (needs `npm run build:server`; `npm test` builds first). */
export const cliPath = join(repoRoot, 'bin/outing.js');

/** The operator variables (README: Configuration): removed from the inherited environment, so tests see the defaults. */
const CONFIG_VARIABLES = [
  'PORT', 'HOST', 'DATABASE_PATH', 'DATABASE_URL', 'DATABASE_POOL_SIZE', 'PUBLIC_URL', 'WEBHOOK_RETRY_SCHEDULE', 'WEBHOOK_TIMEOUT_MS', 'CALENDAR_SYNC_INTERVAL',
  'RATE_LIMIT_PER_MINUTE', 'PUBLIC_BOOKINGS_PER_MINUTE', 'PUBLIC_REQUESTS_PER_MINUTE', 'TRUST_PROXY',
  'EVENT_RETENTION_DAYS', 'PAYMENT_HOLD_MINUTES', 'STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET', 'STRIPE_API_BASE',
  'OUTBOUND_ALLOW_PRIVATE', 'LOG_LEVEL',
];

function ensureBuilt(): void {
  if (!existsSync(join(repoRoot, 'dist/server/cli.js'))) {
    throw new Error('dist/server/cli.js is missing: run `npm run build:server` before these tests');
  }
}

/** `process.env` without the operator variables, plus `extra` (an `undefined` value removes a variable). */
export function cliEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of CONFIG_VARIABLES) delete env[name];
  for (const [name, value] of Object.entries(extra)) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  return env;
}

/** A fresh temp folder for databases and backups. */
export function tempDir(prefix = 'outing-cli-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `outing ARGS…` to completion (asynchronously, so servers in this process keep serving). */
export function runCli(args: string[], options: { env?: Record<string, string | undefined>; cwd?: string } = {}): Promise<CliResult> {
  ensureBuilt();
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [cliPath, ...args], { env: cliEnv(options.env), cwd: options.cwd ?? repoRoot });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolvePromise({ code, stdout, stderr }));
  });
}

/** Keys printed by `serve --demo` on an empty database. */
export interface DemoKeys {
  secretKey: string;
  publishableKey: string;
  icalFeedUrl: string;
}

export interface TestServer {
  /** Where it listens, e.g. `http://127.0.0.1:41234` (parsed from the banner). */
  url: string;
  /** PUBLIC_URL as the banner printed it. */
  publicUrl: string;
  /** The database file (`--db`, or `DATABASE_PATH` when `dbPath: null`); '' on PostgreSQL. */
  dbPath: string;
  /** The demo keys when the banner printed them (`demo: true` on an empty database). */
  demo: DemoKeys | undefined;
  child: ChildProcess;
  /** Everything written so far (live). */
  readonly stderr: string;
  readonly stdout: string;
  /** Resolves once the process has exited. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Sends `signal` (default SIGTERM) and waits for the exit. Safe to call twice. */
  stop(signal?: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export interface TestServerOptions {
  /** SQLite file for `--db` (default: a new one in a temp folder); `null` passes no `--db` (so `DATABASE_PATH` applies). */
  dbPath?: string | null;
  /** A PostgreSQL database for `--database-url`, instead of any `--db` (see `processDatabase`). */
  databaseUrl?: string;
  /** Pass `--demo`. */
  demo?: boolean;
  /** `--port` value; default 0 (a free port). `null` passes no `--port` (so `PORT` applies). */
  port?: number | null;
  /** More arguments after `serve`. */
  args?: string[];
  /** Environment on top of `process.env` minus the operator variables. Default LOG_LEVEL `warn`. */
  env?: Record<string, string | undefined>;
  /** Give up waiting for the banner after this long (default 20 s). */
  startTimeoutMs?: number;
}

const children = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of children) child.kill('SIGKILL');
});

/**
 * Spawns the real built `outing serve` on 127.0.0.1 and resolves once its banner is printed.
 * Always `stop()` it (e.g. in `afterAll`); leftovers are killed when the test process exits.
 */
export function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  ensureBuilt();
  const dbPath =
    options.databaseUrl !== undefined || options.dbPath === null
      ? (options.env?.DATABASE_PATH ?? '')
      : (options.dbPath ?? join(tempDir('outing-serve-'), 'outing.db'));
  const args = [cliPath, 'serve', '--host', '127.0.0.1'];
  if (options.databaseUrl !== undefined) args.push('--database-url', options.databaseUrl);
  else if (options.dbPath !== null) args.push('--db', dbPath);
  const port = options.port === undefined ? 0 : options.port;
  if (port !== null) args.push('--port', String(port));
  if (options.demo) args.push('--demo');
  args.push(...(options.args ?? []));
  const child = spawn(process.execPath, args, { env: cliEnv({ LOG_LEVEL: 'warn', ...options.env }), cwd: repoRoot });
  children.add(child);
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8');
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) =>
    child.on('exit', (code, signal) => {
      children.delete(child);
      done({ code, signal });
    }),
  );

  return new Promise((resolvePromise, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`outing serve printed no banner within the time limit; stderr:\n${stderr}`));
    }, options.startTimeoutMs ?? 20_000);
    const onData = (d: string) => {
      stderr += d;
      const banner = /Outing is listening on (\S+) \(public URL (\S+?)\)/.exec(stderr);
      // The banner is written in one piece; wait for its last line when keys are printed.
      if (!banner || (/Demo organization created/.test(stderr) && !/curl -H/.test(stderr))) return;
      clearTimeout(timer);
      child.stderr.off('data', onData);
      child.stderr.on('data', (more: string) => (stderr += more));
      const secretKey = /Secret key:\s+(osk_\w+)/.exec(stderr)?.[1];
      const publishableKey = /Publishable key:\s+(opk_\w+)/.exec(stderr)?.[1];
      const icalFeedUrl = /iCal feed:\s+(\S+)/.exec(stderr)?.[1];
      const stop = (signal: NodeJS.Signals = 'SIGTERM') => {
        if (child.exitCode === null && child.signalCode === null) child.kill(signal);
        return exited;
      };
      resolvePromise({
        url: banner[1] ?? '',
        publicUrl: banner[2] ?? '',
        dbPath,
        demo: secretKey && publishableKey && icalFeedUrl ? { secretKey, publishableKey, icalFeedUrl } : undefined,
        child,
        get stderr() {
          return stderr;
        },
        get stdout() {
          return stdout;
        },
        exited,
        stop,
      });
    };
    child.stderr.on('data', onData);
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    void exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`outing serve exited (code ${code}, signal ${signal}) before listening; stderr:\n${stderr}`));
    });
  });
}
