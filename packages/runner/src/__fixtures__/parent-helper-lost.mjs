// A host whose only work is one run, while its spawn helper is killed (argv "kill") or stopped
// (argv "stop") mid-run. It must neither exit 0 in the middle of the await nor hang: it prints
// how the run ended, then the next run's helper. argv: <runner entry URL> <kill|stop>
const [entryUrl, how] = process.argv.slice(2);
const runner = await import(entryUrl);
const { runCommand, spawnHelperStatus } = runner;
// The spawn helper's tests: the posix spawner (which would spawn from this process) off.
if (process.env.SOONG_AGENT_TEST_POSIX_SPAWNER === 'off') runner.setPosixSpawner(false);

process.on('exit', (code) => process.stdout.write(`exit ${code}\n`));
const run = runCommand({
  command: 'echo "$$" > started; sleep 600',
  cwd: process.cwd(),
  timeoutMs: 1000,
  killGraceMs: 100,
});
const waitFor = async (check) => {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 10));
};
const fs = await import('node:fs');
await waitFor(() => fs.existsSync('started') && fs.readFileSync('started', 'utf8').endsWith('\n'));
// A short run through the same helper: its answer comes after the first run's 'started' on the
// one channel, so the host knows the first run's group before the helper goes. (A helper killed in
// the instant between a spawn and that message leaves the group to run out: only the helper knew it.)
// (argv, not the string `true`: a builtin alone would run in this process, not in the helper.)
await runCommand({ command: ['true'], timeoutMs: 10_000 });
const helper = spawnHelperStatus().pid;
process.stdout.write(`run ${fs.readFileSync('started', 'utf8').trim()} helper ${helper}\n`);
process.kill(helper, how === 'stop' ? 'SIGSTOP' : 'SIGKILL');
try {
  const result = await run;
  process.stdout.write(`result ${JSON.stringify(result)}\n`);
} catch (error) {
  process.stdout.write(`rejected ${error.code} ${error.message}\n`);
}
const next = await runCommand({
  command:
    'p=$PPID; case $(cat /proc/$p/comm) in python3*) p=$(cut -d" " -f4 /proc/$p/stat);; esac; echo $p',
  timeoutMs: 10_000,
});
process.stdout.write(`next ${next.stdout.trim()} ${spawnHelperStatus().pid}\n`);
