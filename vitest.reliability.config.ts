import { defineConfig } from 'vitest/config';
import { postgresTestsOn } from './server/test-helpers/postgres-available.js';

// The PostgreSQL run needs a cluster: one named by OUTING_TEST_DATABASE_URL, or PostgreSQL installed
// (the global setup starts a throwaway one). Without either, only the SQLite run exists.
const postgres = postgresTestsOn();

/**
 * The reliability suite (`npm run test:reliability`, also run by .ci/run): crashes under load,
 * a seeded fuzz of every route, backups of a large database. Each file drives real `outing`
 * processes, so files run one after another: on a 2-core machine they would only slow each other.
 * The crash test and the fuzz run twice: on SQLite, and again on PostgreSQL when a cluster is at hand;
 * with a cluster, fuzz-engines.test.ts also sends the same fuzz to both engines at once and compares.
 */
const shared = {
  environment: 'node',
  pool: 'forks',
  fileParallelism: false,
  testTimeout: 600_000,
  hookTimeout: 180_000,
} as const;

export default defineConfig({
  test: {
    // One file at a time across both projects too (one worker in all).
    fileParallelism: false,
    projects: [
      {
        test: {
          ...shared,
          name: 'reliability',
          include: ['reliability/**/*.test.ts'],
          // Both engines at once: it needs the cluster of the project below.
          exclude: ['reliability/fuzz-engines.test.ts'],
        },
      },
      ...(postgres
        ? [
            {
              test: {
                ...shared,
                name: 'reliability-postgres',
                include: ['reliability/crash-under-load.test.ts', 'reliability/fuzz.test.ts', 'reliability/fuzz-engines.test.ts'],
                env: { OUTING_TEST_ENGINE: 'postgres' },
                // A throwaway PostgreSQL cluster for the run; the databases kept for reuse are dropped after the file.
                globalSetup: ['server/test-helpers/postgres-global-setup.ts'],
                setupFiles: ['server/test-helpers/postgres-setup-file.ts'],
              },
            },
          ]
        : []),
    ],
  },
});
