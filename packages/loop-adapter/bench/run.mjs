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

/** The PreToolUse input the engine sends `hookId` (spec §2.1), for the bare baselines. */
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

// A trivial hook in both modes (spec §8), without dependencies: it allows everything.
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

/**
 * A setup with TRIVIAL_NODE_HOOK in a folder of its own (the files next to a hook's script are
 * fingerprinted with it, and hooks.json is rewritten by the caller), and the command that runs it.
 */
function trivialNodeHookSetup() {
  const setup = makeSetup({});
  fs.mkdirSync(path.join(setup.home, 'bench-hooks'));
  const hookFile = path.join(setup.home, 'bench-hooks', 'trivial-hook.mjs');
  fs.writeFileSync(hookFile, TRIVIAL_NODE_HOOK);
  return { setup, hookFile, command: `'${process.execPath}' '${hookFile}'` };
}

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
  const { setup, hookFile, command } = trivialNodeHookSetup();
  let engines = 0;
  const engineWith = (
    hooks,
    build = { createHookEngine, createJsonlEventSink },
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
    engines += 1;
    const sink = build.createJsonlEventSink(
      path.join(setup.home, 'sessions', String(engines), 'events.jsonl'),
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
  const fiveHooks = [1, 2, 3, 4, 5].map((index) => hook('worker', `trivial-${index}`));
  const payload = { tool: toolInfo('read_file') };
  const stdin = hookStdin(setup, 'trivial', payload);
  const bareEnv = { PATH: process.env.PATH ?? '/usr/bin:/bin', SOONG_AGENT_HOOK_MODE: 'spawn' };
  const workerEnv = { ...bareEnv, SOONG_AGENT_HOOK_MODE: 'worker' };
  const time = async (run) => {
    const started = performance.now();
    const outcome = await run();
    const elapsed = performance.now() - started;
    if (outcome?.decision !== undefined && outcome.decision !== 'allow') {
      throw new Error(`the trivial hook did not allow: ${JSON.stringify(outcome)}`);
    }
    return elapsed;
  };
  const closeAll = async (opened) => {
    for (const { engine, sink } of opened) {
      await engine.close();
      await sink.close();
    }
  };

  // Process starts: spawn mode against a bare child_process.spawn of the same hook, interleaved.
  // Apart from the worker calls: on this shared machine a 100 ms process start slows the
  // sub-millisecond calls right after it several times over (see the README).
  const spawned = engineWith([hook('spawn', 'trivial')]);
  const starts = { spawn: [], bare: [] };
  const startCases = {
    spawn: () => spawned.engine.run('PreToolUse', payload),
    bare: () => bareSpawn(hookFile, stdin, bareEnv, setup.projectDir),
  };
  for (let index = 0; index < 3; index++) for (const run of Object.values(startCases)) await run();
  for (let round = 0; round < 60; round++) {
    for (const name of Object.keys(starts)) starts[name].push(await time(startCases[name]));
  }
  await closeAll([spawned]);

  // Worker calls, in sets: each set starts fresh worker processes, and the bare round trips go to
  // those very processes, interleaved with the engine's calls in bursts (as a session makes them).
  // Where the scheduler places a set's processes moves its bare round trip by up to 3x on a small
  // VM, and the engine's own cost is about the same number of microseconds whatever the placement:
  // so each set gives its ratio, and the median over the sets is the figure.
  const sets = Number(process.env.SOONG_BENCH_WORKER_SETS ?? 3);
  const rounds = 40;
  const burst = 25;
  const perSet = [];
  const pooled = {};
  for (let set = 0; set < sets; set++) {
    const oneShared = sharedWorkers();
    const fiveShared = sharedWorkers();
    const worker = engineWith([hook('worker', 'trivial')], undefined, oneShared);
    const five = engineWith(fiveHooks, undefined, fiveShared);
    const other = against && {
      worker: engineWith([hook('worker', 'trivial')], against.build),
      five: engineWith(fiveHooks, against.build),
    };
    const otherProcess = bareWorker(hookFile, workerEnv, setup.projectDir);
    const cases = {
      worker: () => worker.engine.run('PreToolUse', payload),
      bareWorker: () => oneShared.callEach(stdin),
      five: () => five.engine.run('PreToolUse', payload),
      bareFive: () => fiveShared.callEach(stdin),
      otherProcess: () => otherProcess.call(stdin),
      ...(other && {
        otherWorker: () => other.worker.engine.run('PreToolUse', payload),
        otherFive: () => other.five.engine.run('PreToolUse', payload),
      }),
    };
    const times = Object.fromEntries(Object.keys(cases).map((name) => [name, []]));
    // Warm-up (starts the workers).
    for (let index = 0; index < 20; index++) for (const run of Object.values(cases)) await run();
    if (oneShared.count() !== 1 || fiveShared.count() !== 5) {
      throw new Error('the engines did not start their workers through the bench');
    }
    for (let round = 0; round < rounds; round++) {
      for (const name of Object.keys(cases)) {
        for (let index = 0; index < burst; index++) times[name].push(await time(cases[name]));
      }
    }
    otherProcess.stop();
    await closeAll([worker, five, ...(other ? [other.worker, other.five] : [])]);
    perSet.push(times);
    for (const [name, values] of Object.entries(times)) {
      pooled[name] = [...(pooled[name] ?? []), ...values];
    }
  }
  setup.cleanup();

  const p50 = (values) => quantile(values, 0.5);
  const medianOf = (values) => [...values].sort((a, b) => a - b)[values.length >> 1];
  const ratioOf = (name, base) =>
    medianOf(perSet.map((times) => p50(times[name]) / p50(times[base])));
  const row = (label, values, target) => [
    label,
    values.length,
    p50(values).toFixed(3),
    quantile(values, 0.99).toFixed(3),
    (p50(starts.spawn) / p50(values)).toFixed(1),
    target,
  ];
  const met = (ok) => (ok ? 'met' : 'MISSED');
  const load = os
    .loadavg()
    .map((value) => value.toFixed(1))
    .join(' ');
  const oneRatio = ratioOf('worker', 'bareWorker');
  const fiveRatio = ratioOf('five', 'bareFive');
  table(
    `PreToolUse with one trivial Node hook (worker hooks, spec §8): engine with a JSONL sink vs bare child_process, interleaved, ${sets} sets of fresh workers pooled, load average ${load}`,
    ['case', 'calls', 'p50 ms', 'p99 ms', 'spawn-mode p50 / p50', 'target'],
    [
      row(
        'engine, "mode": "worker"',
        pooled.worker,
        `p50 <= 0.5 ms: ${met(p50(pooled.worker) <= 0.5)}`,
      ),
      row('  bare pipe round trip to the same worker process', pooled.bareWorker, ''),
      row('  bare round trip to another worker (child_process.spawn)', pooled.otherProcess, ''),
      row('engine, "mode": "spawn"', starts.spawn, ''),
      row('  bare child_process.spawn of the same hook', starts.bare, ''),
      row(
        'engine, five worker hooks on the event',
        pooled.five,
        `p50 <= 2 ms: ${met(p50(pooled.five) <= 2)}`,
      ),
      row('  bare round trips to the same five workers, in turn', pooled.bareFive, ''),
      ...otherRows(against, pooled, row),
    ],
  );
  table(
    'Each set of workers: engine p50 / bare round trip p50 to the same processes',
    [
      'set',
      'bare p50 ms',
      'one hook',
      'engine adds µs',
      'bare five p50 ms',
      'five hooks',
      'adds µs per hook',
    ],
    perSet.map((times, index) => [
      index + 1,
      p50(times.bareWorker).toFixed(3),
      (p50(times.worker) / p50(times.bareWorker)).toFixed(2),
      ((p50(times.worker) - p50(times.bareWorker)) * 1000).toFixed(0),
      p50(times.bareFive).toFixed(3),
      (p50(times.five) / p50(times.bareFive)).toFixed(2),
      (((p50(times.five) - p50(times.bareFive)) * 1000) / 5).toFixed(0),
    ]),
  );
  const ratio = p50(starts.spawn) / p50(pooled.worker);
  console.log(
    `worker vs spawn mode: ${ratio.toFixed(1)}x faster (target >= 10x: ${met(ratio >= 10)}); spawn mode / bare spawn ${(p50(starts.spawn) / p50(starts.bare)).toFixed(2)}; median over the sets: worker mode / bare round trip ${oneRatio.toFixed(2)} (target <= 1.5: ${met(oneRatio <= 1.5)}); five worker hooks / five bare round trips ${fiveRatio.toFixed(2)} (<= 1.5: ${met(fiveRatio <= 1.5)})`,
  );
  if (against) {
    console.log(
      `against ${against.label} (median over the sets): worker mode / bare round trip ${ratioOf('otherWorker', 'bareWorker').toFixed(2)}, five / five bare ${ratioOf('otherFive', 'bareFive').toFixed(2)}; this build's p50 / its p50: one hook ${ratioOf('worker', 'otherWorker').toFixed(2)}, five hooks ${ratioOf('five', 'otherFive').toFixed(2)}`,
    );
  }
}

/**
 * The engine's own work per worker call, with no process on the other side: a fake worker that
 * answers on the next turn of the event loop (as a pipe would), the real JSONL sink and the real
 * fingerprint checks, in one hot loop. On a VM whose idle vCPUs halt at once, the real bench runs
 * this same work cold, several times slower (see the README): this is the figure to compare builds
 * and machines by, and the ratio above depends on it.
 */
async function benchWorkerCallWork(against) {
  const { setup, command } = trivialNodeHookSetup();
  const hooks = {
    PreToolUse: [{ hooks: [{ type: 'command', name: 'trivial', command, mode: 'worker' }] }],
  };
  fs.writeFileSync(path.join(setup.home, 'hooks.json'), JSON.stringify({ version: 1, hooks }), {
    mode: 0o600,
  });
  const config = loadConfig({
    home: setup.home,
    projectDir: setup.projectDir,
    homeDir: setup.root,
  });
  const fakeWorker = async (options) => {
    let exit;
    const exited = new Promise((resolve) => {
      exit = resolve;
    });
    const ended = { exitCode: 0, signal: null, durationMs: 0 };
    return {
      pid: process.pid,
      exited,
      hasExited: false,
      writeLine(line) {
        const id = /^\{"id":(\d+),/.exec(line)?.[1];
        setImmediate(() => options.onStdoutLine?.(`{"id":${id},"output":{"decision":"allow"}}`));
        return true;
      },
      // A real worker reads its pipe here (one read(2) that finds nothing, a few µs): with
      // nothing pending, the request goes out without a turn of the event loop.
      readPendingOutput: () => true,
      async stop() {
        exit(ended);
        return ended;
      },
      async kill() {
        exit(ended);
        return ended;
      },
    };
  };
  const builds = [
    { label: 'this build', build: { createHookEngine, createJsonlEventSink } },
    ...(against ? [{ label: against.label, build: against.build }] : []),
  ];
  const payload = { tool: toolInfo('read_file') };
  const opened = builds.map(({ label, build }, index) => {
    const sink = build.createJsonlEventSink(
      path.join(setup.home, 'sessions', `work-${index}`, 'events.jsonl'),
      { sessionId: SESSION_ID },
    );
    const engine = build.createHookEngine({
      config,
      sink,
      sessionId: SESSION_ID,
      startWorker: fakeWorker,
    });
    return { label, sink, engine, perCall: [] };
  });
  const chunk = 500;
  for (const side of opened) {
    for (let index = 0; index < 3000; index++) await side.engine.run('PreToolUse', payload);
  }
  for (let round = 0; round < 40; round++) {
    for (const side of opened) {
      const started = performance.now();
      for (let index = 0; index < chunk; index++) {
        const outcome = await side.engine.run('PreToolUse', payload);
        if (outcome.decision !== 'allow') throw new Error('the fake worker did not allow');
      }
      side.perCall.push(((performance.now() - started) / chunk) * 1000);
    }
  }
  for (const side of opened) {
    await side.engine.close();
    await side.sink.close();
  }
  setup.cleanup();
  table(
    `Engine work per worker call in a hot loop (a fake worker answering on the next turn, JSONL sink, fingerprint checks; median of 40 interleaved chunks of ${chunk} calls)`,
    ['build', 'µs per call'],
    opened.map((side) => [side.label, median(side.perCall).toFixed(1)]),
  );
}

function otherRows(against, pooled, row) {
  if (!against) return [];
  return [
    row(`engine of ${against.label}, "mode": "worker"`, pooled.otherWorker, ''),
    row(`engine of ${against.label}, five worker hooks`, pooled.otherFive, ''),
  ];
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
  const against = label && {
    label,
    build: await import(pathToFileURL(path.resolve(label)).href),
  };
  await benchWorkerHooks(against);
  await benchWorkerCallWork(against);
} else if (process.argv[2] === '--call-work') {
  // `--call-work [--against <dist/index.js>]`: only the hot-loop engine work per worker call.
  const label = process.argv[3] === '--against' ? process.argv[4] : undefined;
  const against = label && {
    label,
    build: await import(pathToFileURL(path.resolve(label)).href),
  };
  await benchWorkerCallWork(against);
} else if (process.argv[2] === '--dispatch') {
  await benchDispatch();
} else {
  console.log(
    `@soong-agent/loop-adapter benchmarks (node ${process.version}, ${os.cpus().length} cpus)`,
  );
  await benchDispatch();
  await benchEngineVsRunner();
  await benchWorkerHooks();
  await benchWorkerCallWork();
  benchOpenTelemetry();
  benchPostToolUse();
}
