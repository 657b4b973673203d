// The first tool call of a session against the tenth: `soong-agent run` with a scripted
// model making 10 `list_dir` calls, each through one no-op PreToolUse command hook, beside the same
// run with `--no-hooks`. A call's time is its `tool_started` → `tool_finished` in the event log (the
// hook, the permission check and the tool); medians over fresh CLI processes. Run after a build.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeNoOpHookHome } from './no-op-home.mjs';

const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const RUNS = Number(process.env.BENCH_FIRST_CALL_RUNS ?? 10);
const CALLS = 10;

const { root, home, project } = makeNoOpHookHome('soong-agent-first-call-');
const script = path.join(root, 'script.json');
const call = { name: 'list_dir', input: { path: '.' } };
fs.writeFileSync(
  script,
  JSON.stringify({
    turns: [
      ...Array.from({ length: CALLS }, (_, i) => ({ text: `step ${i + 1}`, tool_calls: [call] })),
      { text: 'done' },
    ],
  }),
);

/** The calls' durations (ms, from the records' timestamps) of one fresh `run`. */
function callTimes(extraArgs) {
  const result = spawnSync(
    process.execPath,
    [CLI, 'run', 'go', '--model', `scripted:${script}`, '--json', ...extraArgs],
    { cwd: project, env: { ...process.env, SOONG_AGENT_HOME: home }, encoding: 'utf8' },
  );
  if (result.status !== 0) throw new Error(`run exited ${result.status}: ${result.stderr}`);
  const records = result.stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line));
  const started = new Map();
  const times = [];
  for (const record of records) {
    if (record.type === 'tool_started') started.set(record.call_id, Date.parse(record.ts));
    if (record.type === 'tool_finished')
      times.push(Date.parse(record.ts) - started.get(record.call_id));
  }
  if (times.length !== CALLS) throw new Error(`expected ${CALLS} calls, saw ${times.length}`);
  return times;
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 0 ? (sorted[middle - 1] + sorted[middle]) / 2 : sorted[middle];
};

const cases = { 'one no-op PreToolUse hook': [], '--no-hooks': ['--no-hooks'] };
const samples = Object.fromEntries(Object.keys(cases).map((name) => [name, []]));
for (let i = 0; i < RUNS; i += 1)
  for (const [name, args] of Object.entries(cases)) samples[name].push(callTimes(args));

const rows = {};
for (const [name, runs] of Object.entries(samples)) {
  const at = (index) => median(runs.map((times) => times[index]));
  rows[name] = {
    'first call ms': at(0),
    'second call ms': at(1),
    'tenth call ms': at(CALLS - 1),
    'first / tenth': (at(0) / Math.max(at(CALLS - 1), 1)).toFixed(2),
  };
}
console.log(
  `\nFirst tool call against the tenth in \`soong-agent run\` (tool_started → tool_finished, ms resolution), medians over ${RUNS} fresh runs\n`,
);
console.table(rows);
