import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { runCli, startTestServer, tempDir, type CliResult } from './test-helpers/index.js';
import { readMigrations } from './store/migrations.js';
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
    expect(first.applied).toEqual(readMigrations().map((m) => m.version));
    expect(first.version).toBe(readMigrations().at(-1)!.version);
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
      expect(applied).toEqual(readMigrations().map((m) => m.version));
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

    it('never prints the database password, whether in the user info or a password= or sslpassword= parameter', async () => {
      const secrets = ['hunter2-userinfo', 'hunter2-query', 'hunter2-ssl'];
      const withSecrets = (url: string) => {
        const u = new URL(url);
        u.username = 'postgres';
        u.password = secrets[0]!;
        // The cluster trusts every connection: the passwords are sent along and never needed.
        return `${u.toString()}?password=${secrets[1]}&sslpassword=${secrets[2]}&application_name=outing`;
      };
      const hidden = (text: string) => {
        for (const secret of secrets) expect(text).not.toContain(secret);
      };
      const url = withSecrets(database.url);
      const migrated = await runCli(['migrate', '--database-url', url]);
      hidden(migrated.stdout + migrated.stderr);
      expect(printed(migrated).database).toBe(
        `postgres://postgres:[redacted]@${new URL(database.url).host}${new URL(database.url).pathname}?password=[redacted]&sslpassword=[redacted]&application_name=outing`,
      );

      const target = await createTestDatabase();
      try {
        const dir = tempDir();
        printed(await runCli(['init', '--name', 'Copy Tours', '--email', 'owner@example.com', '--db', join(dir, 'outing.db')]));
        const copied = await runCli(['copy', '--from', join(dir, 'outing.db'), '--to', withSecrets(target.url)]);
        hidden(copied.stdout + copied.stderr);
        expect(String(printed(copied).to)).toMatch(/^postgres:\/\/postgres:\[redacted\]@.*\?password=\[redacted\]&sslpassword=\[redacted\]/);
      } finally {
        await target.drop();
      }

      const server = await startTestServer({ databaseUrl: url, env: { LOG_LEVEL: 'info' } });
      try {
        await fetch(`${server.url}/healthz`);
        const listening = server.stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l.msg === 'listening');
        expect(String(listening?.database)).toContain('password=[redacted]');
      } finally {
        await server.stop();
      }
      hidden(server.stdout + server.stderr);
    });

    it('sends backups and restores to PostgreSQL’s own tools', async () => {
      failed(await runCli(['backup', join(tempDir(), 'b.db'), '--database-url', database.url]), /pg_dump/);
      failed(await runCli(['restore', join(tempDir(), 'b.db'), '--database-url', database.url]), /pg_restore/);
    });
  });
});
