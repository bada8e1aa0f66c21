import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { existsSync, linkSync, mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, tempDir, testEngine, type CliResult } from './test-helpers/index.js';
import { testDatabaseUrl } from './test-helpers/postgres.js';

/** `outing backup` and `restore` are SQLite's own: on PostgreSQL those cases skip (pg_dump's job). */
const onPostgres = testEngine() !== 'sqlite';

/**
 * The database named by the environment, for help that must not touch it: a file not there yet, or
 * on PostgreSQL a database of the test cluster that does not exist, so that any connection would fail.
 */
function unopenedDatabase(dir: string): Record<string, string> {
  if (!onPostgres) return { DATABASE_PATH: join(dir, 'o.db') };
  const url = new URL(testDatabaseUrl() ?? 'postgres://127.0.0.1:1/outing');
  url.pathname = `/outing_absent_${Date.now()}`;
  return { DATABASE_URL: url.toString() };
}

/** Help: exit 0, human text on stderr (like `outing --help`), nothing on stdout. */
function helped(result: CliResult, usage: RegExp): void {
  expect(result.code, result.stderr).toBe(0);
  expect(result.stdout).toBe('');
  expect(result.stderr).toMatch(usage);
  expect(result.stderr).not.toMatch(/Unknown option|outing:/);
}

describe('every command has its own --help', () => {
  it.each([
    [['serve', '--help'], /^Usage: outing serve \[--port N\]/],
    [['serve', '-h'], /^Usage: outing serve /],
    [['init', '--help'], /^Usage: outing init --name NAME --email EMAIL/],
    [['init', '-h'], /^Usage: outing init /],
    [['init', '--name', 'Lisbon Walks', '--help'], /^Usage: outing init /],
    [['keys', '--help'], /^Usage: outing keys create [^]*outing keys list [^]*outing keys revoke /],
    [['keys', '-h'], /^Usage: outing keys create /],
    [['keys', 'create', '--help'], /^Usage: outing keys create \[--org ORG_ID\] --name NAME/],
    [['keys', 'list', '--help'], /^Usage: outing keys list \[--org ORG_ID\]/],
    [['keys', 'list', '-h'], /^Usage: outing keys list /],
    [['keys', 'revoke', '--help'], /^Usage: outing keys revoke KEY_ID/],
    [['orgs', '--help'], /^Usage: outing orgs list/],
    [['orgs', 'list', '--help'], /^Usage: outing orgs list [^]*--org/],
    [['backup', '--help'], /^Usage: outing backup FILE/],
    [['backup', '-h'], /^Usage: outing backup FILE/],
    [['restore', '--help'], /^Usage: outing restore FILE/],
    [['restore', '-h'], /^Usage: outing restore FILE/],
  ])('outing %s', async (args, usage) => {
    // With no database anywhere: help needs none, and creates none.
    const dir = tempDir();
    helped(await runCli(args as string[], { cwd: dir, env: unopenedDatabase(dir) }), usage);
    expect(existsSync(join(dir, 'o.db'))).toBe(false);
  });

  it('still refuses unknown options', async () => {
    const result = await runCli(['init', '--nme', 'x']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/Unknown option/);
  });
});

async function newDatabase(): Promise<{ dir: string; db: string }> {
  const dir = tempDir();
  const db = join(dir, 'outing.db');
  const result = await runCli(['init', '--name', 'Lisbon Walks', '--email', 'hello@lisbonwalks.example', '--db', db]);
  expect(result.code, result.stderr).toBe(0);
  return { dir, db };
}

const digest = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

/** A refusal: exit 1, one line on stderr, nothing on stdout. */
function refused(result: CliResult, message: RegExp): void {
  expect(result.code).toBe(1);
  expect(result.stdout).toBe('');
  expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
  expect(result.stderr).toMatch(message);
}

describe.skipIf(onPostgres)('outing backup FILE refuses the database under any other name', () => {
  it.each([
    ['a hard link to it', (dir: string, db: string) => (linkSync(db, join(dir, 'hard.db')), join(dir, 'hard.db'))],
    ['a symbolic link to it', (dir: string, db: string) => (symlinkSync(db, join(dir, 'soft.db')), join(dir, 'soft.db'))],
    [
      'a symbolic link to its folder',
      (dir: string) => (symlinkSync(dir, join(dir, 'alias')), join(dir, 'alias', 'outing.db')),
    ],
    ['a path through ..', (dir: string) => (mkdirSync(join(dir, 'x')), `${join(dir, 'x')}/../outing.db`)],
    ['its -wal file', (_dir: string, db: string) => `${db}-wal`],
    ['its -shm file', (_dir: string, db: string) => `${db}-shm`],
    ['a symbolic link to its -wal file, not there yet', (dir: string, db: string) => (symlinkSync(`${db}-wal`, join(dir, 'w')), join(dir, 'w'))],
  ])('%s', async (_what, target) => {
    const { dir, db } = await newDatabase();
    const before = digest(db);
    const file = target(dir, db);
    refused(await runCli(['backup', file, '--db', db]), /must not be the database itself/);
    expect(digest(db)).toBe(before);
    expect(existsSync(`${db}-wal`) && readFileSync(`${db}-wal`).length > 0).toBe(false);
  });

  it('still writes a backup beside it', async () => {
    const { dir, db } = await newDatabase();
    const result = await runCli(['backup', join(dir, 'copy.db'), '--db', db]);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ file: join(dir, 'copy.db') });
  });
});

describe.skipIf(onPostgres)('outing restore FILE refuses the database under another name', () => {
  it('a hard link to it', async () => {
    const { dir, db } = await newDatabase();
    linkSync(db, join(dir, 'hard.db'));
    const before = digest(db);
    refused(await runCli(['restore', join(dir, 'hard.db'), '--db', db]), /is the database itself/);
    expect(digest(db)).toBe(before);
  });
});
