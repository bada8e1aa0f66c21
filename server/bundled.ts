/**
 * Entry of the bundled server: `npm run build:server` bundles this file and what it imports into
 * dist/server/bundle/ (scripts/build-server.ts), and `bin/outing.js` runs it through launch.ts.
 * The bundle sits in its own folder, so it is told where the files the module tree finds beside
 * itself are: the SQL migrations and the calendar reader's worker.
 */
import { join } from 'node:path';
import { useMigrationsFolder } from './store/migrations.js';
import { useCalendarWorkerFile } from './ical/worker-source.js';

export { main } from './cli.js';

/** `serverDir` is the compiled server's folder (dist/server). */
export function placeBundle(serverDir: string): void {
  useMigrationsFolder(join(serverDir, 'store', 'migrations'));
  useCalendarWorkerFile(join(serverDir, 'ical', 'busy-worker.js'));
}
