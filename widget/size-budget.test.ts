// @vitest-environment node
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** The budget for widget.js, styles included, gzipped at level 9 (docs/PERFORMANCE.md reports the figure). */
const BUDGET = 17_408;
/** Every script the widget may load, widget.js and any chunk a later step would fetch, together. */
const ALL_SCRIPTS_BUDGET = 24_576;

let outDir: string;
let bundle: string;

beforeAll(async () => {
  // The real build config, into a folder of our own so `npm run build:widget`'s output is untouched.
  outDir = await mkdtemp(join(tmpdir(), 'outing-widget-'));
  await build({
    configFile: resolve(import.meta.dirname, '../vite.config.ts'),
    root: resolve(import.meta.dirname, '..'),
    logLevel: 'silent',
    build: { outDir, emptyOutDir: true },
  });
  bundle = await readFile(join(outDir, 'widget.js'), 'utf8');
}, 60_000);

afterAll(async () => {
  await rm(outDir, { recursive: true, force: true });
});

describe('widget.js', () => {
  it(`stays within ${BUDGET} bytes gzipped`, () => {
    const gzipped = gzipSync(bundle, { level: 9 }).length;
    console.log(`widget.js: ${bundle.length} bytes, ${gzipped} bytes gzipped (budget ${BUDGET}, ${BUDGET - gzipped} left)`);
    expect(gzipped).toBeLessThanOrEqual(BUDGET);
  });

  it('is one self-contained script, beside its language files and its chunks: no module syntax, no zod', async () => {
    expect(await readdir(outDir)).toEqual(['booking-form.js', 'codes.js', 'confirmation.js', 'de.json', 'es.json', 'fr.json', 'gift-voucher.js', 'it.json', 'nl.json', 'pt.json', 'widget.js']);
    expect(bundle.startsWith('(function(')).toBe(true);
    expect(bundle).not.toMatch(/^\s*(import|export)\b/m);
    expect(bundle).not.toMatch(/\bimport\(/);
    expect(bundle).not.toContain('ZodError');
    // Each chunk is asked for by its name, from the server widget.js came from (widget/chunks.ts).
    expect(bundle).toContain('/widget/${');
    expect(bundle).toContain('`confirmation`');
    expect(bundle).toContain('`booking-form`');
    expect(bundle).toContain('`codes`');
    expect(bundle).toContain('`gift-voucher`');
  });

  it('loads the confirmation chunk as a classic script that adds no global and carries no Preact of its own', async () => {
    const chunk = await readFile(join(outDir, 'confirmation.js'), 'utf8');
    expect(chunk.startsWith('(function(')).toBe(true);
    expect(chunk).not.toMatch(/^\s*(import|export)\b/m);
    expect(chunk).not.toMatch(/\bimport\(|\beval\(|new Function\(/);
    expect(chunk).toContain('calendar.google.com/calendar/render');
    expect(chunk).toContain('BEGIN:VCALENDAR');
    expect(chunk).toContain('Add to calendar');
    expect(chunk).not.toContain('Adicionar ao calendário');
    // Preact's renderer would be several KB; the chunk renders with the h widget.js hands it.
    expect(gzipSync(chunk, { level: 9 }).length).toBeLessThan(2_500);
    expect(chunk).not.toContain('__H');
  });

  it('loads the booking form as a classic script that adds no global, carries no Preact, and only English', async () => {
    const chunk = await readFile(join(outDir, 'booking-form.js'), 'utf8');
    expect(chunk.startsWith('(function(')).toBe(true);
    expect(chunk).not.toMatch(/^\s*(import|export)\b/m);
    expect(chunk).not.toMatch(/\bimport\(|\beval\(|new Function\(/);
    expect(chunk).toContain('Extras and questions');
    // Portuguese comes in pt.json, which a guest who reads it has already.
    expect(chunk).not.toContain('Extras e perguntas');
    expect(chunk).not.toContain('__H');
    expect(chunk).not.toContain('ZodError');
    const gzipped = gzipSync(chunk, { level: 9 }).length;
    console.log(`booking-form.js: ${chunk.length} bytes, ${gzipped} bytes gzipped`);
    expect(gzipped).toBeLessThan(4_000);
    // widget.js carries none of the step's words.
    expect(bundle).not.toContain('Extras and questions');
  });

  it('loads the code box as a classic script that adds no global, carries no Preact, and only English', async () => {
    const chunk = await readFile(join(outDir, 'codes.js'), 'utf8');
    expect(chunk.startsWith('(function(')).toBe(true);
    expect(chunk).not.toMatch(/^\s*(import|export)\b/m);
    expect(chunk).not.toMatch(/\bimport\(|\beval\(|new Function\(/);
    expect(chunk).toContain('Promo code or gift voucher');
    // Portuguese comes in pt.json, which a guest who reads it has already.
    expect(chunk).not.toContain('Código promocional');
    expect(chunk).not.toContain('__H');
    expect(chunk).not.toContain('ZodError');
    const gzipped = gzipSync(chunk, { level: 9 }).length;
    console.log(`codes.js: ${chunk.length} bytes, ${gzipped} bytes gzipped`);
    expect(gzipped).toBeLessThan(2_200);
    // widget.js carries only the button's words.
    expect(bundle).toContain('Have a code?');
    expect(bundle).not.toContain('Promo code or gift voucher');
  });

  it('loads the gift-voucher mode as a classic script that adds no global and carries no Preact; Portuguese stays in pt.json', async () => {
    const chunk = await readFile(join(outDir, 'gift-voucher.js'), 'utf8');
    expect(chunk.startsWith('(function(')).toBe(true);
    expect(chunk).not.toMatch(/^\s*(import|export)\b/m);
    expect(chunk).not.toMatch(/\bimport\(|\beval\(|new Function\(/);
    expect(chunk).toContain('Buy gift voucher');
    expect(chunk).not.toContain('Comprar');
    expect(chunk).not.toContain('__H');
    const gzipped = gzipSync(chunk, { level: 9 }).length;
    console.log(`gift-voucher.js: ${chunk.length} bytes, ${gzipped} bytes gzipped`);
    expect(gzipped).toBeLessThan(1_600);
    // widget.js carries none of the mode's words: a guest who books never loads them.
    expect(bundle).not.toContain('Buy gift voucher');
  });

  it(`loads no more than ${ALL_SCRIPTS_BUDGET} bytes of script in all, gzipped`, async () => {
    const scripts = (await readdir(outDir)).filter((f) => f.endsWith('.js'));
    let total = 0;
    for (const file of scripts) total += gzipSync(await readFile(join(outDir, file)), { level: 9 }).length;
    console.log(`widget scripts (${scripts.join(', ')}): ${total} bytes gzipped (budget ${ALL_SCRIPTS_BUDGET})`);
    expect(total).toBeLessThanOrEqual(ALL_SCRIPTS_BUDGET);
  });

  it('carries English alone: Portuguese is pt.json, the widget’s texts without their whitespace', async () => {
    expect(bundle).toContain('Choose a date');
    expect(bundle).not.toContain('Escolha uma data');
    const file = await readFile(join(outDir, 'pt.json'), 'utf8');
    const source = await readFile(resolve(import.meta.dirname, 'i18n/pt.json'), 'utf8');
    expect(file).toBe(JSON.stringify(JSON.parse(source)));
  });

  it('carries its styles for a constructed stylesheet, and needs no eval', () => {
    expect(bundle).toContain('--outing-accent');
    expect(bundle).toContain('adoptedStyleSheets');
    expect(bundle).not.toMatch(/\beval\(|new Function\(/);
  });
});
