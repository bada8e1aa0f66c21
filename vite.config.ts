import { defineConfig } from 'vite';

/**
 * Builds the embeddable widget: widget/main.tsx → dist/widget/widget.js, one minified IIFE with
 * its styles inlined as a string (the widget works under a strict Content-Security-Policy). Not library mode: that would assign the bundle's
 * exports to a global, and the widget must add none but the `window.Outing` it sets itself.
 */
export default defineConfig({
  publicDir: false,
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
});
