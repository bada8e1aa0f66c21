// `npm run bench`: the real built server on seeded databases (10k, 100k and 1M bookings), measured
// with autocannon in one run, every figure beside the same figure of a bare Hono "hello" measured
// in the same run (bench/ceiling.mjs):
//
//   - GET /v1/bookings?limit=100 on each database (req/s, server CPU µs per request, p99), and the
//     largest / 10k ratio: a list page must cost the same at any history size;
//   - cold start to the first 200 of GET /healthz on the 100k database: the first start after
//     seeding, then warm starts (median), beside the hello's start;
//   - GET /v1/availability over 30 days and over one day;
//   - POST /v1/bookings (auth, validation, Idempotency-Key, event row, synchronous=FULL) on a server
//     started for it alone: bookings per second, server CPU µs per booking, and its peak RSS; then,
//     on the smallest history, the same use case without HTTP (bench/booking-floor.ts);
//   - (`postgres`) the same availability and booking loads on PostgreSQL (the smallest history, copied
//     into it with `outing copy`'s code), on one `outing serve` and on two over the same database
//     with the connections spread over both, beside SQLite's. The cluster is the one
//     OUTING_BENCH_DATABASE_URL names (a database is made on it and dropped after), else a throwaway
//     one from scripts/postgres.sh, whose own CPU per request (every process of the cluster) is then
//     printed too; without PostgreSQL installed, those rows are skipped, saying so.
//
// Server CPU is read from /proc/<pid>/stat (utime + stime) of the server process before and after
// each measured window: autocannon runs in this process, so its own CPU is not counted.
// Figures, not a test: nothing here fails on a slow machine. docs/PERFORMANCE.md describes results.
//
//   npm run bench                                     build, then the whole run (~5 minutes)
//   node --import tsx bench/run.ts --sizes 10000,100000 --duration 5
//   node --import tsx bench/run.ts --only list,bookings --sizes 100000
//   node --import tsx bench/run.ts --only ceiling,availability,bookings,postgres --sizes 10000   (PostgreSQL beside SQLite)
//   node --import tsx bench/run.ts --profile          also write each server's .cpuprofile under --dir/profiles
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { loadavg, cpus, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs, promisify } from 'node:util';
import autocannon, { type Options, type Result } from 'autocannon';
import pg from 'pg';
import { copySqliteToPostgres } from '../server/store/copy.js';
import { postgresInstalled } from '../server/test-helpers/postgres-available.js';
import { benchBooking, seed, type SeedResult } from './seed.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { values: args } = parseArgs({
  options: {
    sizes: { type: 'string', default: '10000,100000,1000000' },
    duration: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '3' },
    connections: { type: 'string', default: '50' },
    'cold-runs': { type: 'string', default: '5' },
    'cold-size': { type: 'string', default: '100000' },
    dir: { type: 'string', default: join(tmpdir(), 'outing-bench') },
    profile: { type: 'boolean', default: false },
    'log-level': { type: 'string', default: 'warn' },
    json: { type: 'string' },
    only: { type: 'string', default: 'ceiling,healthz,cold,list,availability,availability-day,bookings,postgres,operator' },
    'server-node-options': { type: 'string', default: '' },
  },
});
const sizes = args.sizes.split(',').map(Number);
const duration = Number(args.duration);
const warmup = Number(args.warmup);
const connections = Number(args.connections);
const coldRuns = Number(args['cold-runs']);
const coldSize = Number(args['cold-size']);
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
  /** The database server's CPU time per request (PostgreSQL's processes, when the bench started the cluster). */
  dbCpuUsPerReq?: number;
  rssMb?: number;
}

interface Server {
  url: string;
  child: ChildProcess;
  /** Milliseconds from spawn to the line that names the URL. */
  startedMs: number;
  stop(): Promise<void>;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', () => r()));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((r) => probe.close(() => r()));
  return port;
}

function stopChild(child: ChildProcess): Promise<void> {
  return new Promise((done) => {
    if (child.exitCode !== null || child.signalCode !== null) return done();
    child.once('exit', () => done());
    child.kill('SIGTERM');
  });
}

/** Spawns a process and resolves once it prints the line that names its URL. */
function start(command: string[], pattern: RegExp, env: Record<string, string> = {}): Promise<Server> {
  const began = performance.now();
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
      resolvePromise({ url: m[1]!, child, startedMs: performance.now() - began, stop: () => stopChild(child) });
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`${command.join(' ')} exited with ${code}:\n${output}`)));
  });
}

/** Cold start: spawn → first 200 of GET `path` (polled every 5 ms), in ms; then stops the process.
 * `argv(port)` gives the command line for a port chosen before the clock starts. */
async function coldStart(argv: (port: number) => string[], path: string, env: Record<string, string> = {}): Promise<number> {
  const port = await freePort();
  const began = performance.now();
  const child = spawn(process.execPath, argv(port), { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${argv(port).join(' ')} exited early: ${stderr}`);
      try {
        const res = await fetch(`http://127.0.0.1:${port}${path}`);
        await res.arrayBuffer();
        if (res.status === 200) return performance.now() - began;
      } catch {
        // not listening yet
      }
      await sleep(5);
    }
  } finally {
    await stopChild(child);
  }
}

/** Bytes a process has written to storage so far (Linux /proc; NaN where not readable). */
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

/**
 * CPU seconds the processes of a PostgreSQL cluster have spent so far, by pid: the postmaster and
 * every process it forked (one backend per connection, and the background workers).
 */
function clusterCpu(postmaster: number): Map<number, number> {
  const out = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const fields = readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1]!.split(' ');
      const pid = Number(entry);
      if (pid !== postmaster && Number(fields[1]) !== postmaster) continue;
      out.set(pid, (Number(fields[11]) + Number(fields[12])) / 100);
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

/** CPU seconds spent between two readings of `clusterCpu` (a process born in between counts whole). */
function clusterCpuBetween(before: Map<number, number>, after: Map<number, number>): number {
  let used = 0;
  for (const [pid, seconds] of after) used += seconds - (before.get(pid) ?? 0);
  return used;
}

/**
 * `pid`: the server process, or the processes (their CPU and writes summed) when the load is spread
 * over several. `postmaster`: a PostgreSQL cluster whose CPU is counted apart (dbCpuUsPerReq).
 */
async function measure(name: string, options: Options, pid?: number | (number | undefined)[], postmaster?: number): Promise<Row> {
  const pids = Array.isArray(pid) ? pid : [pid];
  const cpuOf = () =>
    pids.map(cpuSecondsOf).reduce((a, b) => ({ user: a.user + b.user, system: a.system + b.system }), { user: 0, system: 0 });
  const writtenOf = () => pids.map(writtenBytesOf).reduce((a, b) => a + b, 0);
  if (warmup > 0) await autocannon({ connections, ...options, duration: warmup });
  const cpuBefore = cpuOf();
  const writtenBefore = writtenOf();
  const dbBefore = postmaster === undefined ? undefined : clusterCpu(postmaster);
  const r: Result = await autocannon({ connections, ...options, duration });
  const cpuAfter = cpuOf();
  const dbUsed = dbBefore === undefined ? NaN : clusterCpuBetween(dbBefore, clusterCpu(postmaster!));
  const cpuUsed = cpuAfter.user - cpuBefore.user + (cpuAfter.system - cpuBefore.system);
  const systemShare = (cpuAfter.system - cpuBefore.system) / cpuUsed;
  const written = writtenOf() - writtenBefore;
  const codes = Object.entries(r.statusCodeStats ?? {})
    .filter(([code]) => !code.startsWith('2'))
    .map(([code, s]) => `${code}×${s.count}`);
  if (r.errors) codes.push(`errors×${r.errors}`);
  if (r.timeouts) codes.push(`timeouts×${r.timeouts}`);
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
    dbCpuUsPerReq: (dbUsed * 1e6) / Math.max(1, r.requests.total),
  };
}

/**
 * The booking use case alone (bench/booking-floor.ts): `createBooking` through the group commit on
 * a database of its own, no HTTP, in a process of its own. What one thread does with the database
 * work of a booking and nothing else.
 */
async function bookingFloor(size: number, label: string): Promise<Row> {
  const { stdout } = await execFileAsync(
    process.execPath,
    ['--import', 'tsx', 'bench/booking-floor.ts', '--dir', args.dir, '--size', String(size), '--duration', String(duration), '--warmup', String(warmup), '--callers', String(connections)],
    { cwd: root, timeout: (duration + warmup + 120) * 1000 },
  );
  const r = JSON.parse(stdout.trim().split('\n').at(-1)!) as { bookings: number; seconds: number; cpuUs: number; systemUs: number };
  return {
    name: `createBooking alone, no HTTP (${label})`,
    reqPerSec: r.bookings / r.seconds,
    p50: NaN,
    p99: NaN,
    ok: r.bookings,
    other: '-',
    cpuUsPerReq: r.cpuUs / r.bookings,
    kbWrittenPerReq: NaN,
    systemShare: r.systemUs / r.cpuUs,
  };
}

function bookingRequests(s: SeedResult, label: string): Options['requests'] {
  let n = 0;
  const headers = { authorization: `Bearer ${s.apiKey}`, 'content-type': 'application/json' };
  return [
    {
      method: 'POST',
      path: '/v1/bookings',
      setupRequest: (request) => {
        const i = n++;
        return {
          ...request,
          headers: { ...headers, 'idempotency-key': `bench-${label}-${process.pid}-${i}` },
          body: JSON.stringify(benchBooking(s, i)),
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
const labelOf = (size: number) => (size >= 1_000_000 ? `${size / 1_000_000}M` : `${size / 1000}k`);

interface Cold {
  size: number;
  firstMs: number;
  warmMs: number[];
  helloMs: number[];
}

interface PostgresRun {
  /** Why there are no PostgreSQL rows, when there are none. */
  skipped?: string;
  size: number;
  cluster: string;
  copySeconds: number;
  rows: Row[];
  /** [one process, two processes]. */
  availability: Row[];
  bookings: Row[];
}

const postgresScript = join(root, 'scripts', 'postgres.sh');
const execFileAsync = promisify(execFile);

/**
 * The PostgreSQL rows: a cluster (OUTING_BENCH_DATABASE_URL, else a throwaway one), a database on
 * it holding the smallest history (seeded into SQLite, then copied as `outing copy` does), and the
 * availability and booking loads on one server, then on two over the same database.
 */
async function postgresRun(serverEnv: Record<string, string>): Promise<PostgresRun> {
  const size = sizes[0]!;
  const label = labelOf(size);
  const none = (skipped: string): PostgresRun => ({ skipped, size, cluster: '', copySeconds: 0, rows: [], availability: [], bookings: [] });
  let clusterUrl = process.env.OUTING_BENCH_DATABASE_URL || undefined;
  let clusterDir: string | undefined;
  let cluster = 'the cluster OUTING_BENCH_DATABASE_URL names';
  if (!clusterUrl) {
    if (!postgresInstalled()) return none('PostgreSQL is not installed (no initdb under /usr/lib/postgresql/*/bin nor on PATH), and OUTING_BENCH_DATABASE_URL is unset');
    clusterDir = mkdtempSync(join(tmpdir(), 'outing-bench-pg-'));
    try {
      const { stdout } = await execFileAsync('bash', [postgresScript, 'start', clusterDir], { timeout: 120_000 });
      clusterUrl = stdout.trim().split('\n').pop();
    } catch (err) {
      rmSync(clusterDir, { recursive: true, force: true });
      return none(`scripts/postgres.sh did not start a cluster: ${(err as Error & { stderr?: string }).stderr ?? (err as Error).message}`);
    }
    cluster = 'a throwaway cluster of scripts/postgres.sh (fsync=off, synchronous_commit=off)';
  }
  const onCluster = async <T>(work: (client: pg.Client) => Promise<T>): Promise<T> => {
    const client = new pg.Client({ connectionString: clusterUrl });
    await client.connect();
    try {
      return await work(client);
    } finally {
      await client.end();
    }
  };
  const name = `outing_bench_${randomBytes(6).toString('hex')}`;
  const databaseUrl = new URL(clusterUrl!);
  databaseUrl.pathname = `/${name}`;
  const servers: Server[] = [];
  try {
    const version = await onCluster(async (client) => {
      await client.query(`CREATE DATABASE ${name} TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C'`);
      return (await client.query<{ server_version: string }>('SHOW server_version')).rows[0]?.server_version;
    });
    cluster = `PostgreSQL ${version}, ${cluster}`;
    process.stderr.write(`PostgreSQL: seeding ${label} bookings, copying them into ${name}…\n`);
    const s = await seed(join(args.dir, `bench-pg-${label}.db`), size);
    const copyBegan = performance.now();
    await copySqliteToPostgres(s.dbPath, databaseUrl.toString());
    const copySeconds = (performance.now() - copyBegan) / 1000;
    const serve = async (tag: string) => {
      const argv = [
        ...(args.profile ? ['--cpu-prof', `--cpu-prof-dir=${join(args.dir, 'profiles', `pg-${tag}`)}`] : []),
        'bin/outing.js', 'serve', '--host', '127.0.0.1', '--port', '0', '--database-url', databaseUrl.toString(),
      ];
      const server = await start(argv, /Outing is listening on (\S+)/, serverEnv);
      servers.push(server);
      return server;
    };
    const stopAll = async () => {
      await Promise.all(servers.map((x) => x.stop()));
      servers.length = 0;
    };
    const run: PostgresRun = { size, cluster, copySeconds, rows: [], availability: [], bookings: [] };
    // The cluster's own CPU, when the bench started it (its postmaster.pid names the postmaster).
    let postmaster: number | undefined;
    try {
      if (clusterDir) postmaster = Number(readFileSync(join(clusterDir, 'data', 'postmaster.pid'), 'utf8').split('\n')[0]);
    } catch {
      postmaster = undefined;
    }
    const peak = (list: Server[]) => Math.max(...list.map((x) => memoryOf(x.child.pid).peakMb));
    const now = (list: Server[]) => Math.max(...list.map((x) => memoryOf(x.child.pid).rssMb));
    for (const count of [1, 2]) {
      const processes = count === 1 ? '1 process' : `${count} processes`;
      // Reads on their own servers, then bookings on servers started for them, as for SQLite.
      const readers = await Promise.all(Array.from({ length: count }, (_, i) => serve(`read-${count}-${i}`)));
      const availability = await measure(
        `GET /v1/availability 30 days (${label}, PostgreSQL, ${processes})`,
        { url: readers.map((x) => x.url), requests: availabilityRequests(s) },
        readers.map((x) => x.child.pid),
        postmaster,
      );
      run.availability.push({ ...availability, rssMb: now(readers) });
      await stopAll();
      const writers = await Promise.all(Array.from({ length: count }, (_, i) => serve(`bookings-${count}-${i}`)));
      const bookings = await measure(
        `POST /v1/bookings (${label}, PostgreSQL, ${processes})`,
        { url: writers.map((x) => x.url), requests: bookingRequests(s, `pg${count}`) },
        writers.map((x) => x.child.pid),
        postmaster,
      );
      run.bookings.push({ ...bookings, rssMb: peak(writers) });
      await stopAll();
    }
    run.rows.push(...run.availability, ...run.bookings);
    return run;
  } finally {
    await Promise.all(servers.map((x) => x.stop()));
    await onCluster((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).catch(() => {});
    if (clusterDir) await execFileAsync('bash', [postgresScript, 'stop', clusterDir], { timeout: 60_000 }).catch(() => rmSync(clusterDir!, { recursive: true, force: true }));
  }
}

async function main(): Promise<void> {
  const began = performance.now();
  const rows: Row[] = [];
  const seeds: { size: number; seconds: number; customers: number }[] = [];
  let cold: Cold | undefined;
  const load = loadavg()[0] ?? 0;
  const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}, load average ${load.toFixed(2)} at start`;
  process.stderr.write(`Machine: ${machine}\n`);
  if (load > cpus().length * 0.5) process.stderr.write('Warning: the machine is busy; figures will be low and noisy.\n');
  const serverEnv = { RATE_LIMIT_PER_MINUTE: '0', LOG_LEVEL: args['log-level'], NODE_OPTIONS: args['server-node-options'] };
  const serverArgs = (size: string, dbPath: string, port = '0') => [
    ...(args.profile ? ['--cpu-prof', `--cpu-prof-dir=${join(args.dir, 'profiles', size)}`] : []),
    'bin/outing.js', 'serve', '--host', '127.0.0.1', '--port', port, '--db', dbPath,
  ];

  if (only.has('ceiling')) {
    const ceiling = await start(['bench/ceiling.mjs'], /listening on (\S+)/);
    rows.push({ ...(await measure('hello: bare Hono JSON', { url: ceiling.url }, ceiling.child.pid)), rssMb: memoryOf(ceiling.child.pid).peakMb });
    rows.push({
      ...(await measure('hello: Hono, 12 KB slots JSON', { url: `${ceiling.url}/slots` }, ceiling.child.pid)),
      rssMb: memoryOf(ceiling.child.pid).peakMb,
    });
    await ceiling.stop();
  }

  // The SQLite rows, size by size (no seeding at all when none of them is asked for).
  const sqliteRows = ['healthz', 'cold', 'list', 'availability', 'availability-day', 'bookings'].some((x) => only.has(x));
  for (const size of sqliteRows ? sizes : []) {
    const label = labelOf(size);
    process.stderr.write(`Seeding ${label} bookings…\n`);
    const s = await seed(join(args.dir, `bench-${label}.db`), size);
    seeds.push({ size, seconds: s.seconds, customers: s.customers });
    process.stderr.write(`  ${fmt(size)} bookings, ${fmt(s.customers)} customers, ${fmt(s.slots)} slots in ${s.seconds.toFixed(1)} s\n`);

    if (size === coldSize && only.has('cold')) {
      // The first start after seeding, then warm starts, each against the hello's start in turn.
      const argv = (port: number) => ['bin/outing.js', 'serve', '--host', '127.0.0.1', '--port', String(port), '--db', s.dbPath];
      const hello = (port: number) => ['bench/ceiling.mjs', String(port)];
      const c: Cold = { size, firstMs: await coldStart(argv, '/healthz', serverEnv), warmMs: [], helloMs: [] };
      for (let i = 0; i < coldRuns; i++) {
        c.helloMs.push(await coldStart(hello, '/'));
        c.warmMs.push(await coldStart(argv, '/healthz', serverEnv));
      }
      cold = c;
      process.stderr.write(`  cold start: first ${fmt(c.firstMs)} ms, warm ${c.warmMs.map((x) => fmt(x)).join(' / ')} ms, hello ${c.helloMs.map((x) => fmt(x)).join(' / ')} ms\n`);
    }

    // Reads on one server (lists before any booking is added), bookings on a server of their own,
    // so that the peak RSS of the bookings row is that of the booking load alone.
    if (['healthz', 'list', 'availability', 'availability-day'].some((x) => only.has(x))) {
      const server = await start(serverArgs(label, s.dbPath), /Outing is listening on (\S+)/, serverEnv);
      const pid = server.child.pid;
      if (size === sizes[0] && only.has('healthz')) {
        rows.push({ ...(await measure(`GET /healthz (${label})`, { url: `${server.url}/healthz` }, pid)), rssMb: memoryOf(pid).rssMb });
      }
      if (only.has('list')) {
        const headers = { authorization: `Bearer ${s.apiKey}` };
        rows.push({ ...(await measure(`GET /v1/bookings?limit=100 (${label})`, { url: `${server.url}/v1/bookings?limit=100`, headers }, pid)), rssMb: memoryOf(pid).rssMb });
        rows.push({ ...(await measure(`GET /v1/customers?limit=100 (${label})`, { url: `${server.url}/v1/customers?limit=100`, headers }, pid)), rssMb: memoryOf(pid).rssMb });
      }
      if (only.has('availability')) {
        const availability = await measure(`GET /v1/availability 30 days (${label})`, { url: server.url, requests: availabilityRequests(s) }, pid);
        rows.push({ ...availability, rssMb: memoryOf(pid).rssMb });
      }
      if (only.has('availability-day') && size === sizes[0]) {
        const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
        const oneDay = await measure(`GET /v1/availability 1 day (${label})`, { url: server.url, requests: availabilityRequests(s, tomorrow) }, pid);
        rows.push({ ...oneDay, rssMb: memoryOf(pid).rssMb });
      }
      await server.stop();
    }
    if (only.has('bookings')) {
      const server = await start(serverArgs(`${label}-bookings`, s.dbPath), /Outing is listening on (\S+)/, serverEnv);
      const bookings = await measure(`POST /v1/bookings (${label})`, { url: server.url, requests: bookingRequests(s, label) }, server.child.pid);
      rows.push({ ...bookings, rssMb: memoryOf(server.child.pid).peakMb });
      await server.stop();
      if (size === sizes[0]) rows.push(await bookingFloor(size, label));
    }
  }

  // PostgreSQL's rows join the table of every row, but not the SQLite targets below: they have a
  // table of their own, beside SQLite's.
  const postgres = only.has('postgres') ? await postgresRun(serverEnv) : undefined;
  const allRows = [...rows, ...(postgres?.rows ?? [])];

  const width = Math.max(...allRows.map((r) => r.name.length));
  const lines = [
    `${'endpoint'.padEnd(width)}  ${'req/s'.padStart(8)}  ${'p50 ms'.padStart(7)}  ${'p99 ms'.padStart(7)}  ${'RSS MB'.padStart(7)}  ${'CPU µs/req'.padStart(10)}  ${'kernel'.padStart(6)}  ${'KB written/req'.padStart(14)}  non-2xx`,
    ...allRows.map(
      (r) =>
        `${r.name.padEnd(width)}  ${fmt(r.reqPerSec).padStart(8)}  ${fmt(r.p50, 1).padStart(7)}  ${fmt(r.p99, 1).padStart(7)}  ${fmt(r.rssMb ?? NaN).padStart(7)}  ${fmt(r.cpuUsPerReq).padStart(10)}  ${`${fmt(r.systemShare * 100)}%`.padStart(6)}  ${fmt(r.kbWrittenPerReq, 1).padStart(14)}  ${r.other}`,
    ),
  ];

  // Each figure beside the hello's in this run: req/s as a share of the hello's (higher is better),
  // CPU, p99, start time and memory as multiples of the hello's (lower is better).
  const hello = rows.find((r) => r.name.startsWith('hello: bare'));
  const helloRate = hello?.reqPerSec ?? NaN;
  const row = (prefix: string) => rows.find((r) => r.name.startsWith(prefix));
  const summary: string[][] = [['figure', 'value', 'hello', 'ratio', 'target']];
  const add = (figure: string, value: string, helloValue: string, ratio: number, target: string) =>
    summary.push([figure, value, helloValue, Number.isFinite(ratio) ? `${fmt(ratio, ratio < 0.1 ? 3 : 2)}×` : '-', target]);
  const perRequest = (r: Row, target: string) => {
    add(`${r.name}: req/s`, fmt(r.reqPerSec), fmt(helloRate), r.reqPerSec / helloRate, target);
    add(`${r.name}: CPU µs/req`, fmt(r.cpuUsPerReq), fmt(hello?.cpuUsPerReq ?? NaN), r.cpuUsPerReq / (hello?.cpuUsPerReq ?? NaN), '');
    add(`${r.name}: p99 ms`, fmt(r.p99, 1), fmt(hello?.p99 ?? NaN, 1), r.p99 / (hello?.p99 ?? NaN), '');
  };
  const lists = rows.filter((r) => r.name.startsWith('GET /v1/bookings?limit=100'));
  for (const r of lists) perRequest(r, '≥ 0.05× hello');
  if (lists.length > 1) {
    const sizeOf = (r: Row) => /\(([^)]+)\)$/.exec(r.name)?.[1] ?? '?';
    const ratio = lists[lists.length - 1]!.reqPerSec / lists[0]!.reqPerSec;
    summary.push([`GET /v1/bookings?limit=100: ${sizeOf(lists[lists.length - 1]!)} / ${sizeOf(lists[0]!)} req/s`, fmt(ratio, 2), '', '', '≥ 0.80']);
    const hundred = lists.find((r) => r.name.includes('(100k)'));
    if (hundred && hundred !== lists[lists.length - 1]) summary.push(['GET /v1/bookings?limit=100: 100k / 10k req/s', fmt(hundred.reqPerSec / lists[0]!.reqPerSec, 2), '', '', '≥ 0.80']);
  }
  const customerLists = rows.filter((r) => r.name.startsWith('GET /v1/customers'));
  for (const r of customerLists) perRequest(r, '');
  if (customerLists.length > 1) {
    summary.push([`GET /v1/customers?limit=100: largest / smallest req/s`, fmt(customerLists[customerLists.length - 1]!.reqPerSec / customerLists[0]!.reqPerSec, 2), '', '', '≥ 0.80']);
  }
  if (cold) {
    const helloStart = median(cold.helloMs);
    add(`cold start, ${labelOf(cold.size)} database, first start: ms`, fmt(cold.firstMs), fmt(helloStart), cold.firstMs / helloStart, '≤ 250 ms');
    add(`cold start, ${labelOf(cold.size)} database, warm (median of ${cold.warmMs.length}): ms`, fmt(median(cold.warmMs)), fmt(helloStart), median(cold.warmMs) / helloStart, '≤ 250 ms');
  }
  for (const r of rows.filter((x) => x.name.startsWith('POST /v1/bookings'))) {
    add(`${r.name}: bookings/s`, fmt(r.reqPerSec), fmt(helloRate), r.reqPerSec / helloRate, '≥ 2,000/s');
    add(`${r.name}: server CPU µs/booking`, fmt(r.cpuUsPerReq), fmt(hello?.cpuUsPerReq ?? NaN), r.cpuUsPerReq / (hello?.cpuUsPerReq ?? NaN), '≤ 250 µs');
    add(`${r.name}: peak RSS MB`, fmt(r.rssMb ?? NaN), fmt(hello?.rssMb ?? NaN), (r.rssMb ?? NaN) / (hello?.rssMb ?? NaN), '≤ 150 MB');
  }
  for (const r of rows.filter((x) => x.name.startsWith('createBooking alone'))) {
    add(`${r.name}: bookings/s`, fmt(r.reqPerSec), fmt(helloRate), r.reqPerSec / helloRate, '');
    add(`${r.name}: CPU µs/booking`, fmt(r.cpuUsPerReq), fmt(hello?.cpuUsPerReq ?? NaN), r.cpuUsPerReq / (hello?.cpuUsPerReq ?? NaN), '');
  }
  const availabilityRates = rows.filter((r) => r.name.startsWith('GET /v1/availability 30')).map((r) => r.reqPerSec);
  if (availabilityRates.length) {
    const first = availabilityRates[0]!;
    add('GET /v1/availability 30 days, smallest history: req/s', fmt(first), fmt(helloRate), first / helloRate, '≥ 8,000/s');
    const sameSize = row('hello: Hono, 12 KB')?.reqPerSec ?? NaN;
    summary.push(['  … against the 12 KB hello', fmt(first), fmt(sameSize), `${fmt(first / sameSize, 2)}×`, '']);
    if (availabilityRates.length > 1) summary.push(['GET /v1/availability: largest / smallest history', fmt(availabilityRates[availabilityRates.length - 1]! / first, 2), '', '', '≥ 0.90']);
  }
  const table = (cells: string[][]) => {
    const widths = cells[0]!.map((_, i) => Math.max(...cells.map((l) => l[i]!.length)));
    return cells.map((l) => l.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ').trimEnd());
  };
  lines.push('', ...table(summary));
  if (postgres?.skipped) lines.push('', `PostgreSQL: skipped (${postgres.skipped})`);
  else if (postgres) {
    // The same loads on each engine, each beside the hello: req/s as a share of its req/s, CPU µs
    // (Outing's processes; PostgreSQL's own on a line of their own, when the bench started the
    // cluster) and p99 as multiples of its own.
    const engines: string[][] = [['figure', 'hello', 'SQLite', 'ratio', 'PG ×1', 'ratio', 'PG ×2', 'ratio']];
    const ratio = (x: number, h: number) => (Number.isFinite(x / h) ? `${fmt(x / h, x / h < 0.1 ? 3 : 2)}×` : '-');
    const compare = (title: string, sqlite: Row | undefined, one: Row | undefined, two: Row | undefined) => {
      const line = (what: string, pick: (r: Row) => number, digits = 0) => {
        const h = hello ? pick(hello) : NaN;
        const cells = [sqlite, one, two].flatMap((r) => [fmt(r ? pick(r) : NaN, digits), ratio(r ? pick(r) : NaN, h)]);
        engines.push([`${title}: ${what}`, fmt(h, digits), ...cells]);
      };
      line('req/s', (r) => r.reqPerSec);
      line('CPU µs/req', (r) => r.cpuUsPerReq);
      line('PostgreSQL CPU µs/req', (r) => r.dbCpuUsPerReq ?? NaN);
      line('p99 ms', (r) => r.p99, 1);
    };
    const size = labelOf(postgres.size);
    compare(`GET /v1/availability 30 days (${size})`, row(`GET /v1/availability 30 days (${size})`), postgres.availability[0], postgres.availability[1]);
    compare(`POST /v1/bookings (${size})`, row(`POST /v1/bookings (${size})`), postgres.bookings[0], postgres.bookings[1]);
    lines.push('', ...table(engines), `PostgreSQL: ${postgres.cluster}; database copied from SQLite in ${postgres.copySeconds.toFixed(1)} s`);
  }
  lines.push('', `seeding: ${seeds.map((x) => `${fmt(x.size)} bookings in ${x.seconds.toFixed(1)} s`).join(', ')}`);
  lines.push(`machine: ${machine}, ${loadavg()[0]?.toFixed(2)} at end; whole run ${fmt((performance.now() - began) / 1000)} s`);
  process.stdout.write(`\n${lines.join('\n')}\n`);
  if (only.has('operator')) process.stdout.write(`\n${(await (await import('./operator.js')).operatorBench({ sizes: [sizes[0]!, sizes[sizes.length - 1]!], duration, warmup, connections: 10, dir: args.dir })).join('\n')}\n`);
  if (args.json) writeFileSync(args.json, JSON.stringify({ load, machine, rows: allRows, cold, seeds, postgres }, null, 2));
}

await main();
