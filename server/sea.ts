/**
 * Entry of the single executable (`npm run build:binary` → `dist/outing`). The build bundles this
 * file with everything it imports into one CommonJS script, and carries as SEA assets what the
 * project folder would otherwise hold: the widget bundle, the demo pages, the SQL migrations,
 * better-sqlite3's native addon and the calendar reader's worker script. `sea-manifest.json`
 * (written by scripts/build-binary.ts) lists them.
 *
 * A SEA's `require` loads built-in modules only, so the addon is written to a cache folder and
 * loaded with `process.dlopen`, and its exports go to better-sqlite3 as `nativeBinding`.
 * https://nodejs.org/docs/latest-v20.x/api/single-executable-applications.html
 */
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { getAsset } from 'node:sea';
import { useAssetReader } from './assets.js';
import { useNativeBinding } from './store/sqlite/db.js';
import { useMigrations } from './store/migrations.js';
import { useCalendarWorkerScript } from './ical/worker-source.js';
import { main } from './cli.js';

/** What the build packed; the keys are paths relative to the project folder. */
export interface SeaManifest {
  assets: string[];
  migrations: string[];
  addon: string;
  /** server/ical/busy-worker.ts bundled: the calendar reader's worker thread, started from source. */
  calendarWorker: string;
}

const MANIFEST = 'sea-manifest.json';

function assetBytes(key: string): Buffer {
  return Buffer.from(getAsset(key));
}

/**
 * Folders to put the addon in, best first: systemd's `CacheDirectory=`, the XDG cache, then a
 * per-user folder in the temp dir (last, since /tmp is often mounted noexec).
 */
function cacheFolders(): string[] {
  const env = process.env;
  const folders: string[] = [];
  if (env.OUTING_CACHE_DIR) folders.push(env.OUTING_CACHE_DIR);
  if (env.CACHE_DIRECTORY) folders.push(join(env.CACHE_DIRECTORY.split(':')[0] ?? '', 'outing'));
  if (env.XDG_CACHE_HOME) folders.push(join(env.XDG_CACHE_HOME, 'outing'));
  try {
    folders.push(join(homedir(), '.cache', 'outing'));
  } catch {
    // No home folder (e.g. a service user without one): the temp folder remains.
  }
  folders.push(join(tmpdir(), `outing-${process.getuid?.() ?? 'user'}`));
  return folders.filter((f) => f !== '' && f !== 'outing');
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/**
 * Writes the addon once per content hash; a file already there is used only when its bytes hash
 * the same, so a half-written or tampered copy is replaced, never loaded.
 */
function extractAddon(bytes: Buffer): string {
  const hash = sha256(bytes);
  const name = `better_sqlite3-${hash.slice(0, 32)}.node`;
  const failures: string[] = [];
  for (const folder of cacheFolders()) {
    const file = join(folder, name);
    try {
      if (existsSync(file) && sha256(readFileSync(file)) === hash) return file;
      mkdirSync(folder, { recursive: true, mode: 0o700 });
      // Write beside, then rename: two processes starting at once never load a partial file.
      const partial = `${file}.${process.pid}.partial`;
      writeFileSync(partial, bytes, { mode: 0o700 });
      renameSync(partial, file);
      chmodSync(file, 0o755);
      return file;
    } catch (err) {
      failures.push(`${folder}: ${(err as Error).message}`);
      rmSync(`${file}.${process.pid}.partial`, { force: true });
    }
  }
  throw new Error(`Cannot write the SQLite addon to a cache folder (set OUTING_CACHE_DIR): ${failures.join('; ')}`);
}

function loadAddon(manifest: SeaManifest): object {
  const file = extractAddon(assetBytes(manifest.addon));
  const module = { exports: {} as object };
  process.dlopen(module, file);
  return module.exports;
}

function prepare(): void {
  const manifest = JSON.parse(getAsset(MANIFEST, 'utf8')) as SeaManifest;
  const packed = new Set(manifest.assets);
  useAssetReader((path) => (packed.has(path) ? assetBytes(path) : undefined));
  useMigrations(
    manifest.migrations.map((path) => {
      const name = path.slice(path.lastIndexOf('/') + 1);
      return { version: Number(name.split('_')[0]), name, sql: getAsset(path, 'utf8') };
    }),
  );
  useNativeBinding(loadAddon(manifest));
  useCalendarWorkerScript(getAsset(manifest.calendarWorker, 'utf8'));
}

try {
  prepare();
} catch (err) {
  process.stderr.write(`outing: ${(err instanceof Error ? err.message : String(err)).split('\n')[0]}\n`);
  process.exit(1);
}
// A SEA puts its own path in argv[1] too, as if it were the script: the arguments start at 2.
void main(process.argv.slice(2));
