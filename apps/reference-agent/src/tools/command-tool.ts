import type { ToolExecutionResult } from '@soong-agent/loop-adapter';
import type { RunResult } from '@soong-agent/runner';
import type { ToolContext } from './types.js';

// Loaded by the first command a tool runs, not with the tools: `hooks validate` builds the tool
// registry and runs nothing (a host that runs tools has loaded the runner at its start anyway).
let runner: Promise<typeof import('@soong-agent/runner')> | undefined;
function loadRunner(): Promise<typeof import('@soong-agent/runner')> {
  runner ??= import('@soong-agent/runner');
  return runner;
}

/** Characters of output an `is_error` result of a failed command carries (the tails of stdout and stderr, shared). */
export const ERROR_OUTPUT_TAIL_CHARS = 4000;

/** The `SOONG_AGENT_*` variables every tool command gets. */
export function toolEnv(
  context: ToolContext,
  toolName: string,
  callId: string,
): Record<string, string> {
  return {
    SOONG_AGENT_HOME: context.agentHome,
    SOONG_AGENT_PROJECT_DIR: context.projectDir,
    SOONG_AGENT_SESSION_ID: context.sessionId,
    SOONG_AGENT_TOOL_NAME: toolName,
    SOONG_AGENT_TOOL_CALL_ID: callId,
  };
}

function combinedOutput(result: RunResult): string {
  const parts: string[] = [];
  if (result.stdout !== '') parts.push(result.stdout);
  if (result.stderr !== '') parts.push(`[stderr]\n${result.stderr}`);
  for (const [stream, truncated, bytes] of [
    ['stdout', result.stdoutTruncated, result.stdoutBytes],
    ['stderr', result.stderrTruncated, result.stderrBytes],
  ] as const) {
    if (truncated) parts.push(`[${stream}: ${bytes} bytes produced; only the first part was kept]`);
  }
  return parts.join('\n');
}

// A failure is explained by the end of each stream. After a flood the kept part is only the head,
// and the runner's tails hold the real end; the budget is shared so stderr cannot crowd out stdout.
function failureOutput(result: RunResult): string {
  const streams = (
    [
      ['stdout', result.stdout, result.stdoutTail, result.stdoutTruncated, result.stdoutBytes],
      ['stderr', result.stderr, result.stderrTail, result.stderrTruncated, result.stderrBytes],
    ] as const
  )
    .map(([stream, kept, tail, truncated, bytes]) => ({
      stream,
      text: truncated ? tail : kept,
      truncated,
      bytes,
    }))
    .filter((entry) => entry.text !== '');
  const budget = Math.floor(ERROR_OUTPUT_TAIL_CHARS / Math.max(1, streams.length));
  return streams
    .map(({ stream, text, truncated, bytes }) => {
      const cut = text.length > budget ? `…${text.slice(-budget)}` : text;
      if (truncated) return `[${stream}: the end of ${bytes} bytes]\n${cut}`;
      return stream === 'stdout' ? cut : `[${stream}]\n${cut}`;
    })
    .join('\n');
}

function outcomeText(result: RunResult, timeoutSec: number): string | undefined {
  if (result.timedOut) return `timed out after ${timeoutSec}s; the process group was killed`;
  if (result.aborted) return 'cancelled; the process group was killed';
  if (result.signal !== null) return `killed by ${result.signal}`;
  if (result.exitCode !== 0) return `exit code ${result.exitCode}`;
  return undefined;
}

/**
 * Runs a tool command through the runner (project dir as cwd and only allowed root, the configured
 * env allowlist, a timeout) and turns the run into a tool result: stdout and stderr; on a non-zero
 * exit, a timeout or a signal an `is_error` result with the exit code and the output's tail.
 */
export async function runToolCommand(
  context: ToolContext,
  options: {
    command: string | readonly string[];
    toolName: string;
    callId: string;
    timeoutSec: number;
    input?: string;
    env?: Record<string, string>;
    signal?: AbortSignal;
  },
): Promise<ToolExecutionResult> {
  const { RunnerError, runCommand } = await loadRunner();
  let result: RunResult;
  try {
    result = await runCommand({
      command: options.command,
      cwd: context.projectDir,
      allowedRoots: [context.projectDir],
      envAllowlist: context.envAllowlist,
      env: { ...toolEnv(context, options.toolName, options.callId), ...options.env },
      input: options.input,
      timeoutMs: options.timeoutSec * 1000,
      killGraceMs: context.killGraceMs,
      maxOutputBytes: context.maxOutputBytes,
      signal: options.signal,
    });
  } catch (error) {
    // The runner rejects only when nothing was spawned (invalid working dir, options).
    const code = RunnerError.isInstance(error) ? `${error.code}: ` : '';
    return { content: `not run: ${code}${(error as Error).message}`, isError: true };
  }
  const failure = outcomeText(result, options.timeoutSec);
  if (failure === undefined) return { content: combinedOutput(result), isError: false };
  const tail = failureOutput(result);
  return { content: tail === '' ? failure : `${failure}\n${tail}`, isError: true };
}
