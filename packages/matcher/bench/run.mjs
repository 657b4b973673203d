// Benchmark of RuleIndex.match: ns per call for rule sets of 10 to 10,000 rules.
// Run with `pnpm bench` after a build. Numbers are measured side by side in one run; no assertions.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { builtInMatchers, compileRules, createMatcherRegistry } from '../dist/index.js';

const SIZES = [10, 100, 1_000, 10_000];
const TARGET_MS = 150;

const projectDir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'soong-matcher-bench-')));
for (let i = 0; i < 20; i++)
  fs.mkdirSync(path.join(projectDir, `pkg${i}`, 'src'), { recursive: true });
const context = {
  projectDir,
  homeDir: os.homedir(),
  registry: createMatcherRegistry(builtInMatchers),
};
// The same tool type under a copy of its definition: compileRules cannot index it by tool name,
// so every rule is evaluated. Shows what the tool-name index saves.
const toolMatcher = builtInMatchers.find((definition) => definition.type === 'tool');
const unindexedRegistry = createMatcherRegistry([
  { ...toolMatcher },
  ...builtInMatchers.filter((definition) => definition !== toolMatcher),
]);

let sink = 0;
function nsPerCall(run) {
  let iterations = 1;
  for (;;) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < iterations; i++) sink += run(i).length;
    const elapsedNs = Number(process.hrtime.bigint() - start);
    if (elapsedNs >= TARGET_MS * 1e6) return elapsedNs / iterations;
    iterations = Math.max(
      iterations * 2,
      Math.ceil((iterations * TARGET_MS * 1e6) / Math.max(elapsedNs, 1)),
    );
  }
}

const toolRules = (n) =>
  Array.from({ length: n }, (_, i) => ({
    event: 'PreToolUse',
    matcher: { tool: [`tool_${i}`, `other_${i % 7}`] },
  }));
const pathRules = (n) =>
  Array.from({ length: n }, (_, i) => ({
    event: 'PreToolUse',
    matcher: { path_prefix: `pkg${i % 20}/src/area${i}` },
  }));

// hooks.json's usual shape: a tool and a folder. Half the rules name the subject's tool, so they are
// all candidates; their path criterion is answered by the prefix index, once per match.
const toolAndPathRules = (n) =>
  Array.from({ length: n }, (_, i) => ({
    event: 'PreToolUse',
    matcher: { tool: i % 2 ? 'bash' : 'edit_file', path_prefix: `pkg${i % 20}/src/area${i}` },
  }));

function usPerCompile(rules) {
  const start = process.hrtime.bigint();
  let runs = 0;
  do {
    sink += compileRules(rules, context).size;
    runs++;
  } while (Number(process.hrtime.bigint() - start) < TARGET_MS * 1e6);
  return Number(process.hrtime.bigint() - start) / runs;
}

const rows = [];
for (const n of SIZES) {
  const tools = compileRules(toolRules(n), context);
  const toolsUnindexed = compileRules(toolRules(n), { ...context, registry: unindexedRegistry });
  const paths = compileRules(pathRules(n), context);
  const mixed = compileRules(toolAndPathRules(n), context);
  const noRules = { event: 'Stop' };
  const otherTool = { event: 'PreToolUse', tool: 'bash', tags: ['dangerous'] };
  const threePaths = [
    'pkg3/src/area3/a.ts',
    'pkg4/src/lib/b.ts',
    path.join(projectDir, 'README.md'),
  ];
  const reused = { event: 'PreToolUse', tool: 'edit_file', paths: threePaths };
  rows.push({
    rules: n,
    a: nsPerCall(() => tools.match(noRules)),
    b: nsPerCall(() => tools.match(otherTool)),
    bUnindexed: nsPerCall(() => toolsUnindexed.match(otherTool)),
    // A fresh subject per call, as per tool call: its paths are resolved (realpath) once per call.
    c: nsPerCall(() => paths.match({ event: 'PreToolUse', tool: 'edit_file', paths: threePaths })),
    cCached: nsPerCall(() => paths.match(reused)),
    d: nsPerCall(() => mixed.match({ event: 'PreToolUse', tool: 'edit_file', paths: threePaths })),
    compilePerRule: usPerCompile(toolAndPathRules(n)) / n,
  });
}
// The syscalls that dominate (c) with a fresh subject, measured in the same run for scale.
const realpathNs = nsPerCall(() => [fs.realpathSync.native(path.join(projectDir, 'pkg3/src'))]);
const lstatMissingNs = nsPerCall(() => [
  fs.lstatSync(path.join(projectDir, 'pkg3/src/area3'), { throwIfNoEntry: false }),
]);
const failedRealpathNs = nsPerCall(() => {
  try {
    return [fs.realpathSync.native(path.join(projectDir, 'pkg3/src/area3'))];
  } catch {
    return [];
  }
});
fs.rmSync(projectDir, { recursive: true, force: true });

const format = (ns) =>
  ns >= 1e6
    ? `${(ns / 1e6).toFixed(2)} ms`
    : ns >= 1e3
      ? `${(ns / 1e3).toFixed(2)} µs`
      : `${ns.toFixed(0)} ns`;
console.log(`node ${process.version}, ${os.cpus().length} cpu(s); ns per match() call\n`);
console.log(
  [
    'rules'.padStart(7),
    '(a) no rules'.padStart(14),
    '(b) tool miss'.padStart(14),
    '(b) no index'.padStart(14),
    'index gain'.padStart(11),
    '(c) 3 paths'.padStart(14),
    '(c) cached'.padStart(14),
    '(d) tool+path'.padStart(14),
    'compile/rule'.padStart(13),
  ].join(' | '),
);
for (const row of rows) {
  console.log(
    [
      String(row.rules).padStart(7),
      format(row.a).padStart(14),
      format(row.b).padStart(14),
      format(row.bUnindexed).padStart(14),
      `${(row.bUnindexed / row.b).toFixed(0)}x`.padStart(11),
      format(row.c).padStart(14),
      format(row.cCached).padStart(14),
      format(row.d).padStart(14),
      format(row.compilePerRule).padStart(13),
    ].join(' | '),
  );
}
const at1000 = rows.find((row) => row.rules === 1_000);
console.log(
  `\nat 1,000 rules: (a) ${format(at1000.a)} ${at1000.a <= 1000 ? '≤' : '>'} 1 µs; (b) ${format(at1000.b)} ${at1000.b <= 1000 ? '≤' : '>'} 1 µs`,
);
console.log(
  `(c) resolves 3 paths per fresh subject: an existing path costs an lstat and a realpath; a missing one` +
    ` an lstat per missing segment (it does not throw) and a realpath of the deepest existing folder,` +
    ` shared by the subject's paths. Here a realpath takes ${format(realpathNs)}, an lstat of a missing` +
    ` path ${format(lstatMissingNs)}, a failed realpath (an exception) ${format(failedRealpathNs)}.`,
);
console.log(
  '(d) tool + path_prefix rules, half of them for the subject tool, fresh subject; compile/rule: compileRules of those rules ÷ n.',
);
console.log(
  '(c) cached: the same subject object matched again; its path forms come from the per-subject cache.',
);
if (sink === -1) console.log(sink);
