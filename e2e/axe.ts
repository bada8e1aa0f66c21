/** axe-core's WCAG 2.2 A/AA rules, run in the page: shared by the browser tests. */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { AxeResults } from 'axe-core';
import type { Page } from 'playwright-core';

const WCAG_22_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa'];

let axeSource: Promise<string> | undefined;

/**
 * The violations on `selector` (the widget's host: axe enters open shadow roots), one line each.
 * axe is injected through DevTools, which the page's CSP does not govern (open the page with a
 * bypassCSP context).
 */
export async function violations(page: Page, selector = '[data-outing]'): Promise<string[]> {
  axeSource ??= readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ content: await axeSource });
  const results = await page.evaluate(
    ([target, tags]) => {
      const axe = (window as unknown as { axe: { run(context: Element, options: object): Promise<AxeResults> } }).axe;
      return axe.run(document.querySelector(target!)!, { runOnly: { type: 'tag', values: tags } });
    },
    [selector, WCAG_22_AA] as const,
  );
  // A run that checked nothing (a wrong selector, an empty shadow root) must not pass as clean.
  if (results.passes.length < 10) throw new Error(`axe checked almost nothing on ${selector}`);
  return results.violations.flatMap((v) => v.nodes.map((n) => `${v.id} (${v.impact}): ${n.target.join(' ')} — ${n.failureSummary}`));
}
