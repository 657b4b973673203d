// Benchmarks of @soong-agent/loop-adapter (run `pnpm bench` after a build). Prints tables of
// numbers measured side by side in one run; never asserts on time.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { loadConfig } from '@soong-agent/config';
import { runCommand, startWorker } from '@soong-agent/runner';
import {
  createFileArtifactStore,
  createHookEngine,
  createJsonlEventSink,
  createMemoryEventSink,
  executeToolBatch,
} from '../dist/index.js';

const SESSION_ID = '20261202T135512Z-000000';
const TRIVIAL_HOOK = `cat >/dev/null; echo '{"decision":"allow"}'`;

function makeSetup(hooks, configToml = '') {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'loop-adapter-bench-')));
  const home = path.join(root, 'home');
  const projectDir = path.join(root, 'project');
  fs.mkdirSync(home, { mode: 0o700 });
  fs.mkdirSync(projectDir);
  fs.writeFileSync(path.join(home, 'hooks.json'), JSON.stringify({ version: 1, hooks }), {
    mode: 0o600,
  });
  fs.writeFileSync(path.join(home, 'config.toml'), configToml, { mode: 0o600 });
  const config = loadConfig({ home, projectDir, homeDir: root });
  return {
    root,
    home,
    projectDir,
    config,
    cleanup: () => fs.rmSync(root, { recursive: true, force: true }),
  };
}

/** The PreToolUse input the engine sends `hookId` (SPEC §2.1), for the bare baselines. */
function hookStdin(setup, hookId, payload) {
  return JSON.stringify({
    protocol_version: 1,
    event: 'PreToolUse',
    session_id: SESSION_ID,
    project_dir: setup.projectDir,
    agent_home: setup.home,
    hook_id: hookId,
    timestamp: new Date().toISOString(),
    ...payload,
  });
}

function toolInfo(name) {
  return {
    name,
    call_id: 'call_1',
    input: { path: 'src/a.ts' },
    risk: 'readonly',
    tags: ['readonly'],
    paths: ['/p/src/a.ts'],
  };
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};

function table(title, headers, rows) {
  const widths = headers.map((header, column) =>
    Math.max(header.length, ...rows.map((row) => String(row[column]).length)),
  );
  const line = (cells) =>
    cells.map((cell, column) => String(cell).padStart(widths[column])).join('  ');
  console.log(
    `\n${title}\n${line(headers)}\n${widths.map((width) => '-'.repeat(width)).join('  ')}`,
  );
  for (const row of rows) console.log(line(row));
}

async function benchDispatch() {
  const rules = Array.from({ length: 1000 }, (_, index) => ({
    matcher: { tool: `tool_${index}` },
    hooks: [{ type: 'command', command: TRIVIAL_HOOK }],
  }));
  const setup = makeSetup({ PreToolUse: rules.slice(0, 500), PostToolUse: rules.slice(500) });
  const engine = createHookEngine({
    config: setup.config,
    sink: createMemoryEventSink({ sessionId: SESSION_ID }),
    sessionId: SESSION_ID,
  });
  const cases = [
    [
      'PreToolUse, 500 rules of the event, none match',
      'PreToolUse',
      { tool: toolInfo('read_file') },
    ],
    [
      'Stop, no rules of the event',
      'Stop',
      {
        stop_hook_active: false,
        prevented_count: 0,
        previous_reasons: [],
        last_assistant_message: '',
      },
    ],
  ];
  // Baseline measured alongside: awaiting an empty async function (the floor of any async API).
  const empty = async () => undefined;
  const chunk = async (run) => {
    const started = process.hrtime.bigint();
    for (let index = 0; index < 5_000; index++) await run();
    return Number(process.hrtime.bigint() - started) / 5_000;
  };
  const rows = [];
  for (const [label, event, payload] of cases) {
    const run = () => engine.run(event, payload);
    for (let index = 0; index < 4; index++) {
      await chunk(run);
      await chunk(empty);
    }
    // 20 interleaved chunks of 5,000 runs each; the median chunk resists a noisy machine.
    const engineChunks = [];
    const baselineChunks = [];
    for (let index = 0; index < 20; index++) {
      engineChunks.push(await chunk(run));
      baselineChunks.push(await chunk(empty));
    }
    const nsPerRun = median(engineChunks);
    const baseline = median(baselineChunks);
    rows.push([label, nsPerRun.toFixed(0), baseline.toFixed(0), (nsPerRun / baseline).toFixed(2)]);
  }
  setup.cleanup();
  table(
    'Dispatch with 1,000 rules configured and none matching (no process spawned; median of 20 interleaved chunks of 5,000 runs)',
    ['case', 'engine.run ns', 'empty async fn ns', 'ratio'],
    rows,
  );
}

async function benchEngineVsRunner() {
  const setup = makeSetup({
    PreToolUse: [{ hooks: [{ type: 'command', command: TRIVIAL_HOOK }] }],
  });
  const sink = createJsonlEventSink(path.join(setup.home, 'sessions', SESSION_ID, 'events.jsonl'), {
    sessionId: SESSION_ID,
  });
  const engine = createHookEngine({ config: setup.config, sink, sessionId: SESSION_ID });
  const payload = { tool: toolInfo('read_file') };
  // The bare runner gets the same command, stdin size and options the engine passes.
  const stdin = hookStdin(setup, 'PreToolUse[0][0]', payload);
  const bare = () =>
    runCommand({
      command: TRIVIAL_HOOK,
      cwd: setup.projectDir,
      allowedRoots: [setup.projectDir, setup.home],
      envAllowlist: setup.config.envAllowlist,
      env: {
        SOONG_AGENT_HOME: setup.home,
        SOONG_AGENT_PROJECT_DIR: setup.projectDir,
        SOONG_AGENT_SESSION_ID: SESSION_ID,
        SOONG_AGENT_HOOK_EVENT: 'PreToolUse',
      },
      input: stdin,
      timeoutMs: 30_000,
      killGraceMs: 1000,
      maxOutputBytes: 1048576,
      stopOnOutputLimit: true,
    });
  const rounds = 150;
  const engineTimes = [];
  const runnerTimes = [];
  for (let index = 0; index < 10; index++) {
    await engine.run('PreToolUse', payload);
    await bare();
  }
  for (let index = 0; index < rounds; index++) {
    // Alternate which goes first so drift on a noisy machine hits both sides alike.
    const order = index % 2 === 0 ? ['engine', 'runner'] : ['runner', 'engine'];
    for (const which of order) {
      const started = performance.now();
      if (which === 'engine') await engine.run('PreToolUse', payload);
      else await bare();
      (which === 'engine' ? engineTimes : runnerTimes).push(performance.now() - started);
    }
  }
  await sink.close();
  setup.cleanup();
  const engineMedian = median(engineTimes);
  const runnerMedian = median(runnerTimes);
  table(
    `PreToolUse with one trivial hook: engine (JSONL sink) vs bare runCommand, ${rounds} interleaved rounds (target ratio <= 1.05)`,
    ['engine median ms', 'runner median ms', 'ratio'],
    [[engineMedian.toFixed(3), runnerMedian.toFixed(3), (engineMedian / runnerMedian).toFixed(3)]],
  );
}

// A trivial hook in both modes (SPEC §8), without dependencies: it allows everything.
const TRIVIAL_NODE_HOOK = `import readline from 'node:readline';
if (process.env.SOONG_AGENT_HOOK_MODE === 'worker') {
  const lines = readline.createInterface({ input: process.stdin });
  lines.on('line', (line) => {
    const { id } = JSON.parse(line);
    process.stdout.write('{"id":' + id + ',"output":{"decision":"allow"}}\\n');
  });
} else {
  process.stdin.resume();
  process.stdin.on('end', () => process.stdout.write('{"decision":"allow"}\\n'));
}
`;

const quantile = (values, q) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))];
};

function bareSpawn(file, stdin, env, cwd) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [file], { cwd, env, stdio: ['pipe', 'pipe', 'ignore'] });
    let stdout = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.on('error', reject);
    child.on('close', () => resolve(stdout));
    child.stdin.end(stdin);
  });
}

/**
 * Starts workers for an engine (its `startWorker` option) and keeps a handle on each, so the bench
 * can also talk to the very same process without the engine: a bare pipe round trip, one line out
 * and one line back. While a bare call is waiting, the worker's lines go to it, not to the engine.
 */
function sharedWorkers() {
  const started = [];
  let waiting;
  let nextId = 1_000_000_000;
  return {
    start: async (options) => {
      const own = options.onStdoutLine;
      const worker = await startWorker({
        ...options,
        onStdoutLine: (line) => (waiting === undefined ? own?.(line) : waiting(line)),
      });
      started.push(worker);
      return worker;
    },
    count: () => started.length,
    /** One bare round trip to each worker, in turn (the engine idle meanwhile). */
    async callEach(input) {
      for (const worker of started) {
        await new Promise((resolve) => {
          waiting = (line) => {
            waiting = undefined;
            resolve(line);
          };
          worker.writeLine(`{"id":${nextId++},"input":${input}}`);
        });
      }
    },
  };
}

/** A worker started with child_process.spawn, spoken to without the engine: the floor of a call. */
function bareWorker(file, env, cwd) {
  const child = spawn(process.execPath, [file], { cwd, env, stdio: ['pipe', 'pipe', 'ignore'] });
  let waiting;
  let buffered = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (text) => {
    buffered += text;
    const newline = buffered.indexOf('\n');
    if (newline === -1) return;
    const line = buffered.slice(0, newline);
    buffered = buffered.slice(newline + 1);
    waiting?.(line);
  });
  let nextId = 1;
  return {
    call(input) {
      return new Promise((resolve) => {
        waiting = resolve;
        child.stdin.write(`{"id":${nextId++},"input":${input}}\n`);
      });
    },
    stop() {
      child.stdin.end();
    },
  };
}

async function benchWorkerHooks(against) {
  const setup = makeSetup({});
  // In a folder of its own: the files next to a hook's script are fingerprinted with it, and
  // hooks.json is rewritten below.
  fs.mkdirSync(path.join(setup.home, 'bench-hooks'));
  const hookFile = path.join(setup.home, 'bench-hooks', 'trivial-hook.mjs');
  fs.writeFileSync(hookFile, TRIVIAL_NODE_HOOK);
  const command = `'${process.execPath}' '${hookFile}'`;
  const engineWith = (
    hooks,
    build = { createHookEngine, createJsonlEventSink },
    tag = '',
    workers = undefined,
  ) => {
    fs.writeFileSync(
      path.join(setup.home, 'hooks.json'),
      JSON.stringify({ version: 1, hooks: { PreToolUse: hooks } }),
      { mode: 0o600 },
    );
    const config = loadConfig({
      home: setup.home,
      projectDir: setup.projectDir,
      homeDir: setup.root,
    });
    const sink = build.createJsonlEventSink(
      path.join(setup.home, 'sessions', `${hooks.length}${tag}`, 'events.jsonl'),
      { sessionId: SESSION_ID },
    );
    const engine = build.createHookEngine({
      config,
      sink,
      sessionId: SESSION_ID,
      ...(workers === undefined ? {} : { startWorker: workers.start }),
    });
    return { engine, sink };
  };
  const hook = (mode, name) => ({ hooks: [{ type: 'command', name, command, mode }] });
  // The bare round trips go to the engine's own worker processes: the same processes, placed on
  // the same CPUs by the scheduler (on a small VM two processes' round trip differs up to 3x with
  // where they run; see the README), so the ratio is the engine's own cost.
  const oneShared = sharedWorkers();
  const fiveShared = sharedWorkers();
  const worker = engineWith([hook('worker', 'trivial')], undefined, '', oneShared);
  const spawned = engineWith([hook('spawn', 'trivial')]);
  const fiveHooks = [1, 2, 3, 4, 5].map((index) => hook('worker', `trivial-${index}`));
  const five = engineWith(fiveHooks, undefined, '', fiveShared);
  // --against <dist/index.js of another build>: its engine runs interleaved with this one.
  const other = against && {
    worker: engineWith([hook('worker', 'trivial')], against.build, '-against'),
    five: engineWith(fiveHooks, against.build, '-against'),
  };
  const payload = { tool: toolInfo('read_file') };
  const stdin = hookStdin(setup, 'trivial', payload);
  const bareEnv = { PATH: process.env.PATH ?? '/usr/bin:/bin', SOONG_AGENT_HOOK_MODE: 'spawn' };
  const workerEnv = { ...bareEnv, SOONG_AGENT_HOOK_MODE: 'worker' };
  const bareWorkers = [bareWorker(hookFile, workerEnv, setup.projectDir)];
  const time = async (run) => {
    const started = performance.now();
    const outcome = await run();
    const elapsed = performance.now() - started;
    if (outcome?.decision !== undefined && outcome.decision !== 'allow') {
      throw new Error(`the trivial hook did not allow: ${JSON.stringify(outcome)}`);
    }
    return elapsed;
  };
  const cases = {
    worker: () => worker.engine.run('PreToolUse', payload),
    spawn: () => spawned.engine.run('PreToolUse', payload),
    bare: () => bareSpawn(hookFile, stdin, bareEnv, setup.projectDir),
    five: () => five.engine.run('PreToolUse', payload),
    bareWorker: () => oneShared.callEach(stdin),
    bareFive: () => fiveShared.callEach(stdin),
    otherProcess: () => bareWorkers[0].call(stdin),
    ...(other && {
      otherWorker: () => other.worker.engine.run('PreToolUse', payload),
      otherFive: () => other.five.engine.run('PreToolUse', payload),
    }),
  };
  const times = Object.fromEntries(Object.keys(cases).map((name) => [name, []]));
  const burstCases = ['worker', 'bareWorker', 'five', 'bareFive', 'otherProcess'];
  if (other) burstCases.push('otherWorker', 'otherFive');
  // Warm-up (starts the workers), then two phases of interleaved rounds, each side alternating with
  // its bare baseline so drift on a noisy machine hits both alike: process starts (spawn mode and
  // a bare spawn), then bursts of worker calls (as a session makes them, back to back). The phases
  // are apart because on this shared machine a 100 ms process start slows the sub-millisecond
  // calls right after it several times over (see the README); that is the machine, not the mode.
  for (let index = 0; index < 5; index++) for (const run of Object.values(cases)) await run();
  if (oneShared.count() !== 1 || fiveShared.count() !== 5) {
    throw new Error('the engines did not start their workers through the bench');
  }
  const rounds = 60;
  const burst = 25;
  for (let round = 0; round < rounds; round++) {
    times.spawn.push(await time(cases.spawn));
    times.bare.push(await time(cases.bare));
  }
  for (let round = 0; round < rounds; round++) {
    for (const name of burstCases) {
      for (let index = 0; index < burst; index++) times[name].push(await time(cases[name]));
    }
  }
  for (const bareWorker of bareWorkers) bareWorker.stop();
  for (const { engine, sink } of [
    worker,
    spawned,
    five,
    ...(other ? [other.worker, other.five] : []),
  ]) {
    await engine.close();
    await sink.close();
  }
  setup.cleanup();
  const p50 = (name) => quantile(times[name], 0.5);
  const row = (label, name, target) => [
    label,
    times[name].length,
    p50(name).toFixed(3),
    quantile(times[name], 0.99).toFixed(3),
    (p50('spawn') / p50(name)).toFixed(1),
    target,
  ];
  const met = (ok) => (ok ? 'met' : 'MISSED');
  const load = os
    .loadavg()
    .map((value) => value.toFixed(1))
    .join(' ');
  table(
    `PreToolUse with one trivial Node hook (worker hooks, SPEC §8): engine with a JSONL sink vs bare child_process, interleaved, load average ${load}`,
    ['case', 'calls', 'p50 ms', 'p99 ms', 'spawn-mode p50 / p50', 'target'],
    [
      row('engine, "mode": "worker"', 'worker', `p50 <= 0.5 ms: ${met(p50('worker') <= 0.5)}`),
      row('  bare pipe round trip to the same worker process', 'bareWorker', ''),
      row('  bare round trip to another worker (child_process.spawn)', 'otherProcess', ''),
      row('engine, "mode": "spawn"', 'spawn', ''),
      row('  bare child_process.spawn of the same hook', 'bare', ''),
      row(
        'engine, five worker hooks on the event',
        'five',
        `p50 <= 2 ms: ${met(p50('five') <= 2)}`,
      ),
      row('  bare round trips to the same five workers, in turn', 'bareFive', ''),
      ...(other
        ? [
            row(`engine of ${against.label}, "mode": "worker"`, 'otherWorker', ''),
            row(`engine of ${against.label}, five worker hooks`, 'otherFive', ''),
          ]
        : []),
    ],
  );
  const ratio = p50('spawn') / p50('worker');
  console.log(
    `worker vs spawn mode: ${ratio.toFixed(1)}x faster (target >= 10x: ${met(ratio >= 10)}); spawn mode / bare spawn ${(p50('spawn') / p50('bare')).toFixed(2)}; worker mode / bare round trip ${(p50('worker') / p50('bareWorker')).toFixed(2)} (issue 19: <= 1.5: ${met(p50('worker') <= 1.5 * p50('bareWorker'))}); five worker hooks / five bare round trips ${(p50('five') / p50('bareFive')).toFixed(2)} (<= 1.5: ${met(p50('five') <= 1.5 * p50('bareFive'))})`,
  );
  if (other) {
    console.log(
      `against ${against.label}: worker mode / bare round trip ${(p50('otherWorker') / p50('bareWorker')).toFixed(2)}, five / five bare ${(p50('otherFive') / p50('bareFive')).toFixed(2)}; this build's p50 / its p50: one hook ${(p50('worker') / p50('otherWorker')).toFixed(2)}, five hooks ${(p50('five') / p50('otherFive')).toFixed(2)}`,
    );
  }
}

// One size per child process, so that peak RSS belongs to that size alone.
async function postToolUseChild(size) {
  const setup = makeSetup({});
  const countFile = path.join(setup.root, 'stdin-bytes');
  fs.writeFileSync(
    path.join(setup.home, 'hooks.json'),
    JSON.stringify({
      version: 1,
      hooks: {
        PostToolUse: [
          {
            hooks: [
              { type: 'command', command: `wc -c > '${countFile}'; echo '{"decision":"allow"}'` },
            ],
          },
        ],
      },
    }),
    { mode: 0o600 },
  );
  const config = loadConfig({
    home: setup.home,
    projectDir: setup.projectDir,
    homeDir: setup.root,
  });
  const sink = createMemoryEventSink({ sessionId: SESSION_ID });
  const artifacts = createFileArtifactStore(path.join(setup.home, 'artifacts'));
  const engine = createHookEngine({ config, sink, sessionId: SESSION_ID, artifacts });
  const tool = {
    name: 'cat_big',
    risk: 'readonly',
    paths: () => [],
    execute: async () => ({
      content: `${'0123456789abcde\n'.repeat(Math.floor(size / 16))}${'z'.repeat(size % 16)}`,
      isError: false,
    }),
  };
  const before = process.memoryUsage().rss;
  const started = performance.now();
  await executeToolBatch([{ id: 'c1', name: 'cat_big', input: {} }], {
    tools: new Map([['cat_big', tool]]),
    engine,
    permission: async () => ({ allow: true }),
  });
  const durationMs = performance.now() - started;
  if (!fs.existsSync(countFile))
    throw new Error(`hook did not run: ${JSON.stringify(sink.records)}`);
  const stdinBytes = Number(fs.readFileSync(countFile, 'utf8').trim());
  const result = {
    size,
    stdinBytes,
    rssBeforeMb: before / 2 ** 20,
    peakRssMb: process.resourceUsage().maxRSS / 1024,
    durationMs,
  };
  setup.cleanup();
  process.stdout.write(JSON.stringify(result));
}

function benchPostToolUse() {
  const rows = [];
  for (const [label, size] of [
    ['1 KB', 1024],
    ['1 MB', 2 ** 20],
    ['100 MB', 100 * 2 ** 20],
  ]) {
    const output = execFileSync(
      process.execPath,
      [fileURLToPath(import.meta.url), '--post-child', String(size)],
      { encoding: 'utf8', maxBuffer: 1 << 20 },
    );
    const result = JSON.parse(output);
    rows.push([
      label,
      result.size,
      result.stdinBytes,
      result.stdinBytes <= 20_480 || result.size <= 16_384 ? 'yes' : 'NO',
      result.rssBeforeMb.toFixed(0),
      result.peakRssMb.toFixed(0),
      result.durationMs.toFixed(0),
    ]);
  }
  table(
    'PostToolUse with large tool results (inline_result_bytes = 16384; target: stdin <= 20 KB when over the limit)',
    ['result', 'bytes', 'hook stdin bytes', '<= 20 KB', 'RSS before MB', 'peak RSS MB', 'batch ms'],
    rows,
  );
}

// OpenTelemetry API installed but no SDK registered, against the API not installed: the same
// dispatch in two child processes, alternated so drift hits both sides alike.
function benchOpenTelemetry() {
  const child = path.join(path.dirname(fileURLToPath(import.meta.url)), 'otel-child.mjs');
  const hide = path.join(path.dirname(fileURLToPath(import.meta.url)), 'hide-opentelemetry.cjs');
  const runs = { present: [], absent: [] };
  for (let round = 0; round < 3; round += 1) {
    for (const side of ['present', 'absent']) {
      const args = side === 'absent' ? ['--require', hide, child] : [child];
      runs[side].push(JSON.parse(execFileSync(process.execPath, args, { encoding: 'utf8' })));
    }
  }
  if (runs.present.some((run) => !run.api) || runs.absent.some((run) => run.api)) {
    throw new Error('the OpenTelemetry benchmark could not hide or find @opentelemetry/api');
  }
  const median = (values) => values.sort((a, b) => a - b)[values.length >> 1];
  const row = (side) => [
    side === 'present'
      ? '@opentelemetry/api installed, no SDK'
      : '@opentelemetry/api not installed',
    median(runs[side].map((run) => run.noMatchNs)).toFixed(0),
    median(runs[side].map((run) => run.workerP50Ms)).toFixed(3),
    median(runs[side].map((run) => run.workerP99Ms)).toFixed(3),
  ];
  const present = row('present');
  const absent = row('absent');
  table(
    'OpenTelemetry: engine dispatch with the API but no SDK vs without the API (median of 3 alternated runs each)',
    ['', 'no matching rule ns/run', 'worker hook p50 ms', 'worker hook p99 ms'],
    [
      present,
      absent,
      [
        'ratio installed / not installed',
        (Number(present[1]) / Number(absent[1])).toFixed(2),
        (Number(present[2]) / Number(absent[2])).toFixed(2),
        (Number(present[3]) / Number(absent[3])).toFixed(2),
      ],
    ],
  );
}

if (process.argv[2] === '--post-child') {
  await postToolUseChild(Number(process.argv[3]));
} else if (process.argv[2] === '--workers') {
  // `--workers --against <path to another build's dist/index.js>`: both builds side by side.
  const label = process.argv[3] === '--against' ? process.argv[4] : undefined;
  await benchWorkerHooks(
    label && { label, build: await import(pathToFileURL(path.resolve(label)).href) },
  );
} else if (process.argv[2] === '--dispatch') {
  await benchDispatch();
} else {
  console.log(
    `@soong-agent/loop-adapter benchmarks (node ${process.version}, ${os.cpus().length} cpus)`,
  );
  await benchDispatch();
  await benchEngineVsRunner();
  await benchWorkerHooks();
  benchOpenTelemetry();
  benchPostToolUse();
}
