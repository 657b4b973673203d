// A parent process for the exit-time cleanup tests.
// argv: <runner entry URL> <pid file> <mode>
//   mode "wait":        start a long run and wait to be signalled
//   mode "exit":        start a long run, then process.exit(0) while it is in flight
//   mode "own-handler": like "wait", with its own SIGTERM listener; it exits 0 once the run has
//                       settled after the signal (exit 1 if that never happens)
import fs from 'node:fs';

const [entryUrl, pidFile, mode] = process.argv.slice(2);
const { runCommand } = await import(entryUrl);

let signalled = false;
if (mode === 'own-handler') {
  process.on('SIGTERM', () => {
    signalled = true;
    process.stdout.write('own handler\n');
    setTimeout(() => process.exit(1), 60_000).unref();
  });
}

// The shell writes its own pid (the group leader) and a grandchild's, then waits forever.
runCommand({
  command: `sleep 600 & echo "$$ $!" > "$PID_FILE.tmp" && mv "$PID_FILE.tmp" "$PID_FILE"; wait`,
  env: { PID_FILE: pidFile },
  timeoutMs: 0,
}).then((result) => {
  process.stdout.write(`settled ${JSON.stringify(result)}\n`);
  if (signalled) process.exit(0);
});

const poll = setInterval(() => {
  if (!fs.existsSync(pidFile)) return;
  clearInterval(poll);
  process.stdout.write(`ready ${fs.readFileSync(pidFile, 'utf8').trim()}\n`);
  if (mode === 'exit') process.exit(0);
}, 10);
