// Runs busy.ts in a worker thread with a deadline and a memory cap. ical.js is synchronous and
// some recurrence rules make one of its steps search for a very long time; on the main thread a
// 5 MB calendar or such a rule would stall every request. Here the worst case is a terminated
// worker and a clear lastError.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { readBusyTimes, type BusyContext, type BusyTimes } from './busy.js';
import { CalendarFormatError, CalendarReadError } from './calendar-text.js';
import { calendarWorkerSource } from './worker-source.js';

export { CalendarReadError };

export interface IsolationOptions {
  timeoutMs?: number;
  signal?: AbortSignal;
}

const DEFAULT_TIMEOUT_MS = 60_000;
const MAX_PARALLEL = 2;
const RESOURCE_LIMITS = { maxOldGenerationSizeMb: 512 };

// tsx's ESM entry (its CommonJS one cannot register hooks from a worker's eval'd code).
function tsxEsmApi(): string {
  const require = createRequire(import.meta.url);
  const manifest = require.resolve('tsx/package.json');
  const pkg = JSON.parse(readFileSync(manifest, 'utf8')) as { exports: Record<string, { import: { default: string } }> };
  const entry = pkg.exports['./esm/api']?.import.default ?? './dist/esm/api/index.mjs';
  return join(dirname(manifest), entry);
}

/**
 * A worker reading `workerData`, or undefined when this build has no worker to start: calendars
 * are then read on the main thread, still bounded but no longer off it.
 */
function startWorker(workerData: unknown): Worker | undefined {
  const given = calendarWorkerSource();
  if (given.script !== undefined) return new Worker(given.script, { eval: true, workerData, resourceLimits: RESOURCE_LIMITS });
  if (given.file !== undefined && existsSync(given.file)) return new Worker(given.file, { workerData, resourceLimits: RESOURCE_LIMITS });
  const here = fileURLToPath(import.meta.url);
  // Under tests (or tsx) this module is TypeScript source: the worker then loads tsx first.
  const source = here.endsWith('.ts');
  const entry = join(dirname(here), `busy-worker.${source ? 'ts' : 'js'}`);
  if (!existsSync(entry)) return undefined;
  if (!source) return new Worker(entry, { workerData, resourceLimits: RESOURCE_LIMITS });
  const tsx = pathToFileURL(tsxEsmApi()).href;
  const boot = `import(${JSON.stringify(tsx)}).then((m) => { m.register(); return import(${JSON.stringify(pathToFileURL(entry).href)}); })`;
  return new Worker(boot, { eval: true, workerData, resourceLimits: RESOURCE_LIMITS });
}

let running = 0;
const waiting: (() => void)[] = [];

async function slot(): Promise<() => void> {
  if (running >= MAX_PARALLEL) await new Promise<void>((resolve) => waiting.push(resolve));
  running++;
  return () => {
    running--;
    waiting.shift()?.();
  };
}

function readInPlace(text: string, context: BusyContext): BusyTimes {
  try {
    return readBusyTimes(text, context);
  } catch (err) {
    throw new CalendarReadError(err instanceof CalendarFormatError ? err.message : 'The calendar could not be read');
  }
}

/** readBusyTimes in a worker; fails with CalendarReadError (a message fit for lastError). */
export async function readBusyTimesIsolated(text: string, context: BusyContext, options: IsolationOptions = {}): Promise<BusyTimes> {
  const release = await slot();
  try {
    if (options.signal?.aborted) throw new CalendarReadError('Cancelled');
    const worker = startWorker({ text, context });
    if (!worker) return readInPlace(text, context);
    return await new Promise<BusyTimes>((resolve, reject) => {
      const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
      const finish = (outcome: () => void) => {
        clearTimeout(timer);
        options.signal?.removeEventListener('abort', onAbort);
        outcome();
        void worker.terminate();
      };
      const timer = setTimeout(
        () => finish(() => reject(new CalendarReadError(`Reading the calendar took longer than ${Math.ceil(timeoutMs / 1000)} s`))),
        timeoutMs,
      );
      const onAbort = () => finish(() => reject(new CalendarReadError('Cancelled')));
      options.signal?.addEventListener('abort', onAbort, { once: true });
      worker.once('message', (message: { ok: true; busy: BusyTimes } | { ok: false; message: string }) =>
        finish(() => (message.ok ? resolve(message.busy) : reject(new CalendarReadError(message.message)))),
      );
      worker.once('error', (err) =>
        finish(() =>
          reject(new CalendarReadError(/memory/i.test(err.message) ? 'The calendar is too large to read' : 'The calendar could not be read')),
        ),
      );
      worker.once('exit', () => finish(() => reject(new CalendarReadError('The calendar could not be read'))));
    });
  } finally {
    release();
  }
}
