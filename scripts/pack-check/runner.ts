// A consumer of @soong-agent/runner alone, installed from its packed tarball.
import { runCommand, spawnHelperStatus } from '@soong-agent/runner';
import { DEFAULT_ENV_ALLOWLIST, RUN_LIMITS } from '@soong-agent/runner/defaults';

const result = await runCommand({ command: 'echo "$GREETING"', env: { GREETING: 'hi' } });
if (result.exitCode !== 0 || result.stdout !== 'hi\n') throw new Error(JSON.stringify(result));
// The spawn helper ships in the tarball and spawned the run.
const parent = await runCommand({ command: 'echo $PPID' });
const helper = spawnHelperStatus();
if (helper.state !== 'running' || parent.stdout !== `${helper.pid}\n`)
  throw new Error(`not spawned by the helper: ${JSON.stringify({ helper, parent })}`);
if (!DEFAULT_ENV_ALLOWLIST.includes('PATH') || RUN_LIMITS.timeoutMs.min !== 100)
  throw new Error('@soong-agent/runner/defaults');
console.log('ok @soong-agent/runner');
