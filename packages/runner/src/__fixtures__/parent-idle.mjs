// A parent process that runs one command and then has nothing left to do: it must end by itself,
// whether or not its spawn helper is still running. argv: <runner entry URL>
const [entryUrl] = process.argv.slice(2);
const { runCommand, spawnHelperStatus } = await import(entryUrl);

// argv: a program, spawned through the helper (the string `echo done` would spawn nothing).
const result = await runCommand({ command: ['echo', 'done'] });
process.stdout.write(`${result.stdout.trim()} ${spawnHelperStatus().state}\n`);
