/**
 * How `bin/outing.js` starts Outing: from the bundled server in dist/server/bundle/ (a few CommonJS
 * scripts instead of ~300 ES modules, which Node resolves, reads and links one by one), each
 * compiled with the V8 code cache the build wrote beside it. A start then spends its time in
 * Outing, not in the module loader (docs/PERFORMANCE.md, "Cold start"). Without a bundle, or with
 * one older than the compiled sources, it runs the module tree, as before.
 *
 * Node 20 has no compile cache for modules (`module.enableCompileCache` came in Node 22), and the
 * v8-compile-cache package compiles scripts without a dynamic `import()` loader, so this does what
 * both do, for the bundle's own files only: `vm.Script` with `cachedData`.
 */
import { readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';

const SERVER_DIR = dirname(fileURLToPath(import.meta.url));
const BUNDLE_DIR = join(SERVER_DIR, 'bundle');
const ENTRY = 'outing.cjs';
/** The code cache of `x.cjs` is `x.cjs.v8cache`; V8 refuses (and the script compiles anew) a cache of another V8 or other flags. */
const CACHE_SUFFIX = '.v8cache';

interface BundleEntry {
  main(argv: string[]): Promise<void>;
  placeBundle(serverDir: string): void;
}

interface LoadedScript {
  module: { exports: unknown };
  script: vm.Script;
}

/** Loads the bundle's scripts, sharing one module table so that chunks requiring each other (even in a cycle) meet once. */
class BundleLoader {
  readonly loaded = new Map<string, LoadedScript>();
  private readonly nodeRequire = createRequire(join(BUNDLE_DIR, ENTRY));

  constructor(private readonly useCache: boolean) {}

  load(name: string): unknown {
    const known = this.loaded.get(name);
    if (known) return known.module.exports;
    const file = join(BUNDLE_DIR, name);
    const source = readFileSync(file, 'utf8');
    const cachedData = this.useCache ? readCache(file) : undefined;
    const script = new vm.Script(wrap(source), {
      filename: file,
      cachedData,
      importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
    });
    const module = { exports: {} as unknown };
    this.loaded.set(name, { module, script });
    const run = script.runInThisContext() as (...args: unknown[]) => void;
    const require = Object.assign((id: string) => (isChunk(id) ? this.load(id.slice(2)) : this.nodeRequire(id)), {
      resolve: this.nodeRequire.resolve,
      cache: this.nodeRequire.cache,
    });
    run.call(module.exports, module.exports, require, module, file, BUNDLE_DIR);
    return module.exports;
  }
}

/** The bundle's chunks require each other as `./outing-NAME.cjs`. */
function isChunk(id: string): boolean {
  return id.startsWith('./') && id.endsWith('.cjs') && !id.slice(2).includes('/');
}

/**
 * CommonJS's own wrapper, so that the scripts see exports, require, module, __filename and
 * __dirname. A code cache belongs to the wrapped text: whoever checks one wraps the same way.
 */
export function wrap(source: string): string {
  return `(function (exports, require, module, __filename, __dirname) { ${source}\n})`;
}

function readCache(file: string): Buffer | undefined {
  try {
    return readFileSync(file + CACHE_SUFFIX);
  } catch {
    return undefined;
  }
}

/**
 * Which build to run from `serverDir` (dist/server): the bundle, unless there is none or `tsc`
 * compiled the sources after it was made (a `tsc` run alone, without `npm run build:server`): a
 * stale bundle would run yesterday's code.
 */
export function buildToRun(serverDir: string): 'bundle' | 'modules' | 'stale bundle' {
  const bundled = modifiedAt(join(serverDir, 'bundle', ENTRY));
  if (bundled === undefined) return 'modules';
  const compiled = modifiedAt(join(serverDir, 'cli.js'));
  return compiled !== undefined && compiled > bundled ? 'stale bundle' : 'bundle';
}

function modifiedAt(file: string): number | undefined {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return undefined;
  }
}

/** Runs `outing ARGV…`: the bundled server when built, else the module tree. */
export async function launch(argv: string[]): Promise<void> {
  const build = buildToRun(SERVER_DIR);
  if (build !== 'bundle') {
    if (build === 'stale bundle') {
      process.stderr.write('outing: dist/server/bundle is older than the compiled sources; running those (npm run build:server bundles them again)\n');
    }
    const { main } = await import('./cli.js');
    return main(argv);
  }
  const entry = new BundleLoader(true).load(ENTRY) as BundleEntry;
  entry.placeBundle(SERVER_DIR);
  await entry.main(argv);
}

/**
 * For the build: loads every script of the bundle (their top level only: nothing is started),
 * then writes each one's code cache, with the functions compiled so far. Answers the files written.
 */
export function writeCodeCaches(): string[] {
  const loader = new BundleLoader(false);
  const names = readdirSync(BUNDLE_DIR).filter((name) => name.endsWith('.cjs'));
  for (const name of names) loader.load(name);
  const written: string[] = [];
  for (const [name, { script }] of loader.loaded) {
    const file = join(BUNDLE_DIR, name + CACHE_SUFFIX);
    writeFileSync(file, script.createCachedData());
    written.push(file);
  }
  return written;
}
