#!/usr/bin/env node
// Entry point of `soong-agent`. Only commander is loaded up front: every command module is a
// dynamic import inside its action, and `--version` is answered before commander is loaded, so
// `--version` and `--help` stay close to a bare `node` start.
import { readFileSync } from 'node:fs';
import { hideProcessEnvironment } from '@soong-agent/runner/process-environment';

// Before anything can spawn: a hook or tool must not find the agent's secrets at
// /proc/$PPID/environ (the allowlist only governs the child's own environment).
hideProcessEnvironment();

// Commands that run hooks and tools; `hooks` runs them only in `hooks test`.
const RUNNING_COMMANDS = new Set(['run', 'chat', 'demo', 'mcp-proxy']);
// Commands that call a model: see keepWebAssemblyAtBaseline.
const MODEL_COMMANDS = new Set(['run', 'chat', 'demo']);

/**
 * Whether this command line will run hooks or tools (a quick look at the words, before commander
 * parses them: a wrong guess only starts or skips a process that the first run would start).
 */
function startsHookRuns(args: readonly string[]): boolean {
  if (args.some((arg) => arg === '--no-hooks' || arg === '--help' || arg === '-h')) return false;
  const command = commandWord(args);
  if (command === 'hooks') return args.includes('test');
  return command !== undefined && RUNNING_COMMANDS.has(command);
}

// The command of a command line, at a quick look: its first word that is not an option.
function commandWord(args: readonly string[]): string | undefined {
  return args.find((arg) => !arg.startsWith('-'));
}

/**
 * Starts the runner's spawn helper (a Node start of its own) now, alongside the loading of the
 * command's modules and config, so that it is up by the first tool call instead of being started
 * by it. The runner is loaded here, not up front: `--help` and `hooks validate` need none of it.
 */
function warmSpawnHelperNow(): void {
  import('@soong-agent/runner').then(
    ({ warmSpawnHelper }) => warmSpawnHelper(),
    () => {
      // the command loads the runner too, and reports what fails
    },
  );
}

/** Whether this command line may call a model (`run`, `chat`, `demo`), by the same quick look. */
function callsModels(args: readonly string[]): boolean {
  const command = commandWord(args);
  return command !== undefined && MODEL_COMMANDS.has(command);
}

/**
 * Keeps WebAssembly in this process at V8's baseline compiler (Liftoff). Node's `fetch` parses
 * HTTP with undici's llhttp, a WebAssembly module, and V8 by default recompiles its hot functions
 * with TurboFan on a background thread: about 180 ms of CPU in a session's first seconds (`perf`,
 * 2 vCPUs), taken from the first hooks and tools, which wait on processes of their own (a hook
 * took 9 ms there against 5 ms later). Baseline code parses an answer faster than it streams in.
 * Before the first model call; the CLI owns its process (a library must not change V8's flags).
 */
async function keepWebAssemblyAtBaseline(): Promise<void> {
  const { setFlagsFromString } = await import('node:v8');
  setFlagsFromString('--no-wasm-tier-up');
  setFlagsFromString('--no-wasm-dynamic-tiering');
}

function packageVersion(): string {
  const manifest = JSON.parse(
    readFileSync(new URL('../package.json', import.meta.url), 'utf8'),
  ) as { version: string };
  return manifest.version;
}

// `soong-agent run … --json | head` closes stdout early; the run still finishes and logs everything.
// Any other stdout failure (`> /dev/full`, a full disk) is one line on stderr and exit 1, not a
// stack trace; a run still finishes and logs everything.
let stdoutFailed = false;
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') return;
  if (!stdoutFailed)
    process.stderr.write(`soong-agent: cannot write to stdout: ${error.message}\n`);
  stdoutFailed = true;
  if (!process.exitCode) process.exitCode = 1;
});

const argv = process.argv.slice(2);
if (startsHookRuns(argv)) warmSpawnHelperNow();
if (callsModels(argv)) await keepWebAssemblyAtBaseline();
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
  // Only here is .git read (a few small files, no `git` process): a plain start reads nothing.
  const { describeVersion } = await import('./version.js');
  process.stdout.write(`${describeVersion(packageVersion(), new URL('..', import.meta.url))}\n`);
} else {
  const { main } = await import('./program.js');
  const code = await main(process.argv, packageVersion());
  process.exitCode = code === 0 && stdoutFailed ? 1 : code;
}
