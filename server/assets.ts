import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Files shipped beside the server (the built widget, the demo pages), read from the project folder.
 * A packaged build can register its own reader (e.g. from a single-executable's assets).
 */
type AssetReader = (relativePath: string) => Buffer | undefined;

let customReader: AssetReader | undefined;

export function useAssetReader(reader: AssetReader): void {
  customReader = reader;
}

function projectRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return dir;
}

let root: string | undefined;

/** The bytes of a shipped file, or undefined. `relativePath` must stay inside the project. */
export function readAsset(relativePath: string): Buffer | undefined {
  const clean = normalize(relativePath);
  if (clean.startsWith('..') || clean.startsWith(sep)) return undefined;
  if (customReader) return customReader(clean);
  root ??= projectRoot();
  try {
    return readFileSync(join(root, clean));
  } catch {
    return undefined;
  }
}
