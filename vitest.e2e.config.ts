import { defineConfig } from 'vitest/config';

// Browser tests (`npm run test:e2e`): real headless Chromium against a real `outing serve`,
// started by each file (e2e/outing-server.ts). Files run one at a time: each owns a server and
// a browser, and screenshots are easier to read when nothing else competes for the CPU.
export default defineConfig({
  test: {
    name: 'e2e',
    include: ['e2e/**/*.e2e.test.ts'],
    environment: 'node',
    pool: 'forks',
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
