import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { runCli, tempDir, type CliResult } from './test-helpers/index.js';
import { createTestDatabase, testDatabaseUrl, type TestDatabase } from './test-helpers/postgres.js';

const printed = (result: CliResult) => {
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as Record<string, unknown>;
};
const failed = (result: CliResult, message: RegExp) => {
  expect(result.code).toBe(1);
  expect(result.stdout).toBe('');
  expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
  expect(result.stderr).toMatch(message);
};

describe('outing migrate, and the choice of database', () => {
  it('migrates a SQLite file once, then has nothing left to apply', async () => {
    const db = join(tempDir(), 'outing.db');
    const first = printed(await runCli(['migrate', '--db', db]));
    expect(first).toMatchObject({ engine: 'sqlite', database: db });
    expect((first.applied as number[]).length).toBe(first.version);
    expect(printed(await runCli(['migrate', '--db', db]))).toMatchObject({ applied: [], version: first.version });
  });

  it('refuses --db and --database-url together, and a URL that is not PostgreSQL', async () => {
    failed(await runCli(['migrate', '--db', 'x.db', '--database-url', 'postgres://h/db']), /--db .* or --database-url .*not both/);
    failed(await runCli(['keys', 'list', '--org', 'org_x', '--database-url', 'mysql://h/db']), /--database-url must be a postgres:\/\/ URL/);
  });

  describe.skipIf(!testDatabaseUrl())('on PostgreSQL', () => {
    let database: TestDatabase;
    beforeAll(async () => {
      database = await createTestDatabase();
    });
    afterAll(() => database?.drop());

    it('migrates once, however many processes start at once, then init and keys work on the URL', async () => {
      const runs = await Promise.all([1, 2, 3].map(() => runCli(['migrate', '--database-url', database.url])));
      const reports = runs.map(printed);
      // Each change applied by exactly one of the three.
      const applied = reports.flatMap((r) => r.applied as number[]).sort((a, b) => a - b);
      expect(applied).toEqual(Array.from({ length: reports[0]!.version as number }, (_, i) => i + 1));
      expect(reports[0]).toMatchObject({ engine: 'postgres' });
      expect(String(reports[0]!.database)).not.toContain('password');

      const init = printed(
        await runCli(['init', '--name', 'Harbour Tours', '--email', 'owner@example.com', '--timezone', 'Europe/Lisbon'], {
          env: { DATABASE_URL: database.url },
        }),
      );
      const keys = printed(await runCli(['keys', 'list', '--org', String(init.organizationId), '--database-url', database.url]));
      expect((keys as { data: unknown[] }).data).toHaveLength(2);
    });

    it('sends backups and restores to PostgreSQL’s own tools', async () => {
      failed(await runCli(['backup', join(tempDir(), 'b.db'), '--database-url', database.url]), /pg_dump/);
      failed(await runCli(['restore', join(tempDir(), 'b.db'), '--database-url', database.url]), /pg_restore/);
    });
  });
});
