import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import spectralCore from '@stoplight/spectral-core';
import { Json as JsonParser } from '@stoplight/spectral-parsers';
import { oas } from '@stoplight/spectral-rulesets';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { createTestApp, type TestApp } from '../test-helpers/index.js';

const { Spectral, Document } = spectralCore;

/** Both linters run over the document the server serves, with their stock rule sets, no exceptions. */
describe('OpenAPI document lint', () => {
  let t: TestApp;
  let source: string;
  /** The OCTO supplier API's own document, linted the same way. */
  let octoSource: string;
  beforeAll(async () => {
    // Linted as a deployment serves it: the default PUBLIC_URL (localhost) is right for a dev server,
    // and Redocly's no-server-example.com rightly flags it in a published document.
    t = await createTestApp({ env: { PUBLIC_URL: 'https://tours.outing.test' } });
    const res = await t.request('GET', '/v1/openapi.json', { key: null });
    expect(res.status).toBe(200);
    source = JSON.stringify(res.body, null, 2);
    const octo = await t.request('GET', '/octo/openapi.json', { key: null });
    expect(octo.status).toBe(200);
    octoSource = JSON.stringify(octo.body, null, 2);
  });
  afterAll(() => t.close());

  async function spectralFindings(json: string): Promise<string[]> {
    const spectral = new Spectral();
    spectral.setRuleset(oas as never);
    const results = await spectral.run(new Document(json, JsonParser, 'openapi.json'));
    // Severity 0 = error, 1 = warning; hints and information (2, 3) are not findings.
    return results
      .filter((r) => r.severity <= 1)
      .map((r) => `${r.severity === 0 ? 'error' : 'warning'} ${r.code} at ${r.path.join('.')}: ${r.message}`);
  }

  it('passes Spectral’s spectral:oas ruleset with no error and no warning', async () => {
    expect(await spectralFindings(source)).toEqual([]);
  }, 120_000);

  it('passes Spectral’s spectral:oas ruleset on the OCTO document too', async () => {
    expect(await spectralFindings(octoSource)).toEqual([]);
  }, 120_000);

  it('would notice a flaw (the rule sets are really loaded)', async () => {
    const flawed = JSON.parse(source) as { info: { license?: unknown }; paths: Record<string, Record<string, { description?: string }>> };
    delete flawed.paths['/v1/bookings']!.post!.description;
    delete flawed.info.license;
    const json = JSON.stringify(flawed);
    expect(await spectralFindings(json)).toEqual([expect.stringContaining('operation-description')]);
    const problems = await lintFromString({ source: json, absoluteRef: 'openapi.json', config: await createConfig({ extends: ['recommended'] }) });
    expect(problems.map((p) => p.ruleId)).toContain('info-license');
  }, 120_000);

  async function redoclyFindings(json: string): Promise<string[]> {
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lintFromString({ source: json, absoluteRef: 'openapi.json', config });
    return problems.map((p) => `${p.severity} ${p.ruleId} at ${p.location.map((l) => l.pointer).join(', ')}: ${p.message}`);
  }

  it('passes Redocly’s recommended rules with no error and no warning', async () => {
    expect(await redoclyFindings(source)).toEqual([]);
  }, 120_000);

  it('passes Redocly’s recommended rules on the OCTO document too', async () => {
    expect(await redoclyFindings(octoSource)).toEqual([]);
  }, 120_000);
});
