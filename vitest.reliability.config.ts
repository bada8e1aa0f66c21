import { defineConfig } from 'vitest/config';

/**
 * The reliability suite (`npm run test:reliability`, also run by .ci/run): crashes under load,
 * a seeded fuzz of every route, backups of a large database. Each file drives real `outing`
 * processes, so files run one after another: on a 2-core machine they would only slow each other.
 */
export default defineConfig({
  test: {
    name: 'reliability',
    include: ['reliability/**/*.test.ts'],
    environment: 'node',
    pool: 'forks',
    fileParallelism: false,
    testTimeout: 600_000,
    hookTimeout: 180_000,
  },
});
