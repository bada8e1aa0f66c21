/**
 * `npm run build:binary`: builds `dist/outing`, Outing as one Node single executable application
 * (Linux x64). Steps:
 *
 * 1. Vite (rolldown) bundles server/sea.ts and everything it imports, dependencies included, into
 *    one CommonJS file: a SEA's main script cannot load anything but built-in modules.
 * 2. The files the server reads at run time become SEA assets: the widget bundle, the manage page and the dashboard
 *    (built before this script by `npm run build:widget`, `build:manage` and `build:dashboard`), the demo pages, Scalar's bundle for /docs, the SQL migrations, better-sqlite3's addon and
 *    the calendar reader's worker (server/ical/busy-worker.ts, bundled the same way), listed in
 *    `sea-manifest.json` for server/sea.ts.
 * 3. `node --experimental-sea-config` writes the blob; a copy of this node binary receives it with
 *    postject. https://nodejs.org/docs/latest-v20.x/api/single-executable-applications.html
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleServer } from './bundle-server.js';
import type { SeaManifest } from '../server/sea.js';
import { SCALAR_BUNDLE } from '../server/http/docs.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
/** `--out PATH` builds elsewhere than dist/outing (the test does, so that runs never collide). */
const outFlag = process.argv.indexOf('--out');
const output = resolve(outFlag > 0 ? (process.argv[outFlag + 1] ?? '') : join(root, 'dist/outing'));
/** Bundles, blob and sea-config.json of this run; `--keep` leaves them for a look. */
let workDir = '';
/** The fuse every official node binary carries; postject flips it so node runs the injected blob. */
const SEA_FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';

const log = (line: string) => process.stderr.write(`build:binary: ${line}\n`);
const seconds = (since: number) => `${((performance.now() - since) / 1000).toFixed(1)} s`;

class BuildError extends Error {}

function fail(message: string): never {
  throw new BuildError(message);
}

/** Bundles `entry` with its whole dependency tree into one CommonJS file. */
function bundle(entry: string, name: string): Promise<string> {
  return bundleServer({ root, entry, outDir: workDir, fileName: name, external: [], split: false });
}

/** The better-sqlite3 addon that node_modules holds, built for this node's ABI. */
function addonPath(): string {
  const require = createRequire(import.meta.url);
  const pkg = dirname(require.resolve('better-sqlite3/package.json'));
  const file = join(pkg, 'build/Release/better_sqlite3.node');
  if (!existsSync(file)) fail(`${file} is missing: reinstall better-sqlite3 (npm rebuild better-sqlite3)`);
  return file;
}

/** Asset key (a project-relative path, as server/assets.ts asks for it) → file on disk. */
function collectAssets(calendarWorker: string): { files: Record<string, string>; manifest: SeaManifest } {
  const files: Record<string, string> = {};
  const add = (file: string) => {
    files[relative(root, file).split('\\').join('/')] = file;
  };
  const widget = join(root, 'dist/widget/widget.js');
  if (!existsSync(widget)) fail('dist/widget/widget.js is missing: run npm run build:widget first');
  add(widget);
  // Its languages other than English, served as /widget/{code}.json.
  for (const name of readdirSync(dirname(widget)).filter((f) => f.endsWith('.json'))) add(join(dirname(widget), name));
  // The guests' manage page: one script, read through readAsset by manage-page.ts.
  const manage = join(root, 'dist/manage/manage.js');
  if (!existsSync(manage)) fail('dist/manage/manage.js is missing: run npm run build:manage first');
  add(manage);
  // The dashboard: index.html and its hashed assets, all read through readAsset by dashboard-app.ts.
  const dashboard = join(root, 'dist/dashboard');
  if (!existsSync(join(dashboard, 'index.html'))) fail('dist/dashboard/index.html is missing: run npm run build:dashboard first');
  for (const file of readdirSync(dashboard, { recursive: true, withFileTypes: true })) {
    if (file.isFile()) add(join(file.parentPath, file.name));
  }
  // /docs serves Scalar's browser bundle; readAsset asks for it by its path in the project.
  const require = createRequire(import.meta.url);
  const scalar = require.resolve('@scalar/api-reference/browser/standalone.js');
  files[SCALAR_BUNDLE] = scalar;
  const demo = join(root, 'demo');
  if (existsSync(demo)) {
    for (const name of readdirSync(demo)) {
      const file = join(demo, name);
      if (statSync(file).isFile()) add(file);
    }
  }
  const migrationsDir = join(root, 'server/store/migrations');
  const migrations = readdirSync(migrationsDir)
    .filter((f) => /^\d+_.+\.sql$/.test(f))
    .map((f) => join(migrationsDir, f));
  if (!migrations.length) fail('no migrations found in server/store/migrations');
  const assets = Object.keys(files);
  for (const file of migrations) add(file);
  files['better_sqlite3.node'] = addonPath();
  files['calendar-worker.cjs'] = calendarWorker;
  return {
    files,
    manifest: {
      assets,
      migrations: migrations.map((f) => relative(root, f).split('\\').join('/')),
      addon: 'better_sqlite3.node',
      calendarWorker: 'calendar-worker.cjs',
    },
  };
}

/**
 * postject, run as its command so that its chatter and the ELF parser's harmless "Can't find
 * string offset for section name" warnings stay out of the build's output unless it fails.
 */
function inject(executable: string, blob: string): void {
  const require = createRequire(import.meta.url);
  const cli = join(dirname(require.resolve('postject/package.json')), 'dist/cli.js');
  const result = spawnSync(process.execPath, [cli, executable, 'NODE_SEA_BLOB', blob, '--sentinel-fuse', SEA_FUSE], {
    encoding: 'utf8',
  });
  if (result.status === 0) return;
  const noise = /^warning: Can't find string offset for section name/;
  const said = `${result.stdout}${result.stderr}`.split('\n').filter((l) => l.trim() !== '' && !noise.test(l));
  fail(`postject failed (exit ${result.status ?? result.signal}): ${said.join(' | ')}`);
}

async function main(): Promise<void> {
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    fail(`the single executable is built for Linux x64 only; this is ${process.platform}-${process.arch}`);
  }
  const started = performance.now();
  mkdirSync(dirname(output), { recursive: true });
  workDir = mkdtempSync(join(dirname(output), '.outing-sea-'));
  try {
    await assemble(started);
  } finally {
    if (process.argv.includes('--keep')) log(`work files kept in ${workDir}`);
    else rmSync(workDir, { recursive: true, force: true });
  }
}

async function assemble(started: number): Promise<void> {
  let step = performance.now();
  const main = await bundle('server/sea.ts', 'outing.cjs');
  // The calendar reader's worker thread: a SEA cannot start one from a file, so it gets the source.
  const calendarWorker = await bundle('server/ical/busy-worker.ts', 'calendar-worker.cjs');
  const kib = (f: string) => `${(statSync(f).size / 1024).toFixed(0)} KiB`;
  log(`bundled server/sea.ts (${kib(main)}) and server/ical/busy-worker.ts (${kib(calendarWorker)}) in ${seconds(step)}`);

  const { files, manifest } = collectAssets(calendarWorker);
  const manifestFile = join(workDir, 'sea-manifest.json');
  writeFileSync(manifestFile, `${JSON.stringify(manifest, null, 2)}\n`);
  const blob = join(workDir, 'sea-prep.blob');
  const seaConfig = {
    main,
    output: blob,
    disableExperimentalSEAWarning: true,
    // V8's compiled code for the bundle rides along: a faster cold start.
    useCodeCache: true,
    assets: { 'sea-manifest.json': manifestFile, ...files },
  };
  const configFile = join(workDir, 'sea-config.json');
  writeFileSync(configFile, `${JSON.stringify(seaConfig, null, 2)}\n`);
  step = performance.now();
  const made = spawnSync(process.execPath, ['--experimental-sea-config', configFile], { encoding: 'utf8' });
  if (made.status !== 0) fail(`node --experimental-sea-config failed: ${made.stderr.trim()}`);
  log(`blob with ${Object.keys(files).length + 1} assets (${(statSync(blob).size / 1024 / 1024).toFixed(1)} MiB, ${seconds(step)})`);

  step = performance.now();
  // Injected into a copy in the work folder, then renamed: dist/outing is never half-written.
  const executable = join(workDir, 'outing');
  copyFileSync(process.execPath, executable);
  chmodSync(executable, 0o755);
  inject(executable, blob);
  renameSync(executable, output);
  log(`injected into a copy of ${process.execPath} (node ${process.version}, ${seconds(step)})`);
  log(`wrote ${relative(process.cwd(), output) || output} (${(statSync(output).size / 1024 / 1024).toFixed(0)} MiB) in ${seconds(started)}`);
}

try {
  await main();
} catch (err) {
  log(err instanceof BuildError ? err.message : String((err as Error).stack ?? err));
  process.exitCode = 1;
}
