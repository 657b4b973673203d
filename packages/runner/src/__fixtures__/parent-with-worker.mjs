// A parent process for the worker SIGKILL test.
// argv: <runner entry URL>
// Starts a worker that ignores stdin EOF and SIGTERM and forks a background child, prints
// "ready <group id>" once both are running, then waits to be killed.
const [entryUrl] = process.argv.slice(2);
const { startWorker } = await import(entryUrl);

const worker = await startWorker({
  command: `trap '' TERM; sleep 600 & echo up; while :; do sleep 1; done`,
  onStdoutLine: (line) => {
    if (line === 'up') process.stdout.write(`ready ${worker.pid}\n`);
  },
});
setInterval(() => {}, 60_000);
