/**
 * Test helpers shared by every server test (never part of the build):
 *
 * - `createTestApp(options?)`: the whole app over a real SQLite file in a temp folder, with an
 *   organization and its keys; `request(method, path, {key?, body?, headers?})` drives it through
 *   `app.request()`; `logs` holds the JSON log lines; `listen()` serves it on a real port.
 * - `manualClock()`: an injectable `now` for rate limits, timestamps and expiries.
 * - `expectError`, `expectValidationError`, `expectData`, `expectList`: assert the contract's
 *   envelopes with the shared zod schemas.
 * - `runCli(args)`, `startTestServer(options?)`: the real built `outing` command (`bin/outing.js`;
 *   `npm run build:server` first); the server's URL and demo keys are parsed from its banner.
 * - `processDatabase()`: a database of the engine under test (`testEngine()`: SQLite, or PostgreSQL in
 *   the `server-postgres` project) for those processes, as `--db`/`--database-url` arguments.
 * - `tampered(secret)`: the secret with one character changed, for wrong-token tests.
 * - `insertExperienceRow(store, orgId)`: a plain experience written directly;
 * - `insertBookingRow(store, …)`: a booking row written directly, for tests that only need one to exist;
 *   `everyDay(times)` a weekly schedule, `harbourCruise(t, fields?)` the usual experience through the API.
 */
export {
  createTestApp, manualClock, addOrganization,
  type TestApp, type TestAppOptions, type TestOrganization, type TestRequestOptions, type TestResponse, type ManualClock,
} from './app.js';
export { expectError, expectPriceChanged, expectValidationError, expectData, expectList, type ResponseLike } from './assert.js';
export {
  runCli, startTestServer, cliEnv, tempDir, repoRoot, cliPath,
  type CliResult, type TestServer, type TestServerOptions, type DemoKeys,
} from './cli.js';
export { processDatabase, fileDatabases, openStoreOn, openTestStore, type ProcessDatabase } from './process-database.js';
export { openStoreWithTwoOrganizations } from './store.js';
export { testEngine } from './app.js';
export { insertBookingRow, insertExperienceRow, everyDay, harbourCruise, tampered } from './fixtures.js';
