// @vitest-environment node
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** The budget for the dashboard's JavaScript and CSS together, each file gzipped (README, "Dashboard"). */
const BUDGET = 80 * 1024;

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

describe('the dashboard build', () => {
  it(`keeps its JavaScript and CSS within ${BUDGET} bytes gzipped`, () => {
    const sizes = assets.filter((a) => /\.(js|css)$/.test(a.name)).map((a) => [a.name, gzipSync(a.text, { level: 9 }).length] as const);
    const total = sizes.reduce((n, [, size]) => n + size, 0);
    console.log(`dashboard: ${sizes.map(([n, s]) => `${n} ${s}`).join(', ')}; ${total} bytes gzipped (budget ${BUDGET}, ${BUDGET - total} left)`);
    expect(sizes.length).toBeGreaterThanOrEqual(2);
    expect(total).toBeLessThanOrEqual(BUDGET);
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
