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
/** How a script that is one immediately invoked function starts once minified. */
const IIFE = /^(!function\(|\(function\(|\(\(\)=>\{)/;

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
    expect(await readdir(outDir)).toEqual(['de.json', 'es.json', 'forms.js', 'fr.json', 'it.json', 'nl.json', 'pt.json', 'widget.js']);
    // One IIFE, as terser writes it (widget.js and forms.js are classic scripts).
    expect(bundle).toMatch(IIFE);
    expect(bundle).not.toMatch(/^\s*(import|export)\b/m);
    expect(bundle).not.toMatch(/\bimport\(/);
    expect(bundle).not.toContain('ZodError');
    // Each chunk is asked for by its name, from the server widget.js came from (widget/chunks.ts).
    expect(bundle).toContain('/widget/${');
    expect(bundle).toMatch(/[`"]forms[`"]/);
  });

  it('carries the confirmation’s part (Add to calendar, the .ics) in forms.js, without Preact, in English only', async () => {
    const chunk = await readFile(join(outDir, 'forms.js'), 'utf8');
    expect(chunk).toContain('calendar.google.com/calendar/render');
    expect(chunk).toContain('BEGIN:VCALENDAR');
    expect(chunk).toContain('Add to calendar');
    expect(chunk).not.toContain('Adicionar ao calendário');
    expect(bundle).not.toContain('BEGIN:VCALENDAR');
  });

  // The booking form, the code box, the gift-voucher mode and the waitlist: one chunk, forms.js.
  let forms: string;
  beforeAll(async () => {
    forms = await readFile(join(outDir, 'forms.js'), 'utf8');
  });

  it('loads the booking form, code box, gift-voucher mode and waitlist as one classic script that adds no global and carries no Preact', () => {
    expect(forms).toMatch(IIFE);
    expect(forms).not.toMatch(/^\s*(import|export)\b/m);
    expect(forms).not.toMatch(/\bimport\(|\beval\(|new Function\(/);
    expect(forms).not.toContain('__H');
    expect(forms).not.toContain('ZodError');
    const gzipped = gzipSync(forms, { level: 9 }).length;
    console.log(`forms.js: ${forms.length} bytes, ${gzipped} bytes gzipped`);
    // Less than its five parts' caps as files of their own (4,000 + 2,200 + 1,600 + 1,500 + 2,500).
    expect(gzipped).toBeLessThan(7_700);
  });

  it('carries the booking form’s step in English only; widget.js none of its words', () => {
    expect(forms).toContain('Extras and questions');
    // Portuguese comes in pt.json, which a guest who reads it has already.
    expect(forms).not.toContain('Extras e perguntas');
    expect(bundle).not.toContain('Extras and questions');
  });

  it('carries the code box in English only; widget.js only the button’s words', () => {
    expect(forms).toContain('Promo code or gift voucher');
    expect(forms).not.toContain('Código promocional');
    expect(bundle).toContain('Have a code?');
    expect(bundle).not.toContain('Promo code or gift voucher');
  });

  it('carries the gift-voucher mode in English only; widget.js none of its words', () => {
    expect(forms).toContain('Buy gift voucher');
    expect(forms).not.toContain('Comprar');
    expect(bundle).not.toContain('Buy gift voucher');
  });

  it('carries the waitlist’s step in English only; widget.js only the time’s label', () => {
    expect(forms).toContain('on the waitlist');
    expect(forms).not.toContain('lista de espera');
    expect(bundle).toContain('Full – join the waitlist');
    expect(bundle).not.toContain('You are number');
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
