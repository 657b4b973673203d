// A parent process that runs one command and then has nothing left to do: it must end by itself,
// whether or not its spawn helper is still running. argv: <runner entry URL>
const [entryUrl] = process.argv.slice(2);
const runner = await import(entryUrl);
const { runCommand, spawnHelperStatus } = runner;
// The spawn helper's tests: the posix spawner (which would spawn from this process) off.
if (process.env.SOONG_AGENT_TEST_POSIX_SPAWNER === 'off') runner.setPosixSpawner(false);

// argv: a program, spawned through the helper (the string `echo done` would spawn nothing).
const result = await runCommand({ command: ['echo', 'done'] });
process.stdout.write(`${result.stdout.trim()} ${spawnHelperStatus().state}\n`);
