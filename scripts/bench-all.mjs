// Runs every workspace's `bench` script, one after another (benchmarks must not compete for the
// two cores), and lets each print its own table.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
let status = 0;
for (const group of ['packages', 'apps']) {
  for (const name of readdirSync(join(root, group)).sort()) {
    const manifest = join(root, group, name, 'package.json');
    if (!existsSync(manifest)) continue;
    const pkg = JSON.parse(readFileSync(manifest, 'utf8'));
    if (!pkg.scripts?.bench) continue;
    console.log(`\n=== ${pkg.name} ===`);
    const run = spawnSync('node', ['bench/run.mjs'], {
      cwd: join(root, group, name),
      stdio: 'inherit',
    });
    if (run.status !== 0) status = 1;
  }
}
process.exitCode = status;
