// A consumer of @soong-agent/runner alone, installed from its packed tarball.
import fs from 'node:fs';
import { runCommand, setPosixSpawner, spawnHelperStatus } from '@soong-agent/runner';
import { DEFAULT_ENV_ALLOWLIST, RUN_LIMITS } from '@soong-agent/runner/defaults';

const result = await runCommand({ command: 'echo "$GREETING"', env: { GREETING: 'hi' } });
if (result.exitCode !== 0 || result.stdout !== 'hi\n') throw new Error(JSON.stringify(result));
// Where it runs (Linux, a system python3), the posix spawner (a python3 this process started,
// its program in the package) spawned the run; else the spawn helper did.
const first = await runCommand({ command: 'echo $PPID' });
const spawner = Number(first.stdout);
const byHelper = spawner === spawnHelperStatus().pid;
const byPython =
  process.platform === 'linux' &&
  fs.readFileSync(`/proc/${spawner}/comm`, 'utf8').startsWith('python3');
if (!byHelper && !byPython) throw new Error(`not spawned by the runner's spawner: ${first.stdout}`);
// The spawn helper ships in the tarball too: with the posix spawner off, it spawns the run.
setPosixSpawner(false);
const parent = await runCommand({ command: 'echo $PPID' });
const helper = spawnHelperStatus();
if (helper.state !== 'running' || parent.stdout !== `${helper.pid}\n`)
  throw new Error(`not spawned by the helper: ${JSON.stringify({ helper, parent })}`);
if (!DEFAULT_ENV_ALLOWLIST.includes('PATH') || RUN_LIMITS.timeoutMs.min !== 100)
  throw new Error('@soong-agent/runner/defaults');
console.log('ok @soong-agent/runner');
