// Benchmark of @soong-agent/runner (run `pnpm bench` after a build).
// 1. Overhead: runCommand vs a bare child_process.spawn doing the same work, interleaved.
// 2. Hang cases: observed time to settle against timeoutMs + killGraceMs.
import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { DEFAULT_KILL_GRACE_MS, runCommand } from '../dist/index.js';

const RUNS = 300;
const COMMAND = `cat >/dev/null; echo '{"decision":"allow"}'`;
const INPUT = JSON.stringify({ event: 'PreToolUse', padding: 'x'.repeat(160) }).padEnd(200, ' ');

function bareSpawn() {
  return new Promise((resolve, reject) => {
    const child = spawn('/bin/sh', ['-c', COMMAND], { detached: true });
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

async function viaRunner() {
  const result = await runCommand({ command: COMMAND, input: INPUT, timeoutMs: 10_000 });
  return { code: result.exitCode, stdout: result.stdout };
}

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

// Warm up both paths (module loading, JIT) before measuring.
for (let i = 0; i < 20; i += 1) {
  await timed(viaRunner);
  await timed(bareSpawn);
}

const runner = [];
const bare = [];
for (let i = 0; i < RUNS; i += 1) {
  // Alternate which goes first so drift on a noisy machine hits both alike.
  if (i % 2 === 0) {
    runner.push(await timed(viaRunner));
    bare.push(await timed(bareSpawn));
  } else {
    bare.push(await timed(bareSpawn));
    runner.push(await timed(viaRunner));
  }
}

const fmt = (ms) => `${ms.toFixed(2)} ms`;
const runnerMedian = median(runner);
const bareMedian = median(bare);
console.log(
  `\nOverhead: ${RUNS} interleaved runs each of \`${COMMAND}\` with a ${INPUT.length}-byte input\n`,
);
console.table({
  'bare child_process.spawn': { median: fmt(bareMedian), p90: fmt(percentile(bare, 90)) },
  runCommand: { median: fmt(runnerMedian), p90: fmt(percentile(runner, 90)) },
});
const ratio = runnerMedian / bareMedian;
console.log(
  `ratio runCommand / bare (medians): ${ratio.toFixed(3)} (target <= 1.10: ${ratio <= 1.1 ? 'met' : 'NOT met'})`,
);

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
