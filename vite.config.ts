import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { minify } from 'terser';
import { build, defineConfig, type Plugin, type Rolldown, type UserConfig } from 'vite';

/**
 * The widget's languages other than English (widget/i18n/{code}.json), written beside widget.js
 * with their whitespace taken out: the server sends them as `/widget/{code}.json` (server/routes/static.ts).
 */
const languageFiles: Plugin = {
  name: 'outing-widget-languages',
  generateBundle() {
    const dir = resolve(import.meta.dirname, 'widget/i18n');
    for (const file of readdirSync(dir).filter((f) => /^[a-z]{2}\.json$/.test(f))) {
      this.emitFile({ type: 'asset', fileName: file, source: JSON.stringify(JSON.parse(readFileSync(resolve(dir, file), 'utf8'))) });
    }
  },
};

/**
 * The widget's chunk, written beside widget.js as a classic script of its own, which widget.js adds
 * to the page only when a step needs it: forms.js (widget/forms.ts), the less common paths in one
 * file: the confirmation's part (widget/confirm/chunk.ts, once a booking is confirmed), the booking
 * form's step (an experience that asks questions or sells extras), the code box (once "Have a code?"
 * is pressed), the gift-voucher mode (`data-mode="gift-voucher"`) and the waitlist (once a full time
 * is chosen). A build of its own: widget.js is one IIFE, which cannot be split.
 */
/**
 * A second pass over the widget's minified scripts with terser's compressor: it finds what one pass
 * of Vite's own minifier leaves, about 170 bytes gzip over widget.js and forms.js, which the exact
 * budget of the widget needs (either minifier alone does worse). Three passes and its safe defaults,
 * plus `unsafe_arrows`: function expressions that use no `this` become arrows, which is safe here
 * because none of them is ever called with `new` (Preact tells class components from function
 * components by `prototype.render`, and calls function components plainly). The e2e suite runs the
 * result in Chromium.
 */
async function squeeze(code: string): Promise<string> {
  const out = await minify(code, { ecma: 2020, compress: { passes: 3, unsafe_arrows: true }, mangle: true, format: { comments: false } });
  if (out.code === undefined) throw new Error('terser gave no code');
  return out.code;
}

const squeezeWidget: Plugin = {
  name: 'outing-widget-squeeze',
  apply: 'build',
  async generateBundle(_options, bundle) {
    for (const file of Object.values(bundle)) if (file.type === 'chunk') file.code = await squeeze(file.code);
  },
};

const WIDGET_CHUNKS: Record<string, string> = {
  'forms.js': 'widget/forms.ts',
};

const widgetChunks: Plugin = {
  name: 'outing-widget-chunks',
  async generateBundle() {
    for (const [fileName, entry] of Object.entries(WIDGET_CHUNKS)) {
      const built = (await build({
        configFile: false,
        root: import.meta.dirname,
        publicDir: false,
        logLevel: 'silent',
        mode: 'production',
        oxc: { jsx: { runtime: 'automatic', importSource: 'preact', development: false } },
        build: {
          write: false,
          target: 'es2022',
          minify: true,
          modulePreload: false,
          reportCompressedSize: false,
          rolldownOptions: {
            input: resolve(import.meta.dirname, entry),
            output: { format: 'iife', entryFileNames: fileName, codeSplitting: false },
          },
        },
      })) as Rolldown.RolldownOutput;
      this.emitFile({ type: 'asset', fileName, source: await squeeze(built.output[0].code) });
    }
  },
};

/**
 * Builds the embeddable widget: widget/main.tsx → dist/widget/widget.js, one minified IIFE with
 * its styles inlined as a string (the widget works under a strict Content-Security-Policy), and its
 * language files beside it (dist/widget/pt.json…). Not library mode: that would assign the bundle's
 * exports to a global, and the widget must add none but the `window.Outing` it sets itself.
 */
const widget: UserConfig = {
  publicDir: false,
  plugins: [languageFiles, widgetChunks, squeezeWidget],
  // Production JSX whatever NODE_ENV says: under vitest (NODE_ENV=test) oxc would otherwise emit
  // jsxDEV calls with file names and line numbers, 5 KB more.
  mode: 'production',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact', development: false } },
  build: {
    outDir: 'dist/widget',
    emptyOutDir: true,
    // Safari 16.4, the last engine to ship constructable stylesheets, runs ES2022; so do its peers.
    target: 'es2022',
    minify: true,
    cssMinify: 'lightningcss',
    modulePreload: false,
    reportCompressedSize: false,
    rolldownOptions: {
      input: 'widget/main.tsx',
      output: {
        format: 'iife',
        entryFileNames: 'widget.js',
        // One file, whatever imports appear later.
        codeSplitting: false,
      },
    },
  },
};

/**
 * The operator dashboard (`vite build --mode dashboard`): dashboard/index.html → dist/dashboard/, an
 * ES module and a stylesheet with hashed names under assets/, served by server/routes/dashboard-app.ts
 * under a CSP without 'unsafe-inline', so nothing may be inlined into the page.
 */
const dashboard: UserConfig = {
  root: resolve(import.meta.dirname, 'dashboard'),
  base: '/dashboard/',
  publicDir: false,
  mode: 'production',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact', development: false } },
  build: {
    outDir: resolve(import.meta.dirname, 'dist/dashboard'),
    emptyOutDir: true,
    target: 'es2022',
    minify: true,
    cssMinify: 'lightningcss',
    // The polyfill would be one more script; every browser the target allows has modulepreload.
    modulePreload: { polyfill: false },
    // Small files as data: URLs would be fine for images, but never for scripts or styles.
    assetsInlineLimit: 0,
    reportCompressedSize: false,
  },
};

/**
 * The guests' manage page (`vite build --mode manage`): widget/manage/main.tsx → dist/manage/manage.js,
 * one minified IIFE with its styles inlined as strings and adopted as constructed sheets (the page
 * runs under the dashboard's CSP), served by server/routes/manage-page.ts. It reuses the widget's
 * components but is a bundle of its own: nothing of it counts against widget.js's budget.
 */
const manage: UserConfig = {
  ...widget,
  // The manage page bundles its languages: no language files beside it.
  plugins: [],
  build: {
    ...widget.build,
    outDir: 'dist/manage',
    rolldownOptions: {
      input: 'widget/manage/main.tsx',
      output: { format: 'iife', entryFileNames: 'manage.js', codeSplitting: false },
    },
  },
};

export default defineConfig(({ mode }) => (mode === 'dashboard' ? dashboard : mode === 'manage' ? manage : widget));
