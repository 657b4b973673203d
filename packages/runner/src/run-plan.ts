import type { NormalizedRunOptions } from './run-options.js';
import { RunnerError } from './runner-error.js';
import type { ShellFreeScript } from './shell-free.js';

/**
 * One run, checked and resolved: what the host sends to the spawn helper, and what
 * `runPlan` (run-command.ts) runs in whichever process spawns. A module of its own so the spawn
 * helper and the runner both name it without importing each other.
 */
export interface RunPlan
  extends Pick<
    NormalizedRunOptions,
    | 'file'
    | 'args'
    | 'shell'
    | 'input'
    | 'timeoutMs'
    | 'killGraceMs'
    | 'maxOutputBytes'
    | 'tailBytes'
    | 'stopOnOutputLimit'
  > {
  /** Absolute, checked. */
  cwd: string;
  /** The child's exact environment. */
  env: Record<string, string>;
  /**
   * A shell command whose effect under the shell is known exactly: run without the shell (see
   * shell-free.ts). When its first program cannot be spawned, `file` and `args` (the shell) run
   * it instead.
   */
  exec?: ShellFreeScript;
}

/** The command of a plan as messages name it: the shell's path, or the program's as JSON. */
export function describeCommand(plan: RunPlan): string {
  return plan.shell ? plan.file : JSON.stringify(plan.file);
}

/** A run whose spawner died under it (see ProcessGroup.lost): `HELPER_FAILED`, saying why. */
export function lostRun(plan: RunPlan, why: string): RunnerError {
  return new RunnerError({
    code: 'HELPER_FAILED',
    message: `could not finish ${describeCommand(plan)}: ${why}`,
  });
}
