// Benchmark of @soong-agent/runner (run `pnpm bench` after a build). Everything is measured side
// by side in this one process, interleaved so drift on a noisy machine hits every path alike.
// 1. Spawn cost against the host's size: the same hook command through runCommand (the default:
//    the posix spawner where it runs; the spawn helper; and, the posix spawner off, spawned by Node
//    from this process) beside a bare child_process.spawn and execa alone (what the runner was
//    built on), first from a small host, then from the same process holding ~1.2 GB (a touched
//    Buffer). Each path's added time is its median minus the bare spawn's of the same block. 1b: the same commands in a `#!/bin/sh`
//    hook file, run as a plain command (no shell where /bin/sh is dash) and under `/bin/sh -c`.
// 2. Worker calls: request/response latency through startWorker beside a bare pipe to the same
//    worker program.
// 3. Hang cases: observed time to settle against timeoutMs + killGraceMs.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { execa } from 'execa';
import { DEFAULT_KILL_GRACE_MS } from '../dist/defaults.js';
import { runCommand, setPosixSpawner, spawnHelperStatus, startWorker } from '../dist/index.js';
import { posixSpawnerReady, warmPosixSpawner } from '../dist/posix-spawner.js';

const SMALL_RUNS = Number(process.env.BENCH_SMALL_RUNS ?? 200);
const BIG_RUNS = Number(process.env.BENCH_BIG_RUNS ?? 60);
const BIG_BYTES = 1.2e9;
const WORKER_CALLS = 2000;
const COMMAND = `cat >/dev/null; echo '{"decision":"allow"}'`;
const INPUT = JSON.stringify({ event: 'PreToolUse', padding: 'x'.repeat(160) }).padEnd(200, ' ');

function bareSpawn() {
  return bareSpawnOf(['/bin/sh', '-c', COMMAND]);
}

function bareSpawnOf([file, ...args]) {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { detached: true });
    let stdout = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.resume();
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout }));
    child.stdin.end(INPUT);
  });
}

// execa alone, as a caller that wants the input on stdin and the output back would use it.
async function execaAlone() {
  const result = await execa('/bin/sh', ['-c', COMMAND], {
    input: INPUT,
    detached: true,
    reject: false,
    stripFinalNewline: false,
  });
  return { code: result.exitCode, stdout: result.stdout };
}

const viaRunnerCommand = (command) => async () => {
  const result = await runCommand({ command, input: INPUT, timeoutMs: 10_000 });
  return { code: result.exitCode, stdout: result.stdout };
};

const viaRunner = (spawnHelper) => async () => {
  const result = await runCommand({
    command: COMMAND,
    input: INPUT,
    timeoutMs: 10_000,
    spawnHelper,
  });
  return { code: result.exitCode, stdout: result.stdout };
};

const DEFAULT_PATH = 'runCommand (default)';
const HELPER_PATH = 'runCommand (spawnHelper: true)';
const NODE_PATH = 'runCommand (posix spawner off, spawnHelper: false)';
const BARE_PATH = 'bare child_process.spawn';
// The default path is the posix spawner where it runs (Linux, a system python3), else the helper.
const paths = {
  [BARE_PATH]: bareSpawn,
  'execa alone': execaAlone,
  [DEFAULT_PATH]: viaRunner(undefined),
  [HELPER_PATH]: viaRunner(true),
  // Where /bin/sh is dash the string above runs without the shell (one program and a builtin);
  // the same command under the shell shows what the runner itself adds to a bare spawn.
  "runCommand(['/bin/sh', '-c', …])": viaRunnerCommand(['/bin/sh', '-c', COMMAND]),
};
// Spawned by Node from this process (what the default path saves), measured with the posix
// spawner off, beside the same bare spawn.
const nodePaths = {
  [BARE_PATH]: bareSpawn,
  'execa alone': execaAlone,
  [NODE_PATH]: viaRunner(false),
};

async function timed(fn) {
  const start = performance.now();
  const { code, stdout } = await fn();
  const elapsed = performance.now() - start;
  if (code !== 0 || !stdout.includes('allow')) throw new Error(`unexpected run: ${code} ${stdout}`);
  return elapsed;
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

const fmt = (ms) => `${ms.toFixed(2)} ms`;
const rssMb = () => `${Math.round(process.memoryUsage().rss / 1e6)} MB`;

/** Runs every path `runs` times, rotating which goes first; returns the medians by path. */
async function measure(label, runs, paths) {
  const names = Object.keys(paths);
  const samples = Object.fromEntries(names.map((name) => [name, []]));
  for (let i = 0; i < runs; i += 1) {
    for (let k = 0; k < names.length; k += 1) {
      const name = names[(i + k) % names.length];
      samples[name].push(await timed(paths[name]));
    }
  }
  console.log(`\n${label}: host RSS ${rssMb()}, ${runs} interleaved runs of each path\n`);
  const table = {};
  const medians = {};
  for (const name of names) {
    medians[name] = median(samples[name]);
    table[name] = {
      median: fmt(medians[name]),
      p90: fmt(percentile(samples[name], 90)),
      'added to bare spawn': fmt(medians[name] - medians['bare child_process.spawn']),
    };
  }
  console.table(table);
  return medians;
}

/** Both blocks: the default paths, then (posix spawner off) Node's spawn from this process. */
async function measureBoth(label, runs) {
  warmPosixSpawner();
  while (!posixSpawnerReady() && process.platform === 'linux' && Date.now() - started < 5000)
    await new Promise((resolve) => setTimeout(resolve, 10));
  // Warm up every path (module loading, JIT, the spawners' start) before measuring.
  for (let i = 0; i < 20; i += 1) for (const fn of Object.values(paths)) await timed(fn);
  const medians = await measure(label, runs, paths);
  console.log(`posix spawner ready: ${posixSpawnerReady()}`);
  setPosixSpawner(false);
  for (let i = 0; i < 10; i += 1) for (const fn of Object.values(nodePaths)) await timed(fn);
  Object.assign(medians, await measure(`${label}, posix spawner off`, runs, nodePaths));
  setPosixSpawner(true);
  return medians;
}
const started = Date.now();

const small = await measureBoth(
  `\`${COMMAND}\` with a ${INPUT.length}-byte input, small host`,
  SMALL_RUNS,
);

// 1b. The same two commands in a `#!/bin/sh` hook file, the form of most real hooks: as a plain
//     command the runner execs the file itself where /bin/sh is dash (one exec less), against the
//     same file under `/bin/sh -c` and a bare spawn of that.
async function hookFile() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'runner-bench-'));
  const file = path.join(dir, 'hook.sh');
  fs.writeFileSync(file, `#!/bin/sh\n${COMMAND}\n`, { mode: 0o755 });
  const filePaths = {
    'bare spawn of /bin/sh -c FILE': () => bareSpawnOf(['/bin/sh', '-c', file]),
    'runCommand(FILE)': viaRunnerCommand(file),
    "runCommand(['/bin/sh', '-c', FILE])": viaRunnerCommand(['/bin/sh', '-c', file]),
  };
  const names = Object.keys(filePaths);
  for (let i = 0; i < 10; i += 1) for (const fn of Object.values(filePaths)) await timed(fn);
  const samples = Object.fromEntries(names.map((name) => [name, []]));
  for (let i = 0; i < SMALL_RUNS; i += 1)
    for (let k = 0; k < names.length; k += 1) {
      const name = names[(i + k) % names.length];
      samples[name].push(await timed(filePaths[name]));
    }
  fs.rmSync(dir, { recursive: true, force: true });
  const bare = median(samples[names[0]]);
  const table = {};
  for (const name of names) {
    const value = median(samples[name]);
    table[name] = {
      median: fmt(value),
      p90: fmt(percentile(samples[name], 90)),
      'x bare': (value / bare).toFixed(2),
    };
  }
  console.log(
    `\na #!/bin/sh hook file holding \`${COMMAND}\`, small host, ${SMALL_RUNS} interleaved runs of each path\n`,
  );
  console.table(table);
}
await hookFile();

// Worker calls do not depend on the host's size: measured once, from the small host.
async function workerLatency() {
  const echo = 'cat';
  // Bare: a pipe round trip to the same program, spawned by hand.
  const bare = spawn('/bin/sh', ['-c', echo], { detached: true });
  bare.stdout.setEncoding('utf8');
  let bareWaiter;
  bare.stdout.on('data', () => bareWaiter?.());
  let runnerWaiter;
  const worker = await startWorker({ command: echo, onStdoutLine: () => runnerWaiter?.() });
  const callBare = () =>
    new Promise((resolve) => {
      bareWaiter = resolve;
      bare.stdin.write('{"id":1}\n');
    });
  const callWorker = () =>
    new Promise((resolve) => {
      runnerWaiter = resolve;
      worker.writeLine('{"id":1}');
    });
  const bareTimes = [];
  const workerTimes = [];
  for (let i = 0; i < WORKER_CALLS + 200; i += 1) {
    for (const [fn, times] of i % 2 === 0
      ? [
          [callBare, bareTimes],
          [callWorker, workerTimes],
        ]
      : [
          [callWorker, workerTimes],
          [callBare, bareTimes],
        ]) {
      const start = performance.now();
      await fn();
      if (i >= 200) times.push(performance.now() - start);
    }
  }
  bare.stdin.end();
  await worker.stop();
  return { bare: median(bareTimes), worker: median(workerTimes), p90: percentile(workerTimes, 90) };
}
const calls = await workerLatency();
console.log(`\nWorker calls: ${WORKER_CALLS} interleaved line round trips to \`cat\`\n`);
console.table({
  'bare pipe (child_process.spawn)': { median: `${calls.bare.toFixed(3)} ms` },
  'startWorker writeLine → onStdoutLine': {
    median: `${calls.worker.toFixed(3)} ms`,
    p90: `${calls.p90.toFixed(3)} ms`,
    'added to bare pipe': `${(calls.worker - calls.bare).toFixed(3)} ms`,
  },
});

// Grow the host: a touched Buffer, so its pages are really mapped (as an app's heap would be).
const ballast = Buffer.alloc(BIG_BYTES);
for (let offset = 0; offset < ballast.length; offset += 4096) ballast[offset] = 1;
const big = await measureBoth(
  `The same, host holding ${Math.round((BIG_BYTES / 1e9) * 10) / 10} GB`,
  BIG_RUNS,
);
ballast.fill(0, 0, 1);

const ratios = [
  ['runCommand (default), big host / small host', big[DEFAULT_PATH] / small[DEFAULT_PATH], 1.5],
  ['runCommand (default), small host / bare spawn', small[DEFAULT_PATH] / small[BARE_PATH], 1.5],
  [
    'runCommand (default), small host / spawned by Node from here',
    small[DEFAULT_PATH] / small[NODE_PATH],
    undefined,
  ],
  [
    'runCommand (spawnHelper: true), big host / small host',
    big[HELPER_PATH] / small[HELPER_PATH],
    1.5,
  ],
  ['runCommand (default) / bare spawn, big host', big[DEFAULT_PATH] / big[BARE_PATH], undefined],
  [
    'spawned by Node from here, big host / small host',
    big[NODE_PATH] / small[NODE_PATH],
    undefined,
  ],
  ['bare spawn, big host / small host', big[BARE_PATH] / small[BARE_PATH], undefined],
  ['startWorker call / bare pipe call', calls.worker / calls.bare, 1.1],
];
console.log('\nRatios (medians)\n');
for (const [name, ratio, target] of ratios) {
  const verdict =
    target === undefined ? '' : ` (target <= ${target}: ${ratio <= target ? 'met' : 'NOT met'})`;
  console.log(`${name}: ${ratio.toFixed(2)}${verdict}`);
}
const overExeca = small[DEFAULT_PATH] - small['execa alone'];
console.log(
  `runCommand (default) - execa alone, small host: ${fmt(overExeca)} (target <= 0.5 ms: ${overExeca <= 0.5 ? 'met' : 'NOT met'})`,
);
console.log(`spawn helper: ${JSON.stringify(spawnHelperStatus())}`);

const TIMEOUT_MS = 500;
const hangCases = [
  { name: 'SIGTERM ignored', command: `trap '' TERM; while :; do sleep 1; done` },
  { name: 'pipe-holding grandchild', command: 'sleep 60 & echo started' },
  { name: 'plain sleep 60', command: 'sleep 60' },
];
const rows = {};
for (const hangCase of hangCases) {
  const start = performance.now();
  const result = await runCommand({ command: hangCase.command, timeoutMs: TIMEOUT_MS });
  const elapsed = performance.now() - start;
  const bound = TIMEOUT_MS + DEFAULT_KILL_GRACE_MS;
  rows[hangCase.name] = {
    'settled after': fmt(elapsed),
    'timeoutMs + killGraceMs': fmt(bound),
    'settled / bound': (elapsed / bound).toFixed(2),
    timedOut: result.timedOut,
    exit: result.signal ?? result.exitCode,
  };
}
console.log(`\nHang cases with timeoutMs ${TIMEOUT_MS}, killGraceMs ${DEFAULT_KILL_GRACE_MS}\n`);
console.table(rows);

// The first run of a fresh host against its tenth, each host started anew: cold (the first run
// starts the helper), and after warmSpawnHelper() with 500 ms of other work first (a session
// talking to its model), as a hook engine with spawn hooks does.
const FIRST_HOSTS = 5;
const entry = new URL('../dist/index.js', import.meta.url).href;
const hostScript = (warm) => `
  const r = await import(${JSON.stringify(entry)});
  ${warm ? 'r.warmSpawnHelper(); await new Promise((res) => setTimeout(res, 500));' : ''}
  const times = [];
  for (let i = 0; i < 10; i += 1) {
    const start = performance.now();
    await r.runCommand({ command: ${JSON.stringify(COMMAND)}, input: ${JSON.stringify(INPUT)} });
    times.push(performance.now() - start);
  }
  process.stdout.write(JSON.stringify(times));
`;
const firstRows = {};
for (const warm of [false, true]) {
  const firsts = [];
  const tenths = [];
  for (let i = 0; i < FIRST_HOSTS; i += 1) {
    const { spawnSync } = await import('node:child_process');
    const out = spawnSync(process.execPath, ['--input-type=module', '-e', hostScript(warm)], {
      encoding: 'utf8',
    });
    const times = JSON.parse(out.stdout);
    firsts.push(times[0]);
    tenths.push(times[9]);
  }
  firstRows[warm ? 'after warmSpawnHelper()' : 'cold host'] = {
    'first run': fmt(median(firsts)),
    'tenth run': fmt(median(tenths)),
    'first / tenth': (median(firsts) / median(tenths)).toFixed(2),
  };
}
console.log(`\nFirst run against the tenth, medians over ${FIRST_HOSTS} fresh hosts\n`);
console.table(firstRows);
