// Summarises a .cpuprofile (from `node bench/run.js --cpu-prof`): self time by function and by
// file or package, so "where does the time go" has a quick answer without DevTools.
//
//   node bench/tools/cpuprofile-top.js bench/results/prof/CPU.*.cpuprofile [--top 30] [--inclusive]
//
// --inclusive adds total time by function (itself and what it called: "how much does the fan-out
// cost in all"), counted once per sample however often the function is on the stack.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { top: { type: 'string', default: '30' }, inclusive: { type: 'boolean', default: false } },
});
if (positionals.length === 0) {
  process.stderr.write('usage: node bench/tools/cpuprofile-top.js <file.cpuprofile>... [--top n]\n');
  process.exit(2);
}
const top = Number(values.top);

function where(url) {
  if (!url) return '(native/vm)';
  const nm = url.lastIndexOf('node_modules/');
  if (nm !== -1) {
    const rest = url.slice(nm + 'node_modules/'.length).split('/');
    return rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
  }
  if (url.startsWith('node:')) return url;
  const dist = url.indexOf('/dist/server/');
  return dist !== -1 ? `server/${url.slice(dist + '/dist/server/'.length)}` : url.replace(/^file:\/\//, '');
}

for (const file of positionals) {
  const profile = JSON.parse(readFileSync(file, 'utf8'));
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map();
  // timeDeltas[i] is the time before samples[i].
  profile.samples.forEach((id, i) => {
    self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  const byFn = new Map();
  const byFile = new Map();
  for (const [id, us] of self) {
    const { callFrame } = nodes.get(id);
    const fn = `${callFrame.functionName || '(anonymous)'}  ${where(callFrame.url)}:${callFrame.lineNumber + 1}`;
    byFn.set(fn, (byFn.get(fn) ?? 0) + us);
    const place = where(callFrame.url);
    byFile.set(place, (byFile.get(place) ?? 0) + us);
  }
  const show = (title, map) => {
    process.stdout.write(`\n${title}\n`);
    for (const [name, us] of [...map].sort((a, b) => b[1] - a[1]).slice(0, top)) {
      process.stdout.write(
        `${((100 * us) / total).toFixed(1).padStart(5)}%  ${(us / 1000).toFixed(0).padStart(6)} ms  ${name}\n`,
      );
    }
  };
  process.stdout.write(`${file}: ${(total / 1000).toFixed(0)} ms sampled\n`);
  show('self time by file/package', byFile);
  show('self time by function', byFn);
  if (values.inclusive) {
    const parent = new Map();
    for (const n of profile.nodes) for (const child of n.children ?? []) parent.set(child, n.id);
    const key = (n) =>
      `${n.callFrame.functionName || '(anonymous)'}  ${where(n.callFrame.url)}:${n.callFrame.lineNumber + 1}`;
    const inclusive = new Map();
    for (const [id, us] of self) {
      const seen = new Set();
      for (let at = id; at !== undefined; at = parent.get(at)) seen.add(key(nodes.get(at)));
      for (const fn of seen) inclusive.set(fn, (inclusive.get(fn) ?? 0) + us);
    }
    show('total time by function (self + callees)', inclusive);
  }
}
