// Run under Bun by bun-runtime.test.ts: the runner's cases a host in Bun (OpenCode) relies on,
// printed as one JSON object. argv: <runner entry URL> <scratch dir>.
import fs from 'node:fs';
import path from 'node:path';

const [entryUrl, scratch] = process.argv.slice(2);
const runner = await import(entryUrl);
const warnings = [];
runner.onRunnerWarning((warning) => warnings.push(warning));

const out = {
  runtime: process.versions.bun === undefined ? 'node' : `bun ${process.versions.bun}`,
};

// A hook that hangs, with a grandchild in the background: killed at the timeout, group and all.
const pidFile = path.join(scratch, 'grandchild.pid');
const hang = await runner.runCommand({
  command: `sleep 300 & echo $! > '${pidFile}'; echo started; sleep 300`,
  timeoutMs: 700,
  killGraceMs: 300,
});
const grandchild = Number(fs.readFileSync(pidFile, 'utf8'));
// The test checks from outside that it is gone (a zombie left to init counts as gone).
out.hang = { timedOut: hang.timedOut, stdout: hang.stdout, grandchild };

// A flood: counted, kept to the limit, drained.
const flood = await runner.runCommand({
  command: 'head -c 20000000 /dev/zero | tr "\\0" x',
  timeoutMs: 60_000,
  maxOutputBytes: 4096,
});
out.flood = {
  exitCode: flood.exitCode,
  kept: flood.stdout.length,
  bytes: flood.stdoutBytes,
  truncated: flood.stdoutTruncated,
};
// A flood stopped at the limit (hooks ask for that).
const stopped = await runner.runCommand({
  command: 'yes',
  timeoutMs: 60_000,
  maxOutputBytes: 4096,
  stopOnOutputLimit: true,
});
out.stopped = { limitExceeded: stopped.stdoutLimitExceeded, timedOut: stopped.timedOut };

// A deny on stdout, stdin given, a character split across chunks, and the env allowlist.
const deny = await runner.runCommand({
  command:
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the shell's ${VAR:-default}, in a plain string
    'cat >/dev/null; printf "é"; echo \'{"decision":"deny","reason":"no rm -rf"}\'; echo "secret=${BUN_TEST_SECRET:-unset}" >&2; exit 2',
  input: '{"event":"PreToolUse"}',
  timeoutMs: 10_000,
  parentEnv: { ...process.env, BUN_TEST_SECRET: 'hunter2' },
});
out.deny = { exitCode: deny.exitCode, stdout: deny.stdout, stderr: deny.stderr };

// A working dir outside the allowed roots: nothing is spawned.
try {
  await runner.runCommand({ command: 'true', cwd: '/', allowedRoots: [scratch] });
  out.cwd = 'spawned';
} catch (error) {
  out.cwd = runner.RunnerError.isInstance(error) ? error.code : String(error);
}

// A worker hook: lines both ways, stopped at EOF.
const lines = [];
const worker = await runner.startWorker({
  command: 'while read -r line; do echo "got $line"; done',
  onStdoutLine: (line) => lines.push(line),
});
worker.writeLine('one');
worker.writeLine('two');
for (let i = 0; i < 200 && lines.length < 2; i += 1)
  await new Promise((resolve) => setTimeout(resolve, 25));
const workerExit = await worker.stop();
out.worker = { lines, exitCode: workerExit.exitCode };

// A worker that hangs on EOF: its group is killed.
const stubborn = await runner.startWorker({
  command: 'trap "" TERM; sleep 300 & wait',
  killGraceMs: 200,
});
const stubbornExit = await stubborn.stop(50);
out.stubbornWorker = { signal: stubbornExit.signal, pid: stubborn.pid };

out.helper = runner.spawnHelperStatus();
out.warnings = warnings.map((warning) => warning.code);
console.log(JSON.stringify(out));
