/**
 * Cold start and memory of a real `outing serve`, for docs/PERFORMANCE.md:
 *
 *   node --import tsx scripts/measure-runtime.ts            # node dist (needs npm run build)
 *   node --import tsx scripts/measure-runtime.ts --binary   # dist/outing (needs npm run build:binary)
 *
 * Cold start: from spawning the process to the first `200` of GET /healthz (polled every 5 ms),
 * on a new database (the schema is created and the demo seeded) and on an existing one. Memory:
 * the resident set (VmRSS of /proc/PID/status) once idle, then after a load of availability reads
 * and bookings, and the peak (VmHWM). Runs are sequential; medians are printed as a Markdown table.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir, cpus } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const binary = process.argv.includes('--binary');
const RUNS = Number(process.env.RUNS ?? 7);
const LOAD_REQUESTS = Number(process.env.LOAD_REQUESTS ?? 4000);
const command = binary ? [join(root, 'dist/outing')] : [process.execPath, join(root, 'bin/outing.js')];
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', () => r()));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((r) => probe.close(() => r()));
  return port;
}

function kib(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith(`${field}:`)) ?? '';
  return Number(/(\d+)/.exec(line)?.[1] ?? 0);
}

interface Started {
  child: ChildProcess;
  url: string;
  ms: number;
  stderr: () => string;
}

async function start(dir: string): Promise<Started> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const began = performance.now();
  const [file = '', ...args] = command;
  const child = spawn(file, [...args, 'serve', '--demo', '--port', String(port), '--db', join(dir, 'outing.db')], {
    cwd: dir,
    env: { PATH: process.env.PATH, HOME: dir, LOG_LEVEL: 'warn', RATE_LIMIT_PER_MINUTE: '0' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  for (;;) {
    if (child.exitCode !== null) throw new Error(`outing exited early: ${stderr}`);
    try {
      const res = await fetch(`${url}/healthz`);
      if (res.status === 200) break;
    } catch {
      // not listening yet
    }
    await sleep(5);
  }
  return { child, url, ms: performance.now() - began, stderr: () => stderr };
}

async function stop(child: ChildProcess): Promise<void> {
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

/** Availability reads and bookings, 8 at a time, with the demo's keys. */
async function load(url: string, banner: string): Promise<void> {
  const key = /Secret key:\s+(osk_\w+)/.exec(banner)?.[1] ?? '';
  const auth = { authorization: `Bearer ${key}` };
  const experiences = (await (await fetch(`${url}/v1/experiences`, { headers: auth })).json()) as { data: { id: string }[] };
  const slots: { experienceId: string; startTime: string }[] = [];
  for (const { id } of experiences.data) {
    const res = (await (await fetch(`${url}/v1/availability?experienceId=${id}`, { headers: auth })).json()) as {
      data: { slots: { startTime: string }[] };
    };
    for (const s of res.data.slots) slots.push({ experienceId: id, startTime: s.startTime });
  }
  let next = 0;
  const worker = async () => {
    while (next < LOAD_REQUESTS) {
      const n = next++;
      const slot = slots[n % slots.length];
      if (n % 4 === 0 && slot) {
        await (
          await fetch(`${url}/v1/bookings`, {
            method: 'POST',
            headers: { ...auth, 'content-type': 'application/json' },
            body: JSON.stringify({ ...slot, participants: 1, customerName: `Guest ${n}`, customerEmail: `guest${n % 100}@example.com` }),
          })
        ).text();
      } else {
        await (await fetch(`${url}/v1/availability?experienceId=${slot?.experienceId ?? ''}`, { headers: auth })).text();
      }
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
}

async function main(): Promise<void> {
  const fresh: number[] = [];
  const warm: number[] = [];
  const idle: number[] = [];
  const loaded: number[] = [];
  const peak: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const dir = mkdtempSync(join(tmpdir(), 'outing-measure-'));
    try {
      const first = await start(dir);
      fresh.push(first.ms);
      await stop(first.child);
      const second = await start(dir);
      warm.push(second.ms);
      await sleep(2000);
      idle.push(kib(second.child.pid ?? 0, 'VmRSS'));
      await stop(second.child);
      if (i === 0) {
        // Memory under load once: a new database, so the demo's keys are printed.
        const loadDir = mkdtempSync(join(tmpdir(), 'outing-measure-'));
        try {
          const third = await start(loadDir);
          await load(third.url, third.stderr());
          await sleep(2000);
          loaded.push(kib(third.child.pid ?? 0, 'VmRSS'));
          peak.push(kib(third.child.pid ?? 0, 'VmHWM'));
          await stop(third.child);
        } finally {
          rmSync(loadDir, { recursive: true, force: true });
        }
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  const mib = (k: number) => `${(k / 1024).toFixed(0)} MiB`;
  const ms = (x: number) => `${x.toFixed(0)} ms`;
  const what = binary ? '`dist/outing` (single executable)' : '`node bin/outing.js` (dist/)';
  console.log(`${what}, ${RUNS} runs, ${cpus().length} × ${cpus()[0]?.model.trim() ?? 'CPU'}, Node ${process.version}`);
  console.log('| Figure | Median | Min – max |');
  console.log('|---|---|---|');
  console.log(`| Cold start, new database (spawn → /healthz 200) | ${ms(median(fresh))} | ${ms(Math.min(...fresh))} – ${ms(Math.max(...fresh))} |`);
  console.log(`| Cold start, existing database | ${ms(median(warm))} | ${ms(Math.min(...warm))} – ${ms(Math.max(...warm))} |`);
  console.log(`| RSS idle (2 s after start) | ${mib(median(idle))} | ${mib(Math.min(...idle))} – ${mib(Math.max(...idle))} |`);
  console.log(`| RSS after ${LOAD_REQUESTS} requests (¾ availability, ¼ bookings) | ${mib(loaded[0] ?? 0)} | peak ${mib(peak[0] ?? 0)} |`);
}

await main();
