// @vitest-environment node
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The budgets for the dashboard's JavaScript and CSS, each file gzipped at level 9 (docs/dashboard.md):
 * what sign-in and Today load, and everything the dashboard can load (the other screens come as
 * one same-origin chunk, the first time one of them opens).
 */
const FIRST_SCREEN_BUDGET = 80 * 1024;
const BUDGET = 160 * 1024;

let outDir: string;
let html: string;
let assets: { name: string; text: string }[];

beforeAll(async () => {
  // The real build config, into a folder of our own so `npm run build:dashboard`'s output is untouched.
  outDir = await mkdtemp(join(tmpdir(), 'outing-dashboard-'));
  await build({
    configFile: resolve(import.meta.dirname, '../vite.config.ts'),
    mode: 'dashboard',
    logLevel: 'silent',
    build: { outDir, emptyOutDir: true },
  });
  html = await readFile(join(outDir, 'index.html'), 'utf8');
  const names = await readdir(join(outDir, 'assets'));
  assets = await Promise.all(names.map(async (name) => ({ name, text: await readFile(join(outDir, 'assets', name), 'utf8') })));
}, 60_000);

afterAll(async () => {
  await rm(outDir, { recursive: true, force: true });
});

const gzipped = (name: string): number => gzipSync(assets.find((a) => a.name === name)!.text, { level: 9 }).length;

/**
 * The files sign-in and Today load: those index.html names, and every module they import statically
 * (`import{…}from"./x.js"`), but not what `import("./x.js")` fetches when a screen needs it.
 */
function firstScreenFiles(): string[] {
  const named = [...html.matchAll(/(?:src|href)="\/dashboard\/assets\/([^"]+)"/g)].map((m) => m[1]!);
  const files = new Set(named);
  for (const name of files) {
    const text = assets.find((a) => a.name === name)?.text ?? '';
    if (!name.endsWith('.js')) continue;
    for (const m of text.matchAll(/(?:^|[;}\s])import\s*(?:[\w$*{}\s,]*?from\s*)?["'`]\.\/([\w-]+\.js)["'`]/g)) files.add(m[1]!);
  }
  return [...files];
}

describe('the dashboard build', () => {
  it(`loads at most ${FIRST_SCREEN_BUDGET} bytes gzipped for sign-in and Today, and at most ${BUDGET} in all`, () => {
    const all = assets.filter((a) => /\.(js|css)$/.test(a.name)).map((a) => [a.name, gzipped(a.name)] as const);
    const first = firstScreenFiles();
    const firstTotal = first.reduce((n, name) => n + gzipped(name), 0);
    const total = all.reduce((n, [, size]) => n + size, 0);
    console.log(
      `dashboard: ${all.map(([n, s]) => `${n} ${s}`).join(', ')}; sign-in and Today ${firstTotal} bytes gzipped ` +
        `(budget ${FIRST_SCREEN_BUDGET}, ${FIRST_SCREEN_BUDGET - firstTotal} left), all ${total} (budget ${BUDGET}, ${BUDGET - total} left)`,
    );
    expect(first.some((n) => n.endsWith('.js')) && first.some((n) => n.endsWith('.css'))).toBe(true);
    expect(firstTotal).toBeLessThanOrEqual(FIRST_SCREEN_BUDGET);
    expect(total).toBeLessThanOrEqual(BUDGET);
  });

  it('loads the other screens as a chunk of its own, fetched from the same origin when first needed', () => {
    const first = firstScreenFiles();
    const later = assets.filter((a) => a.name.endsWith('.js') && !first.includes(a.name));
    expect(later.length).toBeGreaterThanOrEqual(1);
    const entry = assets.find((a) => a.name === first.find((n) => n.endsWith('.js')))!.text;
    // A relative dynamic import: the same origin and folder, as the CSP's script-src 'self' allows.
    for (const chunk of later) expect(entry).toContain(`import(\`./${chunk.name}\`)`);
  });

  it('puts nothing inline that its CSP would block: external, hashed files only', () => {
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(html).not.toMatch(/<style|\sstyle=/);
    expect(html).toMatch(/<script type="module" crossorigin src="\/dashboard\/assets\/index-[\w-]+\.js"><\/script>/);
    expect(html).toMatch(/<link rel="stylesheet" crossorigin href="\/dashboard\/assets\/index-[\w-]+\.css">/);
    for (const a of assets) expect(a.name).toMatch(/^[\w-]+-[\w-]{8}\.(js|css)$/);
  });

  it('loads nothing from another origin and needs no eval', () => {
    const js = assets.filter((a) => a.name.endsWith('.js')).map((a) => a.text).join('\n');
    const css = assets.filter((a) => a.name.endsWith('.css')).map((a) => a.text).join('\n');
    expect(css).not.toMatch(/@import|url\((?!["']?data:)/);
    expect(html).not.toMatch(/(src|href)="(https?:)?\/\//);
    expect(js).not.toMatch(/\beval\(/);
    // zod is told not to compile parsers (dashboard/zod-config.ts), before any schema is made.
    expect(js).toContain('jitless');
  });
});
