/**
 * Backups of a large database while the server keeps taking bookings: `outing backup` shows its
 * progress on stderr, the copy is consistent, and `outing restore` puts it back in place.
 */
import { join } from 'node:path';
import { rmSync, statSync } from 'node:fs';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, startTestServer, tempDir, type TestServer } from '../server/test-helpers/index.js';
import { call, sleep } from './support.js';

const ROWS = 200_000;

describe(`backup and restore of a large database (${ROWS.toLocaleString('en')} bookings)`, () => {
  const dir = tempDir('outing-backup-large-');
  const dbPath = join(dir, 'outing.db');
  let server: TestServer | undefined;

  afterAll(async () => {
    await server?.stop('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  it('backs up while bookings keep coming, with progress on stderr, and restores the copy', async () => {
    const init = await runCli(['init', '--name', 'Big Tours', '--email', 'owner@big.example', '--timezone', 'UTC', '--db', dbPath]);
    expect(init.code, init.stderr).toBe(0);
    const { apiKey } = JSON.parse(init.stdout) as { apiKey: string };
    server = await startTestServer({ dbPath, env: { RATE_LIMIT_PER_MINUTE: '0' }, startTimeoutMs: 90_000 });
    const weekly = Object.fromEntries(['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((d) => [d, ['08:00', '12:00', '16:00']]));
    const experience = await call(server.url, 'POST', '/v1/experiences', {
      key: apiKey,
      body: { name: 'Bay cruise', description: 'Three hours at sea', duration: 180, price: 9000, maxParticipants: 10_000, schedule: { timezone: 'UTC', weekly } },
    });
    expect(experience.status, experience.text).toBe(201);
    const experienceId = experience.body.data.id as string;
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const slots = (await call(server.url, 'GET', `/v1/availability?experienceId=${experienceId}&startDate=${tomorrow}`, { key: apiKey })).body.data
      .slots as { startTime: string }[];
    const book = (n: number) =>
      call(server!.url, 'POST', '/v1/bookings', {
        key: apiKey,
        body: { experienceId, startTime: slots[n % slots.length]!.startTime, participants: 1, customerName: `Guest ${n}`, customerEmail: `guest${n % 50}@big.example` },
      });
    const first = await book(0);
    expect(first.status, first.text).toBe(201);

    // History: 200k past, cancelled bookings written beside the live server (as years of use
    // would leave them), each with a realistic amount of text.
    const seed = new Database(dbPath);
    seed.pragma('busy_timeout = 10000');
    const template = seed.prepare('SELECT * FROM bookings WHERE booking_number = ?').get(first.body.data.bookingNumber) as Record<string, unknown>;
    const columns = Object.keys(template);
    const insert = seed.prepare(`INSERT INTO bookings (${columns.join(', ')}) VALUES (${columns.map((c) => `@${c}`).join(', ')})`);
    const longAgo = Date.UTC(2023, 0, 1);
    seed.transaction(() => {
      for (let i = 0; i < ROWS; i++) {
        insert.run({
          ...template,
          id: `bk_hist${String(i).padStart(13, '0')}`,
          booking_number: `BK-H${i.toString(32).toUpperCase().padStart(7, '0')}`,
          slot_start: longAgo + i * 3_600_000,
          slot_end: longAgo + i * 3_600_000 + 10_800_000,
          status: 'CANCELLED',
          cancellation_reason: `Weather: ${'strong winds in the bay, small craft advisory issued by the harbour master; '.repeat(4)}`,
          cancelled_at: longAgo + i * 3_600_000,
          metadata: JSON.stringify({ note: `imported from the old system, record ${i}`, channel: 'phone' }),
        });
      }
    })();
    const pages = seed.pragma('page_count', { simple: true }) as number;
    seed.close();
    expect(pages).toBeGreaterThan(25_000);
    // The synchronous seeding held this process's event loop for seconds: let the HTTP client see
    // the keep-alive connections the server closed meanwhile before it picks one for a request.
    await sleep(500);

    // Bookings keep arriving during the backup.
    let stop = false;
    let madeDuringBackup = 0;
    const load = (async () => {
      for (let n = 1; !stop; n++) {
        if ((await book(n)).status === 201) madeDuringBackup++;
        await sleep(20);
      }
    })();
    const backupFile = join(dir, 'backups/outing-large.db');
    const backupStarted = performance.now();
    const backup = await runCli(['backup', backupFile, '--db', dbPath]);
    const backupMs = performance.now() - backupStarted;
    stop = true;
    await load;
    expect(backup.code, backup.stderr).toBe(0);
    const progress = backup.stderr.split('\n').filter((l) => l.startsWith('backup: '));
    expect(progress.length).toBeGreaterThan(0);
    for (const line of progress) expect(line).toMatch(/^backup: \d{1,3}% \(\d+\/\d+ pages\)$/);
    expect(progress.at(-1)).toMatch(/^backup: 100% /);
    // One pass: writes by the server meanwhile must not restart the copy from page one.
    const done = progress.map((l) => Number(/\((\d+)\//.exec(l)?.[1]));
    expect(done).toEqual([...done].sort((a, b) => a - b));
    const printed = JSON.parse(backup.stdout) as { file: string; bytes: number };
    expect(printed).toEqual({ file: backupFile, bytes: statSync(backupFile).size });
    expect(madeDuringBackup).toBeGreaterThan(0);

    // The copy is whole and consistent; put it in place of the live database once the server stops.
    const copy = new Database(backupFile, { readonly: true });
    expect(copy.pragma('integrity_check', { simple: true })).toBe('ok');
    const inBackup = (copy.prepare('SELECT COUNT(*) AS n FROM bookings').get() as { n: number }).n;
    copy.close();
    expect(inBackup).toBeGreaterThan(ROWS);

    await server.stop('SIGTERM');
    server = undefined;
    const restoreStarted = performance.now();
    const restore = await runCli(['restore', backupFile, '--db', dbPath]);
    const restoreMs = performance.now() - restoreStarted;
    expect(restore.code, restore.stderr).toBe(0);
    server = await startTestServer({ dbPath, startTimeoutMs: 90_000 });
    const listed = await call(server.url, 'GET', '/v1/bookings?limit=1', { key: apiKey });
    expect(listed.status).toBe(200);
    expect(listed.body.pagination.total).toBe(inBackup);
    console.info(
      `backup-large: ${(printed.bytes / 1024 / 1024).toFixed(0)} MiB, ${inBackup} bookings; outing backup ${(backupMs / 1000).toFixed(1)} s ` +
        `while ${madeDuringBackup} bookings were made, outing restore ${(restoreMs / 1000).toFixed(1)} s (both including process start)`,
    );
  }, 600_000);
});
