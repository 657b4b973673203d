import type { NormalizedRunOptions } from './run-options.js';

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
}
