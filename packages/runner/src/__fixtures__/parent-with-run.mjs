// A parent process for the exit-time cleanup tests.
// argv: <runner entry URL> <pid file> <mode>
//   mode "wait":        start a long run and wait to be signalled
//   mode "exit":        start a long run, then process.exit(0) while it is in flight
//   mode "own-handler": like "wait", with its own SIGTERM listener; after each signal it waits
//                       for the run to settle, then starts the next run; it exits 0 once two
//                       runs have settled after two signals (exit 1 if that never happens)
//   mode "with-execa":  like "wait", with a plain execa child alive too (execa's default cleanup
//                       loads signal-exit: another exit-time listener in the same process)
// Prints "ready <shell pid> <grandchild pid>" once a run is up, "settled <result>" when it ends.
import fs from 'node:fs';

const [entryUrl, pidFile, mode] = process.argv.slice(2);
const { runCommand } = await import(entryUrl);

let signals = 0;
if (mode === 'own-handler') {
  process.on('SIGTERM', () => {
    signals += 1;
    process.stdout.write('own handler\n');
    setTimeout(() => process.exit(1), 60_000).unref();
  });
}
if (mode === 'with-execa') {
  const { execa } = await import('execa');
  execa('sleep', ['600']).catch(() => {});
}

/** Start run `n`: the shell writes its own pid (the group leader) and a grandchild's, then waits. */
function start(n) {
  const file = `${pidFile}.${n}`;
  runCommand({
    command: `sleep 600 & echo "$$ $!" > "$PID_FILE.tmp" && mv "$PID_FILE.tmp" "$PID_FILE"; wait`,
    env: { PID_FILE: file },
    timeoutMs: 0,
  }).then((result) => {
    process.stdout.write(`settled ${JSON.stringify(result)}\n`);
    if (mode !== 'own-handler' || signals < n) return;
    if (n === 1) start(2);
    else process.exit(0);
  });
  const poll = setInterval(() => {
    if (!fs.existsSync(file)) return;
    clearInterval(poll);
    process.stdout.write(`ready ${fs.readFileSync(file, 'utf8').trim()}\n`);
    if (mode === 'exit') process.exit(0);
  }, 10);
}

start(1);
