// A parent process for the spawn helper's SIGKILL test.
// argv: <runner entry URL> <pid dir> <runs>
// Starts <runs> runs (each a shell with a background grandchild) and one worker (with a
// background child) at once, then prints "ready <JSON>" with the group ids of the runs and the
// worker and the spawn helper's pid, and waits to be killed.
import fs from 'node:fs';
import path from 'node:path';

const [entryUrl, pidDir, count] = process.argv.slice(2);
const runner = await import(entryUrl);
const { runCommand, startWorker, spawnHelperStatus } = runner;
// The spawn helper's tests: the posix spawner (which would spawn from this process) off.
if (process.env.SOONG_AGENT_TEST_POSIX_SPAWNER === 'off') runner.setPosixSpawner(false);

const runs = Number(count);
for (let n = 0; n < runs; n += 1) {
  const file = path.join(pidDir, `run-${n}`);
  void runCommand({
    command: `sleep 600 & echo "$$" > "$F.tmp" && mv "$F.tmp" "$F"; wait`,
    env: { F: file },
    timeoutMs: 0,
  });
}
let workerUp = false;
const worker = await startWorker({
  command: `sleep 600 & echo up; while :; do sleep 1; done`,
  onStdoutLine: (line) => {
    if (line === 'up') workerUp = true;
  },
});
const poll = setInterval(() => {
  const files = fs.readdirSync(pidDir).filter((name) => /^run-\d+$/.test(name));
  if (files.length < runs || !workerUp) return;
  clearInterval(poll);
  const groups = files.map((name) => Number(fs.readFileSync(path.join(pidDir, name), 'utf8')));
  const report = { runs: groups, worker: worker.pid, helper: spawnHelperStatus().pid };
  process.stdout.write(`ready ${JSON.stringify(report)}\n`);
}, 10);
setInterval(() => {}, 60_000);
