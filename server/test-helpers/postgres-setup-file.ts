import { afterAll } from 'vitest';
import { dropIdleDatabases } from './postgres.js';

// Vitest setup file of the server projects: runs in each test file's process, before the file.
// The databases leaseMigratedDatabase kept for reuse are dropped once the file is done.
afterAll(async () => {
  await dropIdleDatabases();
});
