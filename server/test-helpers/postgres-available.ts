import { existsSync, readdirSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/** Whether scripts/postgres.sh will find the PostgreSQL server programs (initdb under /usr/lib/postgresql/VERSION/bin or on PATH). */
export function postgresInstalled(): boolean {
  const versions = existsSync('/usr/lib/postgresql') ? readdirSync('/usr/lib/postgresql') : [];
  if (versions.some((v) => existsSync(join('/usr/lib/postgresql', v, 'bin', 'initdb')))) return true;
  return (process.env.PATH ?? '').split(delimiter).some((dir) => dir !== '' && existsSync(join(dir, 'initdb')));
}

/**
 * Whether the test configurations add their PostgreSQL projects: a cluster is at hand, the one
 * OUTING_TEST_DATABASE_URL names, or a throwaway one the global setup (postgres-global-setup.ts)
 * starts because PostgreSQL is installed. `OUTING_TEST_DATABASE_URL=` (empty) turns them off.
 */
export function postgresTestsOn(): boolean {
  const url = process.env.OUTING_TEST_DATABASE_URL;
  return url !== '' && (url !== undefined || postgresInstalled());
}
