import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { postgresInstalled } from './postgres-available.js';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

/**
 * Vitest globalSetup of the 'server' project: a PostgreSQL cluster for the tests that need one.
 *
 * - `OUTING_TEST_DATABASE_URL` already set (to a cluster whose user may CREATE DATABASE): used as is.
 *   Set to the empty string, it turns the PostgreSQL tests off (they skip).
 * - Otherwise, when PostgreSQL is installed (initdb under /usr/lib/postgresql/VERSION/bin or on PATH),
 *   `scripts/postgres.sh start` runs a throwaway cluster in a temporary folder for this run, and
 *   its URL goes into `process.env.OUTING_TEST_DATABASE_URL`. Global setup runs in the main vitest
 *   process before the 'forks' pool starts its workers, and each worker (a child process) inherits
 *   the environment, so the tests (and the processes they start) see it. The teardown stops the
 *   cluster and removes the folder; so does an exit that skips the teardown.
 * - Neither: the variable stays unset, `OUTING_TEST_POSTGRES_SKIPPED` says why, and the PostgreSQL
 *   tests skip (server/test-helpers/postgres.ts).
 */
const ENV = 'OUTING_TEST_DATABASE_URL';
const SKIPPED = 'OUTING_TEST_POSTGRES_SKIPPED';
const script = resolve(dirname(fileURLToPath(import.meta.url)), '../../scripts/postgres.sh');
const run = promisify(execFile);

export default async function setup(): Promise<(() => Promise<void>) | undefined> {
  if (process.env[ENV] !== undefined) {
    if (process.env[ENV] === '') process.env[SKIPPED] = `${ENV} is set to the empty string`;
    return undefined;
  }
  if (!postgresInstalled()) {
    process.env[SKIPPED] = 'PostgreSQL is not installed (no initdb under /usr/lib/postgresql/*/bin nor on PATH)';
    return undefined;
  }

  const dir = mkdtempSync(join(tmpdir(), 'outing-pg-'));
  let stopped = false;
  const stopNow = () => {
    if (stopped) return;
    stopped = true;
    try {
      execFileSync('bash', [script, 'stop', dir], { stdio: 'ignore', timeout: 60_000 });
    } catch {
      rmSync(dir, { recursive: true, force: true });
    }
  };
  // A run that ends without its teardown (an error in another setup, process.exit) stops it too.
  process.once('exit', stopNow);

  let url: string;
  try {
    const { stdout } = await run('bash', [script, 'start', dir], { timeout: 120_000 });
    url = stdout.trim().split('\n').pop() ?? '';
    if (!url.startsWith('postgres://')) throw new Error(`scripts/postgres.sh start printed no URL: ${stdout}`);
  } catch (err) {
    stopNow();
    const e = err as Error & { stderr?: string };
    throw new Error(
      `PostgreSQL is installed but the test cluster did not start (set ${ENV}= to run without it):\n${e.stderr ?? e.message}`,
    );
  }
  process.env[ENV] = url;

  return async () => {
    process.removeListener('exit', stopNow);
    if (stopped) return;
    stopped = true;
    await run('bash', [script, 'stop', dir], { timeout: 60_000 }).catch(() => rmSync(dir, { recursive: true, force: true }));
  };
}
