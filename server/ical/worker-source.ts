// Where the calendar reader's worker thread comes from, when it is not the file beside
// isolated.ts. Kept apart from isolated.ts (which loads the calendar libraries) so that a build's
// entry can say it at start without loading them.

let script: string | undefined;
let file: string | undefined;

/**
 * The single executable has no worker file: it hands over the worker's bundled source
 * (server/ical/busy-worker.ts as one CommonJS script), started with `eval`.
 */
export function useCalendarWorkerScript(code: string): void {
  script = code;
}

/**
 * The bundled server (dist/server/bundle/) is not beside the worker: it names the compiled
 * worker module (dist/server/ical/busy-worker.js).
 */
export function useCalendarWorkerFile(path: string): void {
  file = path;
}

export function calendarWorkerSource(): { script?: string; file?: string } {
  return { script, file };
}
