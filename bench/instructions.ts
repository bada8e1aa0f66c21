// Instructions per booking, counted by valgrind's callgrind. A count does not depend on what else the
// machine is doing: the same build gives the same figure within ~3%, where bookings per second swing
// by 20% or more from one minute to the next on a shared machine. It is the figure to compare when a
// change to the booking path is worth a few per cent (docs/PERFORMANCE.md, "Counting instructions").
//
// Each booking goes through the whole app, without sockets: `app.request` of POST /v1/bookings with
// an Idempotency-Key (routing, authentication, validation, the group commit, serializers), from 50
// callers, on a seeded SQLite file with the server's settings. The child process books `--warmup`
// times with valgrind's instrumentation off, so that the JIT has settled, then the parent turns it on
// for `--bookings` more and off again. Instructions of every thread count (the JIT's compiler and
// the GC's helpers too). HTTP parsing and the socket writes of a real server are not in the figure.
//
//   node --import tsx bench/instructions.ts [--bookings 500] [--warmup 3000] [--runs 1] [--dir DIR]
//
// Needs valgrind (Debian: valgrind). ~1 minute a run; prints each run's instructions per booking.
import { execFileSync, spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { benchBooking, seed, type SeedResult } from './seed.js';

const { values: args } = parseArgs({
  options: {
    bookings: { type: 'string', default: '500' },
    warmup: { type: 'string', default: '3000' },
    runs: { type: 'string', default: '1' },
    dir: { type: 'string' },
    child: { type: 'boolean', default: false },
  },
});

const CALLERS = 50;

if (args.child) await child(args.dir!);
else await parent();

/** Seeds once, then counts each run under callgrind. */
async function parent(): Promise<void> {
  try {
    execFileSync('valgrind', ['--version'], { stdio: 'ignore' });
  } catch {
    console.error('valgrind is not installed (Debian: apt-get install valgrind)');
    process.exit(1);
  }
  const dir = args.dir ?? mkdtempSync(join(tmpdir(), 'outing-instructions-'));
  const seeded = await seed(join(dir, 'seed.db'), 10_000);
  writeFileSync(join(dir, 'seed.json'), JSON.stringify(seeded));
  for (let run = 1; run <= Number(args.runs); run++) {
    const perBooking = await countedRun(dir, run);
    console.log(`run ${run}: ${perBooking.toLocaleString('en-US')} instructions per booking (${args.bookings} bookings after ${args.warmup})`);
  }
  if (args.dir === undefined) rmSync(dir, { recursive: true, force: true });
}

async function countedRun(dir: string, run: number): Promise<number> {
  const out = join(dir, `callgrind-${run}.out`);
  const proc = spawn(
    'valgrind',
    ['--tool=callgrind', '--instr-atstart=no', `--callgrind-out-file=${out}`, process.execPath, '--import', 'tsx', import.meta.filename, '--child', '--dir', dir,
      '--bookings', args.bookings!, '--warmup', args.warmup!],
    { stdio: ['pipe', 'pipe', 'pipe'] },
  );
  let stderr = '';
  proc.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => proc.on('exit', resolve));
  const control = (on: boolean) => execFileSync('callgrind_control', ['-i', on ? 'on' : 'off', String(proc.pid)], { stdio: 'ignore' });
  for await (const line of createInterface({ input: proc.stdout })) {
    if (line === 'warm') {
      control(true);
      proc.stdin.write('go\n');
    } else if (line === 'done') {
      control(false);
      proc.stdin.end('stop\n');
    }
  }
  const code = await exited;
  if (code !== 0) throw new Error(`the counted run failed (exit ${code}):\n${stderr.slice(-2000)}`);
  const totals = /^totals: (\d+)$/m.exec(readFileSync(out, 'utf8'));
  if (!totals) throw new Error(`no totals in ${out}`);
  return Math.round(Number(totals[1]) / Number(args.bookings));
}

/** Under valgrind: warms up, says `warm`, waits for `go`, books, says `done`, waits for `stop`. */
async function child(dir: string): Promise<void> {
  const { openStore } = await import('../server/store/sqlite/store.js');
  const { createApp } = await import('../server/app.js');
  const { loadConfig } = await import('../server/config.js');
  const { createLogger } = await import('../server/logger.js');
  const seeded = JSON.parse(readFileSync(join(dir, 'seed.json'), 'utf8')) as SeedResult;
  const path = join(dir, `run-${process.pid}.db`);
  copyFileSync(seeded.dbPath, path);
  const store = openStore(path);
  const { app } = createApp({ store, config: loadConfig({ DATABASE_PATH: path, RATE_LIMIT_PER_MINUTE: '0', LOG_LEVEL: 'warn' }), logger: createLogger('warn') });
  const headers = { authorization: `Bearer ${seeded.apiKey}`, 'content-type': 'application/json' };

  /** Books `count` times from CALLERS callers; booking numbers from `first` on. */
  const book = async (first: number, count: number) => {
    let next = first;
    const caller = async () => {
      while (next < first + count) {
        const i = next++;
        const res = await app.request('/v1/bookings', {
          method: 'POST',
          headers: { ...headers, 'idempotency-key': `instructions-${i}` },
          body: JSON.stringify(benchBooking(seeded, i)),
        });
        const text = await res.text();
        if (res.status !== 201) throw new Error(`POST /v1/bookings answered ${res.status}: ${text}`);
      }
    };
    await Promise.all(Array.from({ length: CALLERS }, caller));
  };

  const lines = createInterface({ input: process.stdin })[Symbol.asyncIterator]();
  await book(0, Number(args.warmup));
  process.stdout.write('warm\n');
  await lines.next();
  await book(Number(args.warmup), Number(args.bookings));
  process.stdout.write('done\n');
  await lines.next();
  await store.close();
  rmSync(path, { force: true });
  for (const suffix of ['-wal', '-shm']) rmSync(path + suffix, { force: true });
}
