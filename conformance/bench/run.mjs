#!/usr/bin/env node
// What one trivial PreToolUse command hook adds per tool call, in the real Claude Code, Gemini CLI,
// Codex and Copilot CLI (as the conformance suite caches them) and in ours (`soong-agent run`),
// side by side in one run. Each agent gets the conformance suite's fake model on 127.0.0.1, asking
// for CALLS calls of its shell tool running `true`, once without a hook and once with the same hook
// command in its own hooks format; the pairs are interleaved (A/B, then B/A) over ROUNDS rounds.
// Prints medians and ratios; asserts nothing about time. See bench/README.md.
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { AGENTS } from '../src/agents.mjs';
import { cacheDir, cachedBin } from '../src/install.mjs';
import { startModelServer } from '../src/model-server.mjs';
import { runBounded, SOONG_CLI } from '../src/run-case.mjs';

const CALLS = positive('BENCH_AGENT_CALLS', 20);
const ROUNDS = positive('BENCH_AGENT_ROUNDS', 5);
/** Which sides run: `claude,gemini,codex,copilot,ours` (default all; `none` skips the bench). */
const ONLY = process.env.BENCH_AGENTS?.split(',').map((name) => name.trim());
/** The bound of one agent run (20 calls take 1–10 s here); the runner kills its process group. */
const RUN_TIMEOUT_MS = 120_000;
const PROMPT = 'Run the bench command each time it is asked for, then stop.';
/**
 * The tool call every agent makes: its own shell tool running a command that does nothing, a
 * different argument each time (Gemini CLI stops a run that repeats one call: "Loop detected").
 * `BENCH_TOOL=program` runs `/bin/true N`, a program in every agent: ours runs the builtin `true`
 * without starting a process, so there the hook's process is the only one of a call, and pays
 * alone what the first spawn after a model turn costs (the other agents' tools pay it either way).
 */
const TOOL_FORM = process.env.BENCH_TOOL === 'program' ? 'program' : 'builtin';
const toolCommand = (index) => `${TOOL_FORM === 'program' ? '/bin/true' : 'true'} ${index + 1}`;

function positive(name, fallback) {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(value) || value < 1) {
    console.error(`${name}: expected a positive integer, got "${process.env[name]}"`);
    process.exit(2);
  }
  return value;
}

/**
 * The hook every agent runs: reads its stdin, counts the call in `log` (so a run whose hook did
 * not fire is an error, not a fast sample) and prints nothing: every agent reads exit 0 with no
 * output as "go on" (a `{}` would be a protocol error in ours, which wants a decision).
 */
const hookCommand = (log) => `cat >/dev/null; echo . >>${log}`;

/**
 * How the hook is written (`BENCH_HOOK`): `inline`, the command line above; `script`, the same two
 * commands in an executable `#!/bin/sh` file that the hook command names by its absolute path (the
 * form of most real hooks: `~/.claude/hooks/guard.sh`, `/path/to/check.py`).
 */
const HOOK_FORM = process.env.BENCH_HOOK ?? 'inline';
if (HOOK_FORM !== 'inline' && HOOK_FORM !== 'script') {
  console.error(`BENCH_HOOK: expected inline or script, got "${HOOK_FORM}"`);
  process.exit(2);
}

function writeHook(dir, log) {
  if (HOOK_FORM === 'inline') return hookCommand(log);
  const file = join(dir, 'hook.sh');
  writeFileSync(file, `#!/bin/sh\n${hookCommand(log)}\n`, { mode: 0o755 });
  return file;
}

/**
 * One side of the bench.
 * @typedef {object} Side
 * @property {string} name
 * @property {string} title
 * @property {(tools: string[], index: number) => import('../src/model-server.mjs').ScriptedCall} call
 *   the model's call number `index` (from 0)
 * @property {(context: { home: string, project: string, url: string, hook: string | undefined }) =>
 *   { argv: string[], env: Record<string, string> }} prepare writes its config (the hook, when
 *   given, in its own format) and says how to run it
 */

/** A real agent from the conformance suite, its hook written by the suite's own adapter. */
function realSide(agent, bin) {
  return {
    name: agent.name,
    title: `${agent.title} ${agent.version}`,
    call: (tools, index) => agent.shellCall(tools, toolCommand(index)),
    prepare({ home, project, url, hook }) {
      agent.writeHooks(
        home,
        hook === undefined ? [] : [{ event: 'PreToolUse', matcher: 'shell', command: hook }],
      );
      return agent.command({ bin, home, project, url, prompt: PROMPT });
    },
  };
}

/**
 * A build of ours to measure beside this one (`BENCH_BASELINE_CLI=/path/to/dist/cli.js`, e.g. the
 * main branch's build kept inside the app's folder so its packages resolve): before/after in one
 * run, interleaved like the rest.
 */
const BASELINE_CLI = process.env.BENCH_BASELINE_CLI;

/**
 * Ours: `soong-agent run` (the CLI at `cli`) with the anthropic provider, the hook in the home's
 * hooks.json.
 * @returns {Side}
 */
const soongSide = (name, title, cli) => ({
  name,
  title,
  call: (_tools, index) => ({ name: 'bash', input: { command: toolCommand(index) } }),
  prepare({ home, project, url, hook }) {
    const soongHome = join(home, '.soong-agent');
    mkdirSync(soongHome, { mode: 0o700 });
    if (hook !== undefined) {
      const rule = { matcher: 'bash', hooks: [{ type: 'command', command: hook }] };
      writeFileSync(
        join(soongHome, 'hooks.json'),
        JSON.stringify({ version: 1, hooks: { PreToolUse: [rule] } }),
        { mode: 0o600 },
      );
    }
    return {
      argv: [
        process.execPath,
        cli,
        'run',
        PROMPT,
        '--model',
        'anthropic:bench-model',
        '--base-url',
        url,
        '--yes',
        '--max-turns',
        String(CALLS + 5),
        '--home',
        soongHome,
        '--project',
        project,
      ],
      env: { HOME: home, ANTHROPIC_API_KEY: 'sk-ant-bench' },
    };
  },
});
const oursSide = soongSide('ours', 'soong-agent run', SOONG_CLI);

/**
 * The sides that can run here: each real agent whose pinned CLI is cached, and ours once built;
 * prints a line for each one skipped.
 * @returns {Side[]}
 */
function availableSides() {
  const wanted = (name) => ONLY === undefined || ONLY.includes(name);
  /** @type {Side[]} */
  const sides = [];
  for (const agent of AGENTS) {
    if (!wanted(agent.name)) continue;
    const bin = cachedBin(agent);
    if (bin === undefined)
      console.log(
        `skipped ${agent.title}: ${agent.packageName}@${agent.version} is not in ${cacheDir()} (\`pnpm conformance --agent ${agent.name}\` installs it)`,
      );
    else sides.push(realSide(agent, bin));
  }
  if (wanted('ours')) {
    if (existsSync(SOONG_CLI)) sides.push(oursSide);
    else console.log(`skipped soong-agent: ${SOONG_CLI} is not built (\`pnpm build\`)`);
  }
  if (BASELINE_CLI !== undefined) {
    if (existsSync(BASELINE_CLI))
      sides.push(soongSide('baseline', 'soong-agent run (baseline)', BASELINE_CLI));
    else console.log(`skipped the baseline: ${BASELINE_CLI} does not exist (BENCH_BASELINE_CLI)`);
  }
  return sides;
}

/**
 * One run of one side: a fresh HOME and project, its own model server. Returns the wall time and
 * the loop time (first model request answered with a call to the request after the last result),
 * or the reason the run does not count.
 */
async function runOnce(side, withHook, workRoot) {
  const dir = mkdtempSync(join(workRoot, `${side.name}-`));
  const home = join(dir, 'home');
  const project = join(dir, 'project');
  mkdirSync(home);
  mkdirSync(project);
  const log = join(dir, 'hook-calls.log');
  const server = await startModelServer({ call: side.call, calls: CALLS });
  try {
    const { argv, env } = side.prepare({
      home,
      project,
      url: server.url,
      hook: withHook ? writeHook(dir, log) : undefined,
    });
    const output = join(dir, 'output.txt');
    const result = await runBounded(argv, env, project, output, { timeoutMs: RUN_TIMEOUT_MS });
    const answered = server.requests.filter((request) => request.answer !== undefined);
    const calls = answered.filter((request) => request.answer === 'call');
    const final = answered.findLast((request) => request.answer === 'text');
    const hookCalls = existsSync(log) ? readFileSync(log, 'utf8').split('\n').length - 1 : 0;
    const wrong = [
      result.timedOut ? `timed out after ${RUN_TIMEOUT_MS} ms` : undefined,
      result.exitCode === 0 ? undefined : `exit ${result.exitCode}`,
      calls.length === CALLS ? undefined : `${calls.length} of ${CALLS} tool calls asked`,
      final !== undefined && final.atMs > calls[calls.length - 1]?.atMs
        ? undefined
        : 'no final model request after the last call',
      hookCalls === (withHook ? CALLS : 0) ? undefined : `the hook ran ${hookCalls} times`,
    ].filter((text) => text !== undefined);
    if (wrong.length > 0) return { error: `${wrong.join(', ')} (output kept in ${output})` };
    rmSync(dir, { recursive: true, force: true });
    return { wallMs: result.durationMs, loopMs: final.atMs - calls[0].atMs };
  } finally {
    await server.close();
  }
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 0 ? (sorted[middle - 1] + sorted[middle]) / 2 : sorted[middle];
};

/** Pads a table's columns (the first left-aligned, the others right-aligned). */
function table(rows) {
  const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => row[column].length)));
  return rows
    .map((row) =>
      row
        .map((cell, column) =>
          column === 0 ? cell.padEnd(widths[column]) : cell.padStart(widths[column]),
        )
        .join('  '),
    )
    .join('\n');
}

/** Runs every side's pairs, interleaved, and returns the samples per side. */
async function measure(sides, workRoot) {
  /** @type {Map<Side, { none: any[], hook: any[], added: number[], error?: string }>} */
  const samples = new Map(sides.map((side) => [side, { none: [], hook: [], added: [] }]));
  // A warm-up run each (file cache, JIT caches), not counted; a side that fails it is dropped.
  for (const side of sides) {
    const warm = await runOnce(side, true, workRoot);
    if (warm.error !== undefined) samples.get(side).error = `warm-up: ${warm.error}`;
  }
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const side of sides) {
      const entry = samples.get(side);
      if (entry.error !== undefined) continue;
      // A/B then B/A: a drift in the machine's load hits both variants alike.
      const order = round % 2 === 0 ? [false, true] : [true, false];
      const pair = {};
      for (const withHook of order) {
        const sample = await runOnce(side, withHook, workRoot);
        if (sample.error !== undefined) {
          entry.error = `round ${round + 1}, ${withHook ? 'with' : 'without'} the hook: ${sample.error}`;
          break;
        }
        pair[withHook ? 'hook' : 'none'] = sample;
      }
      if (entry.error !== undefined) continue;
      entry.none.push(pair.none);
      entry.hook.push(pair.hook);
      entry.added.push((pair.hook.loopMs - pair.none.loopMs) / CALLS);
    }
    process.stderr.write(`agents bench: round ${round + 1}/${ROUNDS} done\n`);
  }
  return samples;
}

/**
 * Whether a row's added time is lost in the noise: not above zero, or its paired differences
 * spread (median absolute deviation) wider than their median. Its ratio is then not printed.
 */
function noisy(added) {
  const middle = median(added);
  return middle <= 0 || median(added.map((value) => Math.abs(value - middle))) > middle;
}

/** Prints the table and the summary line. */
function report(samples, loadBefore) {
  const ours = [...samples].find(([side]) => side === oursSide)?.[1];
  const oursAdded =
    ours !== undefined && ours.error === undefined && !noisy(ours.added)
      ? median(ours.added)
      : undefined;
  const rows = [
    [
      'agent',
      'wall ms, no hook',
      'wall ms, hook',
      'ms/call, no hook',
      'ms/call, hook',
      'added ms/hook',
      'added min..max',
      'ours/this',
    ],
  ];
  const ratios = [];
  const lost = [];
  for (const [side, entry] of samples) {
    if (entry.error !== undefined) {
      rows.push([side.title, `ERROR: ${entry.error}`, '', '', '', '', '', '']);
      continue;
    }
    const added = median(entry.added);
    const isNoisy = noisy(entry.added);
    if (isNoisy) lost.push(side.title);
    const ratio =
      oursAdded === undefined || side === oursSide || isNoisy ? undefined : oursAdded / added;
    if (ratio !== undefined) ratios.push(`${ratio.toFixed(2)}× ${side.title}`);
    rows.push([
      side.title,
      median(entry.none.map((sample) => sample.wallMs)).toFixed(0),
      median(entry.hook.map((sample) => sample.wallMs)).toFixed(0),
      (median(entry.none.map((sample) => sample.loopMs)) / CALLS).toFixed(2),
      (median(entry.hook.map((sample) => sample.loopMs)) / CALLS).toFixed(2),
      added.toFixed(2),
      `${Math.min(...entry.added).toFixed(1)}..${Math.max(...entry.added).toFixed(1)}`,
      ratio === undefined ? (isNoisy ? 'noisy' : '') : ratio.toFixed(2),
    ]);
  }
  const load = (values) => values.map((value) => value.toFixed(1)).join(' ');
  console.log(
    `\nreal agents, one PreToolUse command hook (${HOOK_FORM === 'script' ? 'a #!/bin/sh file holding ' : ''}\`cat >/dev/null; echo . >>LOG\`), ${CALLS} shell calls of \`${TOOL_FORM === 'program' ? '/bin/true' : 'true'} N\` a run, ${ROUNDS} interleaved pairs; ms/call = loop time (first model request answered with a call to the final one) / ${CALLS}; added = median over pairs of (hook - no hook) / ${CALLS}; load average ${load(loadBefore)} before, ${load(loadavg())} after`,
  );
  console.log(table(rows));
  if (oursAdded !== undefined && ratios.length > 0)
    console.log(
      `ours adds ${oursAdded.toFixed(2)} ms per hook call: ${ratios.join(', ')} (target <= 0.8× Claude Code and Copilot CLI)`,
    );
  const baseline = [...samples].find(([side]) => side.name === 'baseline')?.[1];
  if (ours && baseline && ours.error === undefined && baseline.error === undefined) {
    // "added" subtracts each build's own run without the hook, which can move on its own (a build
    // that starts the spawn helper earlier makes the runs without a hook faster): the loop time
    // per call with the hook is what a user of the hook waits for.
    const perCall = (entry, key) => median(entry[key].map((sample) => sample.loopMs)) / CALLS;
    const line = (key) =>
      `${perCall(ours, key).toFixed(2)} against ${perCall(baseline, key).toFixed(2)} ms/call (${(perCall(ours, key) / perCall(baseline, key)).toFixed(2)}×)`;
    console.log(
      `this build against the baseline: with the hook ${line('hook')}; without it ${line('none')}`,
    );
  }
  if (lost.length > 0)
    console.log(
      `too noisy to compare (added <= 0, or its pairs spread wider than it): ${lost.join(', ')}; rerun on a quieter machine or with more BENCH_AGENT_ROUNDS`,
    );
}

async function main() {
  if (ONLY?.includes('none')) {
    console.log('real agents bench skipped (BENCH_AGENTS=none)');
    return;
  }
  const sides = availableSides();
  if (sides.length === 0) {
    console.log('real agents bench skipped: nothing to run');
    return;
  }
  const workRoot = mkdtempSync(join(tmpdir(), 'soong-agents-bench-'));
  const started = performance.now();
  const loadBefore = loadavg();
  try {
    report(await measure(sides, workRoot), loadBefore);
  } finally {
    // Runs that failed keep their dirs (their output is named in the table).
    if (existsSync(workRoot)) {
      const left = readdirSync(workRoot);
      if (left.length === 0) rmSync(workRoot, { recursive: true, force: true });
    }
  }
  console.log(`(took ${((performance.now() - started) / 1000).toFixed(0)} s)`);
}

await main();
