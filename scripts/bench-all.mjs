// Runs every workspace's `bench` script, one after another (benchmarks must not compete for the
// two cores), and lets each print its own table. The conformance workspace comes last: its bench
// runs the real agents (when the suite cached them) against ours.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
let status = 0;
const workspaces = [
  ...['packages', 'apps'].flatMap((group) =>
    readdirSync(join(root, group))
      .sort()
      .map((name) => join(group, name)),
  ),
  'conformance',
];
for (const workspace of workspaces) {
  const manifest = join(root, workspace, 'package.json');
  if (!existsSync(manifest)) continue;
  const pkg = JSON.parse(readFileSync(manifest, 'utf8'));
  if (!pkg.scripts?.bench) continue;
  console.log(`\n=== ${pkg.name} ===`);
  const run = spawnSync('node', ['bench/run.mjs'], {
    cwd: join(root, workspace),
    stdio: 'inherit',
  });
  if (run.status !== 0) status = 1;
}
process.exitCode = status;
