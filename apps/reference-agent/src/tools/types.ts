import type { CompiledHooks } from '@soong-agent/config';
import type { ToolDefinition } from '@soong-agent/loop-adapter';

/** What every tool of a session needs to know about where it runs. */
export interface ToolContext {
  /** Absolute project dir: relative paths resolve against it; `bash` runs in it. */
  projectDir: string;
  /** Absolute agent home: the write tools refuse paths inside it. */
  agentHome: string;
  /** The session id, passed to commands as `SOONG_AGENT_SESSION_ID`. */
  sessionId: string;
  /** Parent env variables commands may see (exact names). */
  envAllowlist: readonly string[];
  /** Per-stream output kept in memory by the runner. */
  maxOutputBytes: number;
  /** SIGTERM → SIGKILL grace of the runner. */
  killGraceMs: number;
  /**
   * The session's compiled hooks: the read tools ask them which path prefixes PreToolUse rules
   * guard, so that a walk or a swapped symlink does not reach where the rules' hooks did not look.
   */
  hooks: Pick<CompiledHooks, 'guardedPrefixes'>;
}

/** A tool of the reference agent: the loop-adapter definition plus what the model is shown. */
export interface AgentTool extends ToolDefinition {
  /** One line for the model. */
  readonly description: string;
  /** JSON Schema of the input object, for the model. */
  readonly inputSchema: Record<string, unknown>;
  /** Tags from config (declarative tools); the risk class is always added by the engine. */
  readonly tags?: readonly string[];
}
