import type { Readable } from 'node:stream';
import { buildChildEnv } from './child-env.js';
import { assertExecutable } from './executable.js';
import { stdinOf } from './input-file.js';
import { OutputCollector } from './output-collector.js';
import { posixSpawnerUsable, whenPosixSpawnerReady } from './posix-spawner.js';
import {
  type GroupEvents,
  type GroupExit,
  type GroupSpec,
  type ProcessGroup,
  startProcessGroup,
} from './process-group.js';
import { normalizeRunOptions, type RunOptions } from './run-options.js';
import { describeCommand, lostRun, type RunPlan } from './run-plan.js';
import { collectedResult, notStartedAbortedResult, type RunResult } from './run-result.js';
import { runScript } from './run-script.js';
import { RunnerError } from './runner-error.js';
import { type ShellFreeScript, shellFreeCommand, shellSignalReport } from './shell-free.js';
import { runThroughHelper, spawnHelperSetting, warmHelper } from './spawn-helper.js';
import { resolveWorkingDir } from './working-dir.js';

/**
 * Run one command in bounded time, in its own process group, with an allowlisted environment
 * and bounded output. Rejects only with {@link RunnerError} (`INVALID_OPTIONS`, `CWD_INVALID`,
 * `SPAWN_FAILED`), and then nothing was spawned (or, when the spawn helper died during the run,
 * what it spawned has been killed). When it settles, the group has been sent SIGKILL: no
 * background process of the command outlives the call.
 */
export async function runCommand(options: RunOptions): Promise<RunResult> {
  const normalized = normalizeRunOptions(options);
  const cwd = resolveWorkingDir(normalized.cwd, normalized.allowedRoots);
  const env = buildChildEnv({
    allowlist: normalized.envAllowlist,
    extra: normalized.env,
    parentEnv: normalized.parentEnv,
  });
  assertExecutable(normalized.file, cwd, env.PATH);
  if (normalized.signal?.aborted === true) return notStartedAbortedResult();
  const plan: RunPlan = {
    file: normalized.file,
    args: normalized.args,
    shell: normalized.shell,
    cwd,
    env,
    input: normalized.input,
    timeoutMs: normalized.timeoutMs,
    killGraceMs: normalized.killGraceMs,
    maxOutputBytes: normalized.maxOutputBytes,
    tailBytes: normalized.tailBytes,
    stopOnOutputLimit: normalized.stopOnOutputLimit,
  };
  const exec = normalized.shell ? shellFreeCommand(normalized.args[1] ?? '', cwd, env) : undefined;
  if (exec !== undefined) {
    plan.exec = exec;
    // What dash exports for a command it runs: its working dir (the real one, as getcwd gives it).
    plan.env = { ...env, PWD: cwd };
  }
  // Where the posix spawner runs, this process's children are started by it, whatever this
  // process's size (it forks nothing): the spawn helper is not needed, and its hop is saved.
  // (Asked only when something is to be spawned: it may start the posix spawner.)
  const throughHelper = (): boolean =>
    normalized.spawnHelper ?? (spawnHelperSetting() && !posixSpawnerUsable());
  if (exec?.steps.every((step) => step.file === undefined)) {
    // Builtins alone (`echo '{"decision":"allow"}'`, `exit 2`): nothing to spawn, so no helper
    // and none of its two messages. Under the shell (no input file could be written) it spawns.
    const { exec: _exec, ...shellPlan } = plan;
    return runScript({ ...plan, exec }, normalized.signal, undefined, () =>
      throughHelper()
        ? runThroughHelper(shellPlan, normalized.signal, runPlan)
        : runPlan(shellPlan, normalized.signal),
    );
  }
  if (throughHelper()) return runThroughHelper(plan, normalized.signal, runPlan);
  return runPlan(plan, normalized.signal);
}

/**
 * Spawn `plan` in this process and collect it. `onStarted` hears the group id and how to stop the
 * run as `killAllRuns` would (the spawn helper relays both to the host).
 */
export function runPlan(
  plan: RunPlan,
  signal: AbortSignal | undefined,
  onStarted?: (pid: number, stop: (signal: NodeJS.Signals) => void) => void,
): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    // Aborted while it waited (for the spawn helper): nothing is spawned.
    if (signal?.aborted === true) {
      resolve(notStartedAbortedResult());
      return;
    }
    // Not one plain program: the script's steps, one after the other.
    const single = plan.exec === undefined ? undefined : singleProgram(plan.exec);
    if (plan.exec !== undefined && single === undefined) {
      const { exec: _exec, ...shellPlan } = plan;
      resolve(
        runScript({ ...plan, exec: plan.exec }, signal, onStarted, () =>
          runPlan(shellPlan, signal, onStarted),
        ),
      );
      return;
    }
    const startedAt = performance.now();
    const stdin = stdinOf(plan.input);
    const stdout = new OutputCollector(plan.maxOutputBytes, plan.tailBytes);
    const stderr = new OutputCollector(plan.maxOutputBytes, plan.tailBytes);
    let timedOut = false;
    let aborted = false;
    let stdoutLimitExceeded = false;
    let timeoutTimer: NodeJS.Timeout | undefined;
    let group: ProcessGroup | undefined;

    // Once the direct child has exited the run is complete: a late abort only hastens the
    // group kill that settling does anyway, and does not turn the result into an abort.
    const onAbort = (): void => {
      if (group === undefined || group.exit !== undefined) return;
      aborted = true;
      group.terminate('SIGTERM');
    };
    let stopBeforeStart: NodeJS.Signals | undefined;
    const stop = (stopSignal: NodeJS.Signals): void => {
      if (group === undefined) {
        // The core stops a group it has just spawned, before it is handed over here.
        stopBeforeStart = stopSignal;
        return;
      }
      if (group.exit === undefined) aborted = true;
      group.terminate(stopSignal);
    };
    const events: GroupEvents = {
      onExit: () => clearTimeout(timeoutTimer),
      onStop: stop,
      onSettle(exit) {
        clearTimeout(timeoutTimer);
        signal?.removeEventListener('abort', onAbort);
        stdin.close();
        if (group?.lost !== undefined) {
          reject(lostRun(plan, group.lost));
          return;
        }
        // A group the runner signalled (abort, stop, timeout, output limit) ended as it did.
        const signalled = aborted || timedOut || stdoutLimitExceeded;
        const ended = plan.exec === undefined || signalled ? exit : asShellReports(exit, stderr);
        resolve(
          collectedResult(
            ended,
            { timedOut, aborted, stdoutLimitExceeded },
            stdout,
            stderr,
            startedAt,
          ),
        );
      },
    };
    const spec: GroupSpec = {
      file: single?.file ?? plan.file,
      args: single?.args ?? plan.args,
      ...(single === undefined ? {} : { argv0: single.argv0 }),
      cwd: plan.cwd,
      env: plan.env,
      stdio: [stdin.value, 'pipe', 'pipe'],
      killGraceMs: plan.killGraceMs,
    };
    startProcessGroup(spec, events).then(
      (started) => {
        group = started;
        const collect = (stream: Readable | null, collector: OutputCollector, isStdout: boolean) =>
          stream?.on('data', (chunk: Buffer | string) => {
            if (started.settled) return;
            if (collector.push(chunk) && isStdout && plan.stopOnOutputLimit) {
              stdoutLimitExceeded = true;
              started.terminate('SIGKILL');
            }
          });
        collect(started.stdout, stdout, true);
        collect(started.stderr, stderr, false);
        // Only when no input file could be written: a child that never reads it is fine.
        if (stdin.value === 'pipe') started.stdin?.end(plan.input);
        if (plan.timeoutMs > 0) {
          timeoutTimer = setTimeout(() => {
            timedOut = true;
            started.terminate('SIGTERM');
          }, plan.timeoutMs);
        }
        onStarted?.(started.pid, stop);
        if (stopBeforeStart !== undefined) stop(stopBeforeStart);
        // Aborted before the group was handed over here: the same as an abort now.
        if (signal?.aborted === true) onAbort();
        else signal?.addEventListener('abort', onAbort, { once: true });
      },
      (error: unknown) => {
        stdin.close();
        // The spawner died before it said whether it started the child: never run it again.
        if (RunnerError.isInstance(error)) {
          reject(error);
          return;
        }
        // Not spawnable without the shell after all (a `#!` interpreter that is missing, a file
        // gone since it was found): the shell runs it, and fails the way it does.
        if (plan.exec !== undefined) {
          const { exec: _exec, ...shellPlan } = plan;
          resolve(runPlan(shellPlan, signal, onStarted));
        } else reject(spawnFailed(plan, error));
      },
    );
  });
}

// A script of one program and no redirection: spawned as the plan's own group, as before scripts.
function singleProgram(
  script: ShellFreeScript,
): { file: string; args: string[]; argv0: string } | undefined {
  const [step, ...more] = script.steps;
  if (step === undefined || more.length > 0 || step.file === undefined) return undefined;
  if (step.redirects.length > 0) return undefined;
  const [argv0, ...args] = step.words;
  return argv0 === undefined ? undefined : { file: step.file, args, argv0 };
}

function spawnFailed(plan: RunPlan, cause: unknown): RunnerError {
  const what = describeCommand(plan);
  const reason = cause instanceof Error ? cause.message : String(cause);
  return new RunnerError({
    code: 'SPAWN_FAILED',
    message: `could not start ${what}: ${reason}`,
    cause,
  });
}

// A program run without the shell that a signal ended (not the runner's): reported as dash reports
// it, exit status 128+N and the signal's description on stderr.
function asShellReports(exit: GroupExit, stderr: OutputCollector): GroupExit {
  if (exit.signal === null) return exit;
  const report = shellSignalReport(exit.signal);
  if (report === undefined) return exit;
  if (report.stderrLine !== undefined) stderr.push(report.stderrLine);
  return { code: report.exitCode, signal: null };
}

/**
 * Starts what spawns this process's children now, so that the first run does not wait for it: the
 * posix spawner where it can run (a Python start, ~30 ms; once ready, a throwaway run warms every
 * path the first hook takes), else the spawn helper when it is on and
 * none is running or starting (a Node start: 50–300 ms on a small, busy machine). A
 * host calls it when it knows runs will come (a session with command hooks), off its critical
 * path. Returns at once; never keeps the host alive; never throws (a helper that cannot start is
 * said once through {@link onRunnerWarning}, and runs then spawn from the host).
 */
export function warmSpawnHelper(): void {
  if (posixSpawnerUsable()) whenPosixSpawnerReady(warmUpRun);
  else warmHelper();
}

// A no-op through the whole path of a hook's run (the plan, the input file, a redirection, the
// spawner's first spawn, the collectors), its result dropped.
function warmUpRun(): void {
  runCommand({ command: 'cat >/dev/null', input: '{}', cwd: '/', timeoutMs: 5000 }).catch(noop);
}

function noop(): void {}
