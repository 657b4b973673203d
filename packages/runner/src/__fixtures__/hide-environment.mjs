// A parent process for the hideProcessEnvironment tests.
// argv: <runner entry URL> <mode> <helper>   mode "hide": hide first; "keep": do not (the control
// case); helper "on": runs go through the spawn helper, "off": spawned from here by Node, "posix":
// spawned from here through the posix spawner (the default where it runs).
// Prints one JSON line: what hideProcessEnvironment returned, what a child read at
// /proc/$PPID/environ (the spawn helper's, or this process's without it) and at this process's
// /proc/<pid>/environ, the child's own env, and what this process still sees in process.env.
const [entryUrl, mode, helper] = process.argv.slice(2);
const { runCommand, setPosixSpawner, setSpawnHelper } = await import(entryUrl);
// The subpath `@soong-agent/runner/process-environment`, beside the entry in dist.
const { hideProcessEnvironment } = await import(new URL('./process-environment.js', entryUrl).href);

setSpawnHelper(helper === 'on');
setPosixSpawner(helper === 'posix');
const hide = mode === 'hide' ? hideProcessEnvironment() : null;
const parentEnviron = await runCommand({
  command: `tr '\\000' '\\n' < /proc/$PPID/environ`,
  envAllowlist: ['PATH', 'ALLOWED_EXTRA'],
});
const hostEnviron = await runCommand({
  command: `tr '\\000' '\\n' < /proc/${process.pid}/environ`,
  envAllowlist: ['PATH', 'ALLOWED_EXTRA'],
});
const childEnv = await runCommand({ command: 'env', envAllowlist: ['PATH', 'ALLOWED_EXTRA'] });
process.stdout.write(
  `${JSON.stringify({
    hide,
    parentEnviron: parentEnviron.stdout,
    parentEnvironExit: parentEnviron.exitCode,
    hostEnviron: hostEnviron.stdout,
    childEnv: childEnv.stdout,
    secretInProcessEnv: process.env.HIDDEN_SECRET ?? null,
  })}\n`,
);
