// Worker-thread entry: reads one calendar (busy.ts) off the main thread and posts the result back.
import { parentPort, workerData } from 'node:worker_threads';
import { readBusyTimes, type BusyContext } from './busy.js';
import { CalendarFormatError } from './calendar-text.js';

const { text, context } = workerData as { text: string; context: BusyContext };
try {
  parentPort?.postMessage({ ok: true, busy: readBusyTimes(text, context) });
} catch (err) {
  parentPort?.postMessage({
    ok: false,
    message: err instanceof CalendarFormatError ? err.message : 'The calendar could not be read',
  });
}
