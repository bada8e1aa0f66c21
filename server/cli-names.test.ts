import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from './test-helpers/index.js';

// The names the CLI takes (an organization's and a user's) follow the API's rule for names.
describe('outing refuses bidirectional control characters in --name', () => {
  it.each([
    ['init', (db: string) => ['init', '--name', 'Lisbon\u202Ekcab Walks', '--email', 'owner@walks.example', '--db', db]],
    ['users create', (db: string) => ['users', 'create', '--org', 'org_x', '--email', 'sam@walks.example', '--name', 'Sam\u2067Staff', '--db', db]],
  ])('%s: exit 1 naming --name, nothing created', async (_, args) => {
    const db = join(tempDir('outing-cli-names-'), 'outing.db');
    const result = await runCli(args(db));
    expect(result.code, result.stderr).toBe(1);
    expect(result.stderr).toMatch(/--name must not contain bidirectional control characters \(U\+202A–U\+202E, U\+2066–U\+2069\)/);
    expect(result.stdout).toBe('');
  });

  it('keeps a right-to-left name', async () => {
    const db = join(tempDir('outing-cli-names-'), 'outing.db');
    const result = await runCli(['init', '--name', 'סיורי ליסבון', '--email', 'owner@walks.example', '--db', db]);
    expect(result.code, result.stderr).toBe(0);
  });
});
