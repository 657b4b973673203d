// A consumer of @soong-agent/runner alone, installed from its packed tarball.
import { runCommand } from '@soong-agent/runner';

const result = await runCommand({ command: 'echo "$GREETING"', env: { GREETING: 'hi' } });
if (result.exitCode !== 0 || result.stdout !== 'hi\n') throw new Error(JSON.stringify(result));
console.log('ok @soong-agent/runner');
