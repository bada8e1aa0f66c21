// Summarises a V8 .cpuprofile (node --cpu-prof): self time by file (node_modules packages grouped)
// and the top functions by self time.
//
//   node --import tsx bench/profile-summary.ts PROFILE.cpuprofile [--top 30]
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
}

const { values, positionals } = parseArgs({ allowPositionals: true, options: { top: { type: 'string', default: '30' } } });
const profile = JSON.parse(readFileSync(positionals[0]!, 'utf8')) as Profile;
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const self = new Map<number, number>();
for (let i = 0; i < profile.samples.length; i++) self.set(profile.samples[i]!, (self.get(profile.samples[i]!) ?? 0) + (profile.timeDeltas[i] ?? 0));
const total = [...self.values()].reduce((a, b) => a + b, 0);

function fileOf(url: string): string {
  if (!url) return '(native/V8)';
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (m) return `pkg:${m[1]}`;
  if (url.startsWith('node:')) return url;
  return url.replace(/^file:\/\/.*?\/(dist\/|server\/|shared\/)/, '$1');
}
const files = new Map<string, number>();
const fns = new Map<string, number>();
for (const [id, t] of self) {
  const n = byId.get(id)!;
  const f = fileOf(n.callFrame.url);
  files.set(f, (files.get(f) ?? 0) + t);
  const name = `${n.callFrame.functionName || '(anonymous)'}  ${f}:${n.callFrame.lineNumber + 1}`;
  fns.set(name, (fns.get(name) ?? 0) + t);
}
const pct = (t: number) => `${((100 * t) / total).toFixed(1).padStart(5)}%`;
const top = Number(values.top);
process.stdout.write(`total ${(total / 1000).toFixed(0)} ms sampled\n\nby file:\n`);
for (const [f, t] of [...files].sort((a, b) => b[1] - a[1]).slice(0, top)) process.stdout.write(`${pct(t)}  ${f}\n`);
process.stdout.write('\nby function (self):\n');
for (const [f, t] of [...fns].sort((a, b) => b[1] - a[1]).slice(0, top)) process.stdout.write(`${pct(t)}  ${f}\n`);
