import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cruise, type ICruiseResult, type IViolation } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';
import { repoRoot } from './test-helpers/index.js';

/**
 * The layers of ARCHITECTURE.md, checked by dependency-cruiser against the rules in
 * .dependency-cruiser.cjs: an import that crosses a forbidden arrow fails `npm test`. The imports
 * listed in .dependency-cruiser-known-violations.json are let through, as
 * `npx depcruise --ignore-known` does; no other is.
 */
const knownViolations = JSON.parse(readFileSync(join(repoRoot, '.dependency-cruiser-known-violations.json'), 'utf8')) as IViolation[];

async function violationsIn(root: string, paths: string[]): Promise<string[]> {
  return (await cruiseIn(root, paths)).violations;
}

async function cruiseIn(root: string, paths: string[]): Promise<{ violations: string[]; excused: string[] }> {
  const options = await extractDepcruiseOptions(join(repoRoot, '.dependency-cruiser.cjs'));
  const tsConfig = extractTSConfig(join(root, 'tsconfig.json'));
  const previous = process.cwd();
  process.chdir(root);
  try {
    const { output } = await cruise(paths, { ...options, knownViolations, validate: true }, undefined, { tsConfig });
    const result = output as ICruiseResult;
    const named = (v: IViolation) => `${v.rule.name}: ${v.from} → ${v.to}`;
    // A known violation comes back softened to severity 'ignore'.
    return {
      violations: result.summary.violations.filter((v) => v.rule.severity !== 'ignore').map(named).sort(),
      excused: result.summary.violations.filter((v) => v.rule.severity === 'ignore').map(named).sort(),
    };
  } finally {
    process.chdir(previous);
  }
}

/** A small tree in a temporary folder, laid out like the repository, so a killed run leaves nothing in the sources. */
function probeTree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'outing-arch-'));
  writeFileSync(join(root, 'tsconfig.json'), readFileSync(join(repoRoot, 'tsconfig.json')));
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, file)), { recursive: true });
    writeFileSync(join(root, file), text);
  }
  return root;
}

/** What every probe imports: one value and one type. */
const TARGET = 'export const value = 1;\nexport type Shape = { n: number };\n';

describe('the house rules', () => {
  it('holds: no forbidden arrow between server, widget, dashboard and shared', async () => {
    const { violations, excused } = await cruiseIn(repoRoot, ['server', 'widget', 'dashboard', 'shared']);
    expect(violations).toEqual([]);
    // Every listed exception still exists: an import that is mended leaves the list with it.
    expect(excused, 'remove the mended imports from .dependency-cruiser-known-violations.json').toEqual(
      knownViolations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`).sort(),
    );
  }, 120_000);

  it('bites: each forbidden arrow is refused, and the allowed ones beside it are not', async () => {
    const value = (from: string) => `import { value } from '${from}';\nexport const probe = value;\n`;
    const type = (from: string) => `import type { Shape } from '${from}';\nexport const probe: Shape = { n: 1 };\n`;
    const root = probeTree({
      'server/http/errors.ts': TARGET,
      'server/app.ts': TARGET,
      'server/serializers/instant.ts': TARGET,
      'server/serializers/event.ts': TARGET,
      'server/serializers/booking.ts': TARGET,
      'server/services/sessions.ts': TARGET,
      'server/services/reports.ts': TARGET,
      'server/services/unit-of-work.ts': TARGET,
      'server/store/index.ts': TARGET,
      'server/store/bookings.ts': value('./postgres/driver.js'),
      'server/store/sql.ts': TARGET,
      'server/store/postgres/driver.ts': TARGET,
      'server/store/sqlite/driver.ts': value('../postgres/driver.js'),
      'server/store/sqlite/store.ts': type('../sql.js'),
      'server/domain/probe.ts': value('../http/errors.js'),
      'widget/probe.ts': value('../server/app.js'),
      'shared/probe.ts': value('../server/serializers/instant.js'),
      'server/http/probe.ts': type('../services/sessions.js'),
      'server/http/router.ts': value('../services/unit-of-work.js'),
      'server/jobs/probe.ts': value('../store/bookings.js'),
      'server/jobs/typed.ts': type('../store/index.js'),
      'server/services/probe.ts': value('../serializers/booking.js'),
      'server/services/event-log.ts': value('../serializers/event.js') + "export { value as instant } from '../serializers/instant.js';\n",
      'server/serializers/probe.ts': type('../services/reports.js'),
      'server/store/postgres/probe.ts': type('../sqlite/driver.js'),
      'server/store/postgres/contract.ts': type('../index.js'),
      'server/store/postgres/port.ts': type('../sql.js'),
    });
    try {
      expect(await violationsIn(root, ['server', 'widget', 'shared'])).toEqual(
        [
          'domain-is-pure: server/domain/probe.ts → server/http/errors.ts',
          'widget-is-a-guest: widget/probe.ts → server/app.ts',
          'shared-imports-nothing-of-ours: shared/probe.ts → server/serializers/instant.ts',
          'http-calls-no-use-case: server/http/probe.ts → server/services/sessions.ts',
          'jobs-go-through-services: server/jobs/probe.ts → server/store/bookings.ts',
          'services-return-rows: server/services/probe.ts → server/serializers/booking.ts',
          'event-log-stores-the-delivered-event: server/services/event-log.ts → server/serializers/instant.ts',
          'serializers-name-no-use-case: server/serializers/probe.ts → server/services/reports.ts',
          'table-modules-know-no-engine: server/store/bookings.ts → server/store/postgres/driver.ts',
          'sqlite-driver-knows-no-postgres: server/store/sqlite/driver.ts → server/store/postgres/driver.ts',
          'postgres-driver-knows-no-sqlite: server/store/postgres/probe.ts → server/store/sqlite/driver.ts',
        ].sort(),
      );
    } finally {
      rmSync(root, { recursive: true, force: true });
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
