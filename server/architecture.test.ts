import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cruise, type ICruiseResult } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';
import { repoRoot } from './test-helpers/index.js';

/**
 * The layers of ARCHITECTURE.md, checked by dependency-cruiser against the rules in
 * .dependency-cruiser.cjs: an import that crosses a forbidden arrow fails `npm test`.
 */
async function violationsIn(paths: string[]): Promise<string[]> {
  const options = await extractDepcruiseOptions(join(repoRoot, '.dependency-cruiser.cjs'));
  const tsConfig = extractTSConfig(join(repoRoot, 'tsconfig.json'));
  const previous = process.cwd();
  process.chdir(repoRoot);
  try {
    const { output } = await cruise(paths, { ...options, validate: true }, undefined, { tsConfig });
    const result = output as ICruiseResult;
    return result.summary.violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`);
  } finally {
    process.chdir(previous);
  }
}

describe('the house rules', () => {
  it('holds: no forbidden arrow between server, widget, dashboard and shared', async () => {
    expect(await violationsIn(['server', 'widget', 'dashboard', 'shared'])).toEqual([]);
  }, 120_000);

  it('bites: a domain file that imports HTTP, or the widget reaching into the server, is refused', async () => {
    const probes = {
      'server/domain/probe-arch.ts': "import { STATUS_OF } from '../http/errors.js';\nexport const probe = STATUS_OF;\n",
      'widget/probe-arch.ts': "import { VERSION } from '../server/app.js';\nexport const probe = VERSION;\n",
      'shared/probe-arch.ts': "import { iso } from '../server/serializers/instant.js';\nexport const probe = iso;\n",
    };
    for (const [file, text] of Object.entries(probes)) writeFileSync(join(repoRoot, file), text);
    try {
      const found = await violationsIn(Object.keys(probes));
      expect(found).toEqual(
        expect.arrayContaining([
          'domain-is-pure: server/domain/probe-arch.ts → server/http/errors.ts',
          expect.stringMatching(/^widget-is-a-guest: widget\/probe-arch\.ts → server\//),
          expect.stringMatching(/^shared-imports-nothing-of-ours: shared\/probe-arch\.ts → server\//),
        ]),
      );
    } finally {
      for (const file of Object.keys(probes)) rmSync(join(repoRoot, file), { force: true });
    }
  }, 120_000);

  it('renders every refusal in one place: no file outside server/http/ writes an error envelope by hand', () => {
    const handWritten: string[] = [];
    const visit = (dir: string) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) {
          if (entry.name !== 'http' && entry.name !== 'test-helpers') visit(path);
        } else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$|\.d\.ts$/.test(entry.name)) {
          const text = readFileSync(path, 'utf8');
          if (/\berrorBody\(|success: false/.test(text)) handWritten.push(relative(repoRoot, path));
        }
      }
    };
    visit(join(repoRoot, 'server'));
    // Routes throw a Refusal (or notFound()); http/errors.ts maps its code to a status and renders it.
    expect(handWritten).toEqual([]);
  });
});
