// Cold start of the CLI against a bare `node -e 0`, interleaved so machine noise hits both alike.
// Prints medians and ratios; no assertions on wall time. Run after a build: `pnpm bench`.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 30);

const cases = [
  { name: 'node -e 0', args: ['-e', '0'] },
  { name: 'soong-agent --version', args: [CLI, '--version'] },
  { name: 'soong-agent --help', args: [CLI, '--help'] },
  { name: 'soong-agent hooks --help', args: [CLI, 'hooks', '--help'] },
];

function timeOnce(args) {
  const start = process.hrtime.bigint();
  const result = spawnSync(process.execPath, args, { stdio: 'ignore' });
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
  `cold start, ${ROUNDS} interleaved runs each (ratio = median / median of node -e 0; target for --version <= 2)`,
);
console.table(rows);

await import('./provider.mjs');
await import('./mcp-proxy.mjs');
