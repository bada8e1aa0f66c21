/**
 * Bundles a server entry with Vite (rolldown) into CommonJS: for the single executable
 * (scripts/build-binary.ts: everything in one file) and for the bundled server that
 * `bin/outing.js` runs (scripts/build-server.ts: chunks, better-sqlite3's addon left outside).
 * Packages are bundled from their ES builds (the `import` condition), as the module tree loads
 * them: a CommonJS build's default export can differ.
 */
import { join, resolve } from 'node:path';
import { build } from 'vite';

export interface BundleOptions {
  /** The project folder. */
  root: string;
  /** The entry, relative to root. */
  entry: string;
  outDir: string;
  /** The entry's output file name. */
  fileName: string;
  /** Packages left out, required from node_modules at run time; every other one is bundled. */
  external: string[];
  /** One file, or the entry plus a chunk per part loaded by a dynamic `import()` (names `outing-NAME.cjs`). */
  split: boolean;
}

/** Answers the entry's output file. */
export async function bundleServer(options: BundleOptions): Promise<string> {
  const { root, entry, outDir, fileName, external, split } = options;
  await build({
    configFile: false,
    root,
    logLevel: 'warn',
    publicDir: false,
    // Otherwise oxc may emit development helpers; the server never uses JSX anyway.
    mode: 'production',
    ssr: { noExternal: true, target: 'node' },
    resolve: { conditions: ['node', 'import', 'module', 'default'] },
    build: {
      ssr: resolve(root, entry),
      outDir,
      emptyOutDir: false,
      target: 'node20',
      // Whitespace removed, for a fast start, but names kept: the stack traces a 500 logs stay readable.
      minify: false,
      sourcemap: false,
      reportCompressedSize: false,
      copyPublicDir: false,
      rolldownOptions: {
        external,
        output: {
          format: 'cjs',
          entryFileNames: fileName,
          chunkFileNames: 'outing-[name].cjs',
          // A SEA cannot load a second file.
          codeSplitting: split,
          minify: { compress: true, mangle: false, codegen: { removeWhitespace: true } },
        },
      },
    },
  });
  return join(outDir, fileName);
}
