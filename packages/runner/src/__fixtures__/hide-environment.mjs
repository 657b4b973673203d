// A parent process for the hideProcessEnvironment tests.
// argv: <runner entry URL> <mode>   mode "hide": hide first; "keep": do not (the control case)
// Prints one JSON line: what hideProcessEnvironment returned, what a child read at
// /proc/$PPID/environ, the child's own env, and what this process still sees in process.env.
const [entryUrl, mode] = process.argv.slice(2);
const { hideProcessEnvironment, runCommand } = await import(entryUrl);

const hide = mode === 'hide' ? hideProcessEnvironment() : null;
const parentEnviron = await runCommand({
  command: `tr '\\000' '\\n' < /proc/$PPID/environ`,
  envAllowlist: ['PATH', 'ALLOWED_EXTRA'],
});
const childEnv = await runCommand({ command: 'env', envAllowlist: ['PATH', 'ALLOWED_EXTRA'] });
process.stdout.write(
  `${JSON.stringify({
    hide,
    parentEnviron: parentEnviron.stdout,
    parentEnvironExit: parentEnviron.exitCode,
    childEnv: childEnv.stdout,
    secretInProcessEnv: process.env.HIDDEN_SECRET ?? null,
  })}\n`,
);
