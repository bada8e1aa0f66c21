import { defineConfig } from 'vitest/config';
import { postgresTestsOn } from './server/test-helpers/postgres-available.js';

// As in vitest.config.ts: the PostgreSQL project needs a cluster, one named by
// OUTING_TEST_DATABASE_URL or a throwaway one its global setup starts when PostgreSQL is installed.
const postgres = postgresTestsOn();

// Browser tests (`npm run test:e2e`): real headless Chromium against a real `outing serve`,
// started by each file (e2e/outing-server.ts). Files run one at a time, across both projects: each
// owns a server and a browser, and screenshots are easier to read when nothing else competes for the CPU.
export default defineConfig({
  test: {
    fileParallelism: false,
    projects: [
      {
        extends: true as const,
        test: {
          name: 'e2e',
          include: ['e2e/**/*.e2e.test.ts'],
          environment: 'node',
          pool: 'forks',
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      ...(postgres ? [{
        // A few of the same files again with the server on PostgreSQL (OUTING_TEST_ENGINE makes
        // e2e/outing-server.ts serve a database of the throwaway cluster): the widget's booking, the
        // guest's manage page (a waitlist offer's too) and the dashboard, the flows whose every step reads or writes the store.
        // The rest exercise the browser side, the same on either engine.
        extends: true as const,
        test: {
          name: 'e2e-postgres',
          include: ['e2e/booking.e2e.test.ts', 'e2e/manage.e2e.test.ts', 'e2e/manage-update.e2e.test.ts', 'e2e/waitlist-offer.e2e.test.ts', 'e2e/dashboard.e2e.test.ts', 'e2e/dashboard-bookings.e2e.test.ts', 'e2e/dashboard-new-booking.e2e.test.ts', 'e2e/widget-waitlist.e2e.test.ts'],
          environment: 'node',
          pool: 'forks',
          testTimeout: 60_000,
          hookTimeout: 60_000,
          env: { OUTING_TEST_ENGINE: 'postgres' },
          globalSetup: ['server/test-helpers/postgres-global-setup.ts'],
          setupFiles: ['server/test-helpers/postgres-setup-file.ts'],
        },
      }] : []),
    ],
  },
});
