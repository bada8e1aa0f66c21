// Inclusive time of a V8 .cpuprofile by package or function: where a cold start goes.
// Module evaluation shows as the anonymous top-level function of each file; a package's figure is
// the time under its outermost frames (its own dependencies included, other packages' time under
// it too), so the figures overlap and do not add up.
//
//   node --import tsx bench/profile-tree.ts PROFILE.cpuprofile [--match REGEX] [--top 40]
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
const { values, positionals } = parseArgs({ allowPositionals: true, options: { top: { type: 'string', default: '40' }, match: { type: 'string' } } });
const profile = JSON.parse(readFileSync(positionals[0]!, 'utf8')) as { nodes: Node[]; samples: number[]; timeDeltas: number[]; startTime: number; endTime: number };
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const self = new Map<number, number>();
for (let i = 0; i < profile.samples.length; i++) self.set(profile.samples[i]!, (self.get(profile.samples[i]!) ?? 0) + (profile.timeDeltas[i] ?? 0));
const inclusive = new Map<number, number>();
function total(id: number): number {
  const n = byId.get(id)!;
  let t = self.get(id) ?? 0;
  for (const c of n.children ?? []) t += total(c);
  inclusive.set(id, t);
  return t;
}
const root = profile.nodes[0]!;
total(root.id);
const pkgOf = (url: string) => /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1] ?? (url.includes('/dist/') ? url.replace(/.*\/dist\//, 'dist/') : url || '(native)');
const byKey = new Map<string, number>();
function walk(id: number, open: Set<string>): void {
  const n = byId.get(id)!;
  const key = values.match ? `${n.callFrame.functionName || '(anonymous)'} ${pkgOf(n.callFrame.url)}:${n.callFrame.lineNumber + 1}` : pkgOf(n.callFrame.url);
  const counted = (!values.match || new RegExp(values.match).test(key)) && !open.has(key);
  if (counted) byKey.set(key, (byKey.get(key) ?? 0) + inclusive.get(id)!);
  const next = counted ? new Set(open).add(key) : open;
  for (const c of n.children ?? []) walk(c, next);
}
walk(root.id, new Set());
process.stdout.write(`profile ${((profile.endTime - profile.startTime) / 1000).toFixed(0)} ms, sampled ${(inclusive.get(root.id)! / 1000).toFixed(0)} ms\n`);
for (const [k, t] of [...byKey].sort((a, b) => b[1] - a[1]).slice(0, Number(values.top))) process.stdout.write(`${(t / 1000).toFixed(1).padStart(8)} ms  ${k}\n`);
