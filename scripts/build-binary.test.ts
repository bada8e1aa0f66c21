import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Experience } from '../shared/index.js';
import { expectList, repoRoot } from '../server/test-helpers/index.js';

// The single executable is built for Linux x64 only (scripts/build-binary.ts).
const supported = process.platform === 'linux' && process.arch === 'x64';
if (!supported) console.warn(`build-binary.test.ts skipped: dist/outing is built on linux-x64 only, this is ${process.platform}-${process.arch}`);

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** The environment of a bare machine: no NODE_PATH, no operator variables, a home of its own. */
function bareEnv(home: string): NodeJS.ProcessEnv {
  return { PATH: '/usr/bin:/bin', HOME: home, LANG: 'C.UTF-8' };
}

describe.skipIf(!supported)('the single executable (dist/outing)', () => {
  let dir: string;
  let binary: string;
  let server: ChildProcess | undefined;
  let calendarHost: Server | undefined;
  let packedWidgetHash: string;

  beforeAll(() => {
    // `npm test` builds the widget first; the binary's own build is this script, as `npm run build:binary` runs it.
    if (!existsSync(join(repoRoot, 'dist/widget/widget.js'))) throw new Error('dist/widget/widget.js is missing: npm run build first');
    packedWidgetHash = sha256(readFileSync(join(repoRoot, 'dist/widget/widget.js')));
    // Built straight into an empty folder far from the project and its node_modules (and not over
    // dist/outing, which another run may be using).
    dir = mkdtempSync(join(tmpdir(), 'outing-sea-'));
    binary = join(dir, 'outing');
    const built = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/build-binary.ts', '--out', binary], { cwd: repoRoot, encoding: 'utf8' });
    if (built.status !== 0) throw new Error(`build-binary failed:\n${built.stderr}`);
    expect(readdirSync(dir)).toEqual(['outing']);
  }, 240_000);

  afterAll(() => {
    if (server && server.exitCode === null) server.kill('SIGKILL');
    calendarHost?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const run = (args: string[]) => spawnSync(binary, args, { cwd: dir, env: bareEnv(dir), encoding: 'utf8' });

  it('boots from an empty folder into the demo: health, API with the printed key, widget and demo page', async () => {
    server = spawn(binary, ['serve', '--demo', '--port', '0', '--host', '127.0.0.1'], {
      cwd: dir,
      env: { ...bareEnv(dir), OUTBOUND_ALLOW_PRIVATE: 'true' },
    });
    let stderr = '';
    let stdout = '';
    server.stderr?.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    server.stdout?.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    const banner = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no banner within 30 s; stderr:\n${stderr}`)), 30_000);
      server?.stderr?.on('data', () => {
        if (/curl -H/.test(stderr)) {
          clearTimeout(timer);
          resolve(stderr);
        }
      });
      server?.on('exit', (code) => reject(new Error(`dist/outing exited with ${code}; stderr:\n${stderr}`)));
    });
    const url = /Outing is listening on (\S+)/.exec(banner)?.[1] ?? '';
    const secretKey = /Secret key:\s+(osk_\w+)/.exec(banner)?.[1] ?? '';
    const publishableKey = /Publishable key:\s+(opk_\w+)/.exec(banner)?.[1] ?? '';
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);

    const health = await fetch(`${url}/healthz`);
    expect({ status: health.status, body: await health.json() }).toEqual({ status: 200, body: { status: 'ok' } });

    const experiences = await fetch(`${url}/v1/experiences`, { headers: { authorization: `Bearer ${secretKey}` } });
    const list = expectList({ status: experiences.status, body: await experiences.json() }, Experience);
    expect(list.data.length).toBeGreaterThan(0);

    const widget = await fetch(`${url}/widget.js`, { headers: { 'accept-encoding': 'identity' } });
    expect(widget.status).toBe(200);
    expect(widget.headers.get('content-type')).toMatch(/javascript/);
    // The bundle packed at build time (compared by hash: a diff of minified code helps nobody).
    expect(sha256(Buffer.from(await widget.arrayBuffer()))).toBe(packedWidgetHash);
    // Its Portuguese texts, packed beside it.
    const pt = await fetch(`${url}/widget/pt.json`);
    expect(pt.status).toBe(200);
    expect(((await pt.json()) as { book: string }).book).toBe('Reservar');

    const demo = await fetch(`${url}/demo`);
    expect(demo.status).toBe(200);
    expect(demo.headers.get('content-type')).toMatch(/text\/html/);
    expect(await demo.text()).toContain(publishableKey);

    // The database went where DATABASE_PATH's default says, and the SQLite addon into the user's cache.
    expect(existsSync(join(dir, 'data/outing.db'))).toBe(true);
    expect(readdirSync(join(dir, '.cache/outing')).filter((f) => f.endsWith('.node'))).toHaveLength(1);

    // The calendar reader's worker thread starts from its bundled source.
    calendarHost = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/calendar' });
      res.end(
        ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//test//EN', 'BEGIN:VEVENT', 'UID:busy-1@test', 'DTSTAMP:20260101T000000Z',
          'DTSTART:20261201T090000Z', 'DTEND:20261201T100000Z', 'SUMMARY:Private hire', 'END:VEVENT', 'END:VCALENDAR', ''].join('\r\n'),
      );
    });
    await new Promise<void>((resolve) => calendarHost?.listen(0, '127.0.0.1', () => resolve()));
    const calendarUrl = `http://127.0.0.1:${(calendarHost.address() as AddressInfo).port}/busy.ics`;
    const imported = await fetch(`${url}/v1/calendar-imports`, {
      method: 'POST',
      headers: { authorization: `Bearer ${secretKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Private hires', url: calendarUrl }),
    });
    expect(await imported.json()).toMatchObject({ data: { lastError: null, eventCount: 1 } });

    // A running server holds the database: restore refuses, backup goes ahead.
    expect(run(['backup', 'while-serving.db']).status).toBe(0);
    const refused = run(['restore', 'while-serving.db']);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toMatch(/^outing: A running Outing server holds .*data\/outing\.db: stop it, then restore\n$/);

    // Nothing went wrong on the way: no warnings or errors in the log.
    expect(stdout.split('\n').filter((l) => /"level":"(warn|error)"/.test(l))).toEqual([]);

    const exited = new Promise<number | null>((resolve) => server?.on('exit', (code) => resolve(code)));
    server.kill('SIGTERM');
    expect(await exited).toBe(0);
  }, 60_000);

  it('runs the CLI: init prints the organization and its keys, backup and restore round-trip', () => {
    const init = run(['init', '--name', 'Harbour Kayaks', '--email', 'owner@kayaks.example', '--db', 'shop.db']);
    expect(init.status, init.stderr).toBe(0);
    expect(Object.keys(JSON.parse(init.stdout))).toEqual(['organizationId', 'apiKeyId', 'apiKey', 'publishableKey', 'icalFeedUrl', 'ownerSetupUrl']);

    const backup = run(['backup', 'shop-backup.db', '--db', 'shop.db']);
    expect(backup.status, backup.stderr).toBe(0);
    expect(JSON.parse(backup.stdout)).toMatchObject({ file: join(dir, 'shop-backup.db') });

    const restore = run(['restore', 'shop-backup.db', '--db', 'restored.db']);
    expect(restore.status, restore.stderr).toBe(0);
    expect(JSON.parse(restore.stdout)).toMatchObject({ restored: join(dir, 'shop-backup.db'), db: join(dir, 'restored.db') });

    const { organizationId } = JSON.parse(init.stdout) as { organizationId: string };
    const keys = run(['keys', 'list', '--org', organizationId, '--db', 'restored.db']);
    expect(keys.status, keys.stderr).toBe(0);
    expect((JSON.parse(keys.stdout) as { data: unknown[] }).data).toHaveLength(2);
  });

  it('answers an unknown command with one line on stderr and exit code 1', () => {
    const result = run(['frobnicate']);
    expect(result.status).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  });
});
