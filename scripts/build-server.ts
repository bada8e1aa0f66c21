/**
 * The last step of `npm run build:server`, after `tsc`: bundles server/bundled.ts into
 * dist/server/bundle/ and writes each script's V8 code cache beside it. `bin/outing.js` runs this
 * bundle through dist/server/launch.js; see that file for why, and docs/PERFORMANCE.md ("Cold
 * start") for what it changes.
 *
 * Bundled: Outing's own code and its packages, split where the code loads a part on first use
 * (`import()`): a start reads the entry, the schemas and the server; PostgreSQL's driver, Stripe,
 * nodemailer and the calendar libraries stay in chunks of their own until needed. Left in
 * node_modules: better-sqlite3, a native addon.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleServer } from './bundle-server.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const outDir = join(root, 'dist/server/bundle');

const started = performance.now();
if (!existsSync(join(root, 'dist/server/launch.js'))) {
  process.stderr.write('build:server: dist/server/launch.js is missing: tsc runs first (npm run build:server)\n');
  process.exit(1);
}
rmSync(outDir, { recursive: true, force: true });
mkdirSync(outDir, { recursive: true });
await bundleServer({ root, entry: 'server/bundled.ts', outDir, fileName: 'outing.cjs', external: ['better-sqlite3'], split: true });

// In a process of its own, with node's default flags: V8 refuses a cache made under other flags.
const cacheScript = 'import("./dist/server/launch.js").then((m) => process.stdout.write(String(m.writeCodeCaches().length)))';
const made = spawnSync(process.execPath, ['--input-type=module', '-e', cacheScript], { cwd: root, encoding: 'utf8' });
if (made.status !== 0) {
  process.stderr.write(`build:server: writing the code caches failed: ${made.stderr.trim()}\n`);
  process.exit(1);
}
const kib = readdirSync(outDir).reduce((sum, name) => sum + statSync(join(outDir, name)).size, 0) / 1024;
const seconds = ((performance.now() - started) / 1000).toFixed(1);
process.stderr.write(`build:server: dist/server/bundle: ${made.stdout} scripts with their code caches, ${kib.toFixed(0)} KiB, in ${seconds} s\n`);
