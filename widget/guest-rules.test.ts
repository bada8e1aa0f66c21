// @vitest-environment node
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The widget is a guest on someone else's page (README.md, "Embed the widget"). These rules are
 * about its source, so they are checked there; the bundle is checked by size-budget.test.ts.
 */
const root = import.meta.dirname;

async function sources(dir = root): Promise<string[]> {
  const files: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'test-helpers') files.push(...(await sources(path)));
    } else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$|\.d\.ts$/.test(entry.name)) {
      files.push(path);
    }
  }
  return files;
}

const forbidden: [RegExp, string][] = [
  [/innerHTML|dangerouslySetInnerHTML|insertAdjacentHTML|document\.write/, 'writes HTML from strings'],
  [/\beval\(|new Function\(/, 'evaluates code'],
  [/\bstyle=|\.style\.|setAttribute\(['"]style|createElement\(['"]style/, 'inline styles, refused by a strict CSP'],
  [/document\.cookie|credentials:\s*['"](include|same-origin)/, 'cookies'],
  [/from ['"]zod['"]/, 'zod, too big for the bundle'],
  // shared/lines.ts is the exception: the one function that makes a booking's money lines, no zod in it.
  [/^import (?!type)[^;]*from ['"][./]*shared\/(?!lines\.js['"])/m, 'shared values (only types, and the money lines, may come from shared/)'],
];

describe('widget source', () => {
  it('keeps to the rules of a guest script', async () => {
    const problems: string[] = [];
    for (const file of await sources()) {
      const text = await readFile(file, 'utf8');
      for (const [pattern, why] of forbidden) {
        if (pattern.test(text)) problems.push(`${relative(root, file)}: ${why}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('has side effects only in its entries: main.tsx and the chunks', async () => {
    // Top-level statements other than declarations (a class's too): calls, assignments, listeners.
    const topLevelEffect = /^(?!\s)(?!import|export|const|let|function|async function|class|interface|type|declare|\/\/|\/\*|\*|\}|\)|$)/m;
    const offenders: string[] = [];
    for (const file of await sources()) {
      if (file.endsWith('main.tsx') || file.endsWith(join('confirm', 'chunk.ts')) || file === join(root, 'forms.ts')) continue;
      if (topLevelEffect.test(await readFile(file, 'utf8'))) offenders.push(relative(root, file));
    }
    expect(offenders).toEqual([]);
  });
});
