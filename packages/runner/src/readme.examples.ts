/**
 * The README's usage examples, type-checked with the package (`pnpm typecheck`) and kept identical
 * to the README's blocks by `scripts/check-readme-examples.mjs` (`pnpm lint`). Never run: the
 * declarations below stand for the caller's paths, input and configuration.
 */
declare const projectDir: string;
declare const agentHome: string;
declare const hookInput: unknown;
declare const input: unknown;
declare const abortController: AbortController;
declare const loadedConfig: { envAllowlist: readonly string[] };
declare const answers: string[];
declare const logs: string[];

//#region runCommand_hook
import { RunnerError, runCommand } from '@soong-agent/runner';

try {
  const result = await runCommand({
    command: '~/.soong-agent/hooks/guard.sh',
    cwd: projectDir,
    allowedRoots: [projectDir, agentHome],
    input: JSON.stringify(hookInput),
    env: { SOONG_AGENT_HOME: agentHome, SOONG_AGENT_PROJECT_DIR: projectDir },
    timeoutMs: 10_000,
    killGraceMs: 1_000,
    maxOutputBytes: 1_048_576,
    stopOnOutputLimit: true,
    signal: abortController.signal,
  });
  if (result.timedOut) {
    /* failed: timeout */
  } else if (result.stdoutLimitExceeded) {
    /* failed: output_too_large */
  } else if (result.aborted) {
    /* failed: aborted */
  } else {
    /* decide from result.exitCode and result.stdout */
  }
} catch (error) {
  if (RunnerError.isInstance(error)) {
    // error.code: 'CWD_INVALID' → cwd_invalid, 'SPAWN_FAILED' → spawn_error; nothing ran
  }
  throw error;
}
//#endregion runCommand_hook

/** A declarative tool's run. */
export async function declarativeTool(): Promise<{ isError: boolean; tail: string }> {
  //#region runCommand_tool
  const result = await runCommand({
    command: 'npm test --silent', // or argv: ['npm', 'test', '--silent']
    cwd: projectDir,
    allowedRoots: [projectDir],
    envAllowlist: loadedConfig.envAllowlist,
    env: { SOONG_ARG_FILTER: 'parser' },
    input: JSON.stringify({ filter: 'parser' }),
    timeoutMs: 120_000,
  });
  const isError = result.exitCode !== 0;
  const tail = result.stdoutTail; // the last 8 KiB, even after a flood
  //#endregion runCommand_tool
  return { isError, tail };
}

//#region startWorker_usage
import { startWorker } from '@soong-agent/runner';

const worker = await startWorker({
  command: 'python3 policy.py',
  cwd: projectDir,
  allowedRoots: [projectDir],
  maxLineBytes: 1_048_576, // a longer stdout line calls onStdoutOverflow instead
  onStdoutLine: (line) => answers.push(line),
  onStderrLine: (line) => logs.push(line),
});
worker.writeLine(JSON.stringify({ id: 1, input }));
await worker.stop(); // stdin closed; SIGTERM after 100 ms; SIGKILL after killGraceMs
//#endregion startWorker_usage
