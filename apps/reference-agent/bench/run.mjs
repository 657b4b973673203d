// Cold start of the CLI against a bare `node -e 0`, interleaved so machine noise hits both alike:
// `--version`, `--help`, `hooks validate` of a home with one hook, and `hooks test` running that
// hook (a spawn through the runner). Prints medians and ratios; no assertions on wall time. Run
// after a build: `pnpm bench`.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { makeNoOpHookHome } from './no-op-home.mjs';

const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 30);

const { home, project } = makeNoOpHookHome('soong-agent-start-bench-');
const ENV = { ...process.env, SOONG_AGENT_HOME: home };

const cases = [
  { name: 'node -e 0', args: ['-e', '0'] },
  { name: 'soong-agent --version', args: [CLI, '--version'] },
  { name: 'soong-agent --help', args: [CLI, '--help'] },
  { name: 'soong-agent hooks --help', args: [CLI, 'hooks', '--help'] },
  { name: 'soong-agent hooks validate', args: [CLI, 'hooks', 'validate'] },
  {
    name: 'soong-agent hooks test (one no-op hook)',
    args: [CLI, 'hooks', 'test', 'PreToolUse', '--tool', 'bash', '--input', '{"command":"ls"}'],
  },
];

function timeOnce(args) {
  const start = process.hrtime.bigint();
  const result = spawnSync(process.execPath, args, { stdio: 'ignore', env: ENV, cwd: project });
  const elapsed = Number(process.hrtime.bigint() - start) / 1e6;
  if (result.status !== 0) throw new Error(`${args.join(' ')} exited ${result.status}`);
  return elapsed;
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 0 ? (sorted[middle - 1] + sorted[middle]) / 2 : sorted[middle];
};

for (const item of cases) timeOnce(item.args); // warm the file cache
const samples = cases.map(() => []);
for (let round = 0; round < ROUNDS; round += 1) {
  for (const [index, item] of cases.entries()) samples[index].push(timeOnce(item.args));
}

const baseline = median(samples[0]);
const rows = cases.map((item, index) => {
  const value = median(samples[index]);
  return {
    case: item.name,
    'median ms': value.toFixed(1),
    'min ms': Math.min(...samples[index]).toFixed(1),
    ratio: (value / baseline).toFixed(2),
  };
});
console.log(
  `cold start, ${ROUNDS} interleaved runs each (ratio = median / median of node -e 0; target for --version, --help and hooks validate <= 2)`,
);
console.table(rows);

// BENCH_START_ONLY=1: only the starts above.
if (!process.env.BENCH_START_ONLY) await import('./first-call.mjs');
if (!process.env.BENCH_START_ONLY) await import('./provider.mjs');
if (!process.env.BENCH_START_ONLY) await import('./mcp-proxy.mjs');
