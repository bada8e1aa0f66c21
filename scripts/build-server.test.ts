// The bundled server that `bin/outing.js` runs (dist/server/bundle/, written by
// scripts/build-server.ts during `npm run build:server`, which `npm test` runs first). Every test
// that spawns `outing` runs it; these hold what those cannot see: that the code caches are used,
// and that a start reads none of the parts loaded on first use.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { buildToRun, wrap } from '../server/launch.js';

const BUNDLE_DIR = join(dirname(fileURLToPath(import.meta.url)), '../dist/server/bundle');

const sources = new Map<string, string>();
const scripts = () => readdirSync(BUNDLE_DIR).filter((name) => name.endsWith('.cjs'));
const source = (name: string): string => {
  if (!sources.has(name)) sources.set(name, readFileSync(join(BUNDLE_DIR, name), 'utf8'));
  return sources.get(name)!;
};

/** The chunks a script requires as it loads, not the ones it requires for an `import()` (`.then(()=>require(…))`). */
function loadedWith(name: string, seen = new Set<string>()): Set<string> {
  if (seen.has(name)) return seen;
  seen.add(name);
  for (const [, lazy, chunk] of source(name).matchAll(/(\.then\(\(\)=>)?require\("\.\/(outing[\w-]*\.cjs)"\)/g)) {
    if (lazy === undefined) loadedWith(chunk!, seen);
  }
  return seen;
}

describe('the bundled server (dist/server/bundle)', () => {
  it('is built, with a code cache beside every script', () => {
    expect(existsSync(join(BUNDLE_DIR, 'outing.cjs'))).toBe(true);
    for (const name of scripts()) expect(existsSync(join(BUNDLE_DIR, `${name}.v8cache`)), name).toBe(true);
  });

  it('has code caches that this node accepts (a refused one would compile the script anew at every start)', () => {
    for (const name of scripts()) {
      const cachedData = readFileSync(join(BUNDLE_DIR, `${name}.v8cache`));
      const script = new vm.Script(wrap(source(name)), { filename: join(BUNDLE_DIR, name), cachedData });
      expect(script.cachedDataRejected, name).toBe(false);
    }
  });

  it('starts the server without reading PostgreSQL, Stripe, nodemailer or the calendar libraries', () => {
    // `outing serve` loads the entry, then the server's chunk (cli.ts imports main.ts when serving).
    const serve = loadedWith('outing.cjs');
    loadedWith('outing-main.cjs', serve);
    // Small chunks the server shares with parts loaded later may come along (their names follow their first module).
    expect([...serve]).toEqual(expect.arrayContaining(['outing-main.cjs', 'outing.cjs']));
    expect(serve.size).toBeLessThan(scripts().length);
    const read = [...serve].map(source).join('\n');
    // A string each package carries that Outing's own code does not.
    const markers = { pg: 'pg-native', stripe: 'api.stripe.com', nodemailer: 'nodemailer', 'ical-generator': 'X-WR-CALNAME', 'windows-iana': 'WINDOWS_TO_IANA' };
    for (const [pkg, marker] of Object.entries(markers)) {
      expect(read.includes(marker), `${pkg} is read at every start`).toBe(false);
      expect(scripts().some((name) => source(name).includes(marker)), `${pkg} is not in the bundle at all`).toBe(true);
    }
  });
});

describe('which build `outing` runs', () => {
  it('runs the bundle, or the compiled modules when there is no bundle or tsc compiled them after it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'outing-launch-'));
    try {
      const touch = (file: string, seconds: number) => {
        mkdirSync(dirname(join(dir, file)), { recursive: true });
        writeFileSync(join(dir, file), '');
        utimesSync(join(dir, file), seconds, seconds);
      };
      touch('cli.js', 1_000);
      expect(buildToRun(dir)).toBe('modules');
      touch('bundle/outing.cjs', 2_000);
      expect(buildToRun(dir)).toBe('bundle');
      touch('cli.js', 3_000);
      expect(buildToRun(dir)).toBe('stale bundle');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
