// `npm run bench`: the real built server on seeded databases (10k and 1M bookings), measured with
// autocannon in one run: the ceiling (a bare Hono JSON app), GET /v1/availability over 30 days and
// POST /v1/bookings (auth, validation, Idempotency-Key, event row, synchronous=FULL). Figures, not a
// test: nothing here fails on a slow machine. Results are described in docs/PERFORMANCE.md.
//
//   npm run bench                                     build, then the whole run
//   node --import tsx bench/run.ts --sizes 10000 --duration 5
//   node --import tsx bench/run.ts --profile          also write each server's .cpuprofile under --dir/profiles
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg, cpus, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon, { type Options, type Result } from 'autocannon';
import { seed, type SeedResult } from './seed.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { values: args } = parseArgs({
  options: {
    sizes: { type: 'string', default: '10000,1000000' },
    duration: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '3' },
    connections: { type: 'string', default: '50' },
    dir: { type: 'string', default: join(tmpdir(), 'outing-bench') },
    profile: { type: 'boolean', default: false },
    'log-level': { type: 'string', default: 'warn' },
    json: { type: 'string' },
    only: { type: 'string', default: 'ceiling,healthz,availability,availability-day,bookings' },
    'server-node-options': { type: 'string', default: '' },
  },
});
const sizes = args.sizes.split(',').map(Number);
const duration = Number(args.duration);
const warmup = Number(args.warmup);
const connections = Number(args.connections);
const only = new Set(args.only.split(','));
mkdirSync(args.dir, { recursive: true });

interface Row {
  name: string;
  reqPerSec: number;
  p50: number;
  p99: number;
  ok: number;
  other: string;
  /** Server CPU time per request: less sensitive to a busy machine than req/s. */
  cpuUsPerReq: number;
  /** Storage writes per request (WAL, checkpoints). */
  kbWrittenPerReq: number;
  /** Part of that CPU time spent in the kernel (socket and file writes, fsync). */
  systemShare: number;
  rssMb?: number;
}

interface Server {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/** Spawns a process and resolves once it prints the line that names its URL. */
function start(command: string[], pattern: RegExp, env: Record<string, string> = {}): Promise<Server> {
  const child = spawn(process.execPath, command, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  return new Promise((resolvePromise, reject) => {
    const onData = (d: Buffer) => {
      output += d.toString();
      const m = pattern.exec(output);
      if (!m) return;
      child.stdout?.off('data', onData);
      child.stderr?.off('data', onData);
      child.stdout?.resume();
      child.stderr?.resume();
      resolvePromise({
        url: m[1]!,
        child,
        stop: () =>
          new Promise((done) => {
            if (child.exitCode !== null) return done();
            child.once('exit', () => done());
            child.kill('SIGTERM');
          }),
      });
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`${command.join(' ')} exited with ${code}:\n${output}`)));
  });
}

/** Bytes a process has written to storage so far (Linux /proc; 0 where not readable). */
function writtenBytesOf(pid: number | undefined): number {
  try {
    return Number(/write_bytes:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/io`, 'utf8'))?.[1] ?? NaN);
  } catch {
    return NaN;
  }
}

/** CPU seconds a process has spent so far in user and in kernel mode (Linux /proc). */
function cpuSecondsOf(pid: number | undefined): { user: number; system: number } {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return { user: Number(fields[11]) / 100, system: Number(fields[12]) / 100 }; // clock ticks (USER_HZ = 100)
  } catch {
    return { user: NaN, system: NaN };
  }
}

/** Resident memory of a process, now and at its peak (Linux /proc). */
function memoryOf(pid: number | undefined): { rssMb: number; peakMb: number } {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? NaN);
    return { rssMb: kb('VmRSS') / 1024, peakMb: kb('VmHWM') / 1024 };
  } catch {
    return { rssMb: NaN, peakMb: NaN };
  }
}

async function measure(name: string, options: Options, pid?: number): Promise<Row> {
  if (warmup > 0) await autocannon({ connections, ...options, duration: warmup });
  const cpuBefore = cpuSecondsOf(pid);
  const writtenBefore = writtenBytesOf(pid);
  const r: Result = await autocannon({ connections, ...options, duration });
  const cpuAfter = cpuSecondsOf(pid);
  const cpuUsed = cpuAfter.user - cpuBefore.user + (cpuAfter.system - cpuBefore.system);
  const systemShare = (cpuAfter.system - cpuBefore.system) / cpuUsed;
  const written = writtenBytesOf(pid) - writtenBefore;
  const codes = Object.entries(r.statusCodeStats ?? {})
    .filter(([code]) => !code.startsWith('2'))
    .map(([code, s]) => `${code}×${s.count}`);
  if (r.errors) codes.push(`errors×${r.errors}`);
  return {
    name,
    reqPerSec: r['2xx'] / r.duration,
    p50: r.latency.p50,
    p99: r.latency.p99,
    ok: r['2xx'],
    other: codes.join(' ') || '-',
    cpuUsPerReq: (cpuUsed * 1e6) / Math.max(1, r.requests.total),
    kbWrittenPerReq: written / 1024 / Math.max(1, r.requests.total),
    systemShare,
  };
}

function bookingRequests(s: SeedResult, label: string): Options['requests'] {
  let n = 0;
  const headers = { authorization: `Bearer ${s.apiKey}`, 'content-type': 'application/json' };
  return [
    {
      method: 'POST',
      path: '/v1/bookings',
      // Spread over every experience and future slot, so that capacity never runs out; e-mails from
      // a pool, so that both new and returning customers are written.
      setupRequest: (request) => {
        const i = n++;
        const experienceId = s.experienceIds[i % s.experienceIds.length]!;
        const slots = s.futureSlots[experienceId]!;
        const startTime = slots[Math.floor(i / s.experienceIds.length) % slots.length]!;
        return {
          ...request,
          headers: { ...headers, 'idempotency-key': `bench-${label}-${process.pid}-${i}` },
          body: JSON.stringify({
            experienceId,
            startTime,
            participants: 1,
            customerName: `Guest ${i % 50_000}`,
            customerEmail: `guest${i % 50_000}@bench.example`,
            metadata: { source: 'bench' },
          }),
        };
      },
    },
  ];
}

/** Availability of each experience in turn: over the default range (today to today + 30 days, in the
 * experience's zone) or over the one day `oneDay`, which shows the fixed cost of a request. */
function availabilityRequests(s: SeedResult, oneDay?: string): Options['requests'] {
  let n = 0;
  const range = oneDay ? `&startDate=${oneDay}&endDate=${oneDay}` : '';
  return [
    {
      method: 'GET',
      setupRequest: (request) => ({
        ...request,
        path: `/v1/availability?experienceId=${s.experienceIds[n++ % s.experienceIds.length]}${range}`,
        headers: { authorization: `Bearer ${s.apiKey}` },
      }),
    },
  ];
}

const fmt = (n: number, digits = 0) => (Number.isFinite(n) ? n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits }) : '-');

async function main(): Promise<void> {
  const rows: Row[] = [];
  const seeds: { size: number; seconds: number; customers: number }[] = [];
  const load = loadavg()[0] ?? 0;
  process.stderr.write(`Machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}, load average ${load.toFixed(2)}\n`);
  if (load > cpus().length * 0.5) process.stderr.write('Warning: the machine is busy; figures will be low and noisy.\n');

  if (only.has('ceiling')) {
    const ceiling = await start(['--import', 'tsx', 'bench/ceiling.ts'], /listening on (\S+)/);
    rows.push({ ...(await measure('ceiling: bare Hono JSON', { url: ceiling.url }, ceiling.child.pid)), rssMb: memoryOf(ceiling.child.pid).peakMb });
    rows.push({
      ...(await measure('ceiling: Hono, 12 KB slots JSON', { url: `${ceiling.url}/slots` }, ceiling.child.pid)),
      rssMb: memoryOf(ceiling.child.pid).peakMb,
    });
    await ceiling.stop();
  }

  for (const size of sizes) {
    const label = size >= 1_000_000 ? `${size / 1_000_000}M` : `${size / 1000}k`;
    process.stderr.write(`Seeding ${label} bookings…\n`);
    const s = seed(join(args.dir, `bench-${label}.db`), size);
    seeds.push({ size, seconds: s.seconds, customers: s.customers });
    process.stderr.write(`  ${fmt(size)} bookings, ${fmt(s.customers)} customers, ${fmt(s.slots)} slots in ${s.seconds.toFixed(1)} s\n`);

    const profileDir = join(args.dir, 'profiles', label);
    const server = await start(
      [...(args.profile ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []), 'bin/outing.js', 'serve', '--host', '127.0.0.1', '--port', '0', '--db', s.dbPath],
      /Outing is listening on (\S+)/,
      { RATE_LIMIT_PER_MINUTE: '0', LOG_LEVEL: args['log-level'], NODE_OPTIONS: args['server-node-options'] },
    );
    if (size === sizes[0] && only.has('healthz')) {
      rows.push({ ...(await measure(`GET /healthz (${label})`, { url: `${server.url}/healthz` }, server.child.pid)), rssMb: memoryOf(server.child.pid).rssMb });
    }
    if (only.has('availability')) {
      const availability = await measure(`GET /v1/availability 30 days (${label})`, { url: server.url, requests: availabilityRequests(s) }, server.child.pid);
      rows.push({ ...availability, rssMb: memoryOf(server.child.pid).rssMb });
    }
    if (only.has('availability-day')) {
      if (size === sizes[0]) {
        const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
        const oneDay = await measure(`GET /v1/availability 1 day (${label})`, { url: server.url, requests: availabilityRequests(s, tomorrow) }, server.child.pid);
        rows.push({ ...oneDay, rssMb: memoryOf(server.child.pid).rssMb });
      }
    }
    if (only.has('bookings')) {
      const bookings = await measure(`POST /v1/bookings (${label})`, { url: server.url, requests: bookingRequests(s, label) }, server.child.pid);
      rows.push({ ...bookings, rssMb: memoryOf(server.child.pid).peakMb });
    }
    await server.stop();
  }

  const width = Math.max(...rows.map((r) => r.name.length));
  const lines = [
    `${'endpoint'.padEnd(width)}  ${'req/s'.padStart(8)}  ${'p50 ms'.padStart(7)}  ${'p99 ms'.padStart(7)}  ${'RSS MB'.padStart(7)}  ${'CPU µs/req'.padStart(10)}  ${'kernel'.padStart(6)}  ${'KB written/req'.padStart(14)}  non-2xx`,
    ...rows.map(
      (r) =>
        `${r.name.padEnd(width)}  ${fmt(r.reqPerSec).padStart(8)}  ${fmt(r.p50, 1).padStart(7)}  ${fmt(r.p99, 1).padStart(7)}  ${fmt(r.rssMb ?? NaN).padStart(7)}  ${fmt(r.cpuUsPerReq).padStart(10)}  ${`${fmt(r.systemShare * 100)}%`.padStart(6)}  ${fmt(r.kbWrittenPerReq, 1).padStart(14)}  ${r.other}`,
    ),
  ];
  const rate = (prefix: string) => rows.find((r) => r.name.startsWith(prefix))?.reqPerSec ?? NaN;
  const ceilingRate = rate('ceiling');
  const availabilityRates = rows.filter((r) => r.name.startsWith('GET /v1/availability 30')).map((r) => r.reqPerSec);
  const first = availabilityRates[0] ?? NaN;
  const last = availabilityRates[availabilityRates.length - 1] ?? NaN;
  lines.push('');
  if (availabilityRates.length > 1) lines.push(`availability, largest / smallest history: ${fmt(last / first, 2)}  (target ≥ 0.90)`);
  lines.push(`availability / ceiling:                  ${fmt(first / ceilingRate, 2)}`);
  lines.push(`availability / same-size ceiling:        ${fmt(first / rate('ceiling: Hono, 12 KB'), 2)}`);
  lines.push(`bookings / ceiling:                      ${fmt(rate('POST /v1/bookings') / ceilingRate, 2)}`);
  lines.push(`seeding: ${seeds.map((x) => `${fmt(x.size)} bookings in ${x.seconds.toFixed(1)} s`).join(', ')}`);
  lines.push(`targets (2 cores): availability ≥ 8,000 req/s, bookings ≥ 2,000 req/s, RSS ≤ 150 MB`);
  process.stdout.write(`\n${lines.join('\n')}\n`);
  if (args.json) writeFileSync(args.json, JSON.stringify({ load, rows, seeds }, null, 2));
}

await main();
