import type { HookEvent } from '@soong-agent/protocol';

/**
 * The dialects this package ships (spec §12). A third party's dialect registered with
 * `registerDialect` has a name of its own; `DIALECT_NAMES` lists every registered name.
 */
export type BuiltInDialectName =
  | 'soong'
  | 'claude-code'
  | 'codex'
  | 'gemini'
  | 'cursor'
  | 'copilot';

/**
 * How the host says one dialect sees a tool call (spec §11: `ToolDefinition.dialectName` and
 * `dialectInput`), resolved for this dialect by the engine.
 */
export interface DialectToolView {
  /**
   * The tool's name in this dialect (`dialectName[<dialect>]`). Default: the dialect's `toolNames`
   * entry for our name, else our name. A declared name that is one of the dialect's own tools gets
   * that tool's input conversion.
   */
  name?: string;
  /**
   * The call's input in the shape of our canonical tool of the same kind (e.g. `{ command }` for
   * `bash`), which the dialect converts like that tool's input. Default: the input as given.
   */
  input?: unknown;
}

/** What an encoder or `env` needs besides the event's own fields. */
export interface DialectContext {
  /** The session id. */
  sessionId: string;
  /** The absolute project dir: the hook's `cwd`, and the base of relative tool paths. */
  projectDir: string;
  /** The absolute agent home. */
  agentHome: string;
  /** `<home>/sessions/<id>/transcript.jsonl`, kept current in Claude Code's line format. */
  transcriptPath: string;
  /** The id of the hook this input is for. */
  hookId: string;
  /**
   * How the host says this dialect sees the call's tool; absent: the dialect's default mapping by
   * our canonical name and input.
   */
  tool?: DialectToolView;
  /**
   * The agent's own event name the hook was written for (hooks.json `dialect_event`), when several
   * of the agent's events map onto one of ours (Cursor's `beforeShellExecution` and `preToolUse`
   * are both PreToolUse); absent: the dialect's main event for ours.
   */
  dialectEvent?: string;
  /** The current model turn's id, when the host knows it (Codex). */
  turnId?: string;
  /** The model in use, when the host knows it (Codex). */
  model?: string;
}

/**
 * A hook process that ran to its end. The engine has already handled a run that never started, was
 * cancelled, ran past its timeout or printed too much: a dialect only reads what came back.
 */
export interface DialectRun {
  /** The exit code, or null when a signal ended the process. */
  exitCode: number | null;
  /** The signal that ended the process, or null. */
  signal: string | null;
  /** Everything the hook printed on stdout (at most `max_output_bytes`). */
  stdout: string;
  /** The last 8 KiB of its stderr (the engine records it; a dialect may use it, e.g. as a reason). */
  stderrTail: string;
  /** All bytes it wrote to stderr. */
  stderrBytes: number;
}

/** One `hook_log` line a decision adds, in order. The engine bounds each message. */
export interface DialectLog {
  /** `logs`: the hook's own log lines or plain stdout; `warning`: what we noticed about the output. */
  source: 'logs' | 'warning';
  message: string;
}

/**
 * What a run means, in our terms (spec §2.2, §7, §12). The engine turns it into records
 * (`hook_log`, `hook_finished` | `hook_failed`, `hook_denied` | `hook_decision_ignored`), bounds the
 * reason, fills in `denied by hook <id>` for a deny without one and applies `on_failure`. A dialect
 * writes no records.
 */
export interface DialectVerdict {
  /**
   * `ask` (PreToolUse only): the permission callback is asked even when the risk class is `allow`;
   * on other events it counts as no decision.
   */
  decision: 'allow' | 'deny' | 'none' | 'ask';
  /** Why (the deny reason, or the reason given with an allow or ask). */
  reason?: string;
  /** `metadata` recorded with the decision. */
  metadata?: Record<string, unknown>;
  /**
   * Set when the run failed: a non-zero exit that is not a block (`exit_code`), output that cannot
   * decide (`protocol_error`). With `decision: 'deny'` the deny still stands (spec §2.2: an
   * intended deny is never lost); otherwise `decision` is `none`.
   */
  failure?: { kind: 'exit_code' | 'protocol_error'; message: string };
  /** `exit_code` of `hook_finished`: 0, or 2 for an exit-2 block. Default: the run's exit code, else 0. */
  exitCode?: number;
  /** `hook_log` lines, in order: the hook's log lines, then warnings. */
  logs: DialectLog[];
  /**
   * Text the agent would give its model (spec §13.1): Claude Code's
   * `hookSpecificOutput.additionalContext`, the plain stdout of a SessionStart or UserPromptSubmit
   * hook, a PostToolUse block reason, soong's `context`. Several pieces of one run are joined by a
   * blank line. The engine delivers it as a hook-context node when `[hooks] deliver_context` is
   * true, and drops it with one warning otherwise; it never changes the decision.
   */
  context?: string;
  /**
   * Unknown output keys the engine reports in one warning, once per hook and session (after the
   * `logs` lines, before the warnings). A dialect that reports ignored keys on every run puts its
   * own warning in `logs` instead.
   */
  unknownKeys?: string[];
}

/** Options of {@link Dialect.convertConfig}. */
export interface ConvertOptions {
  /** The file the text came from, named in notes (and used to resolve relative script paths). */
  file?: string;
  /**
   * The text is a plugin's hooks file: its root (for `${CLAUDE_PLUGIN_ROOT}`-style variables), or
   * `true` when the root is the file's folder.
   */
  plugin?: { root: string } | boolean;
  /**
   * Where the source agent loads the file from: `user` (the user's home, e.g. `~/.cursor/`, where
   * Cursor runs user-level hooks, so their relative commands are made absolute) or `project`.
   */
  scope?: 'user' | 'project';
  /**
   * The user's OS home: a path the converter writes that lies under it (a Cursor user hook's
   * script, a Copilot hook's `cwd`) is written `~/…`, as the other converters keep it, not pinned
   * to one machine's home folder. Absent: paths are written absolute.
   */
  home?: string;
  /**
   * Record where each converted hook came from: every hook gets
   * `"imported_from": { "file": origin, "path": "<JSON path of the source hook>" }`, so a later
   * import of the same file can update the rule it made instead of adding a second one. The CLI
   * passes the source file as the user would type it (`~/.claude/settings.json`). Absent: nothing
   * is recorded.
   */
  origin?: string;
}

/** What {@link Dialect.convertConfig} gives back. */
export interface ConvertResult {
  /**
   * A complete hooks.json object (`{ "version": 1, "hooks": { <Event>: [rules] } }`); every hook
   * in it has `"protocol"` set.
   */
  hooks: { version: 1; hooks: Record<string, unknown[]> };
  /** What was not converted: the JSON path in the source and why. */
  refused: { path: string; reason: string }[];
  /** What will not happen here that would in the source agent, per converted hook (named). */
  notes: string[];
  /**
   * Programs the converted hooks run directly (a path, not through an interpreter), as written,
   * for a caller that can look at the disk: `hooks import` checks their exec bit (Copilot CLI runs
   * a script without one; /bin/sh here does not). Filled by converters whose agent differs there.
   * @default undefined
   */
  scripts?: ConvertedScript[];
}

/** A program a converted hook runs directly (see {@link ConvertResult.scripts}). */
export interface ConvertedScript {
  /** The JSON path of the hook in the source file. */
  path: string;
  /** The converted hook's `name`, when it has one. */
  hook?: string;
  /** The program as written (`./scripts/guard.sh`, `~/bin/x.sh`, `/opt/x.sh`). */
  program: string;
  /** The hook's working dir as written (`cwd`), when it has one; relative to the project. */
  workingDir?: string;
}

/**
 * One agent's hook protocol and config format (spec §12). Matching, ordering, timeouts, the runner,
 * env allowlist, records and deny semantics stay the engine's; a dialect only translates.
 */
export interface Dialect {
  /** The `"protocol"` value in hooks.json. */
  readonly name: string;
  /** Our tool names → this agent's (frozen). A tool not listed keeps its own name. */
  readonly toolNames: Readonly<Record<string, string>>;
  /**
   * This agent's tool names → ours, where that is more than the inverse of `toolNames` (Claude
   * Code's `MultiEdit` → `edit_file`). Default: the inverse of `toolNames`. Frozen.
   */
  readonly ourToolNames?: Readonly<Record<string, string>>;
  /** This agent's event names → ours (for converters and `hook_event_name`; frozen). */
  readonly events: Readonly<Record<string, HookEvent>>;
  /**
   * Bytes of a tool input this dialect's hooks get whole (the agent passes it whole). Beyond it the
   * hook's `on_large_input` decides. Default: `hooks.inline_result_bytes` (long strings summarised,
   * spec §2.1).
   */
  readonly toolInputBytes?: number;
  /**
   * The event this agent runs for a tool call whose result is an error (spec §13.2).
   * `PostToolUseFailure`: its PostToolUse hooks see only results that succeeded (Claude Code,
   * Copilot CLI, Cursor); `PostToolUse`: they see failed results too (soong, Codex, Gemini CLI).
   * Either way our PostToolUseFailure event runs for every failed result.
   * @default 'PostToolUse'
   */
  readonly failedToolEvent?: 'PostToolUse' | 'PostToolUseFailure';
  /**
   * The stdin value of one run (the engine serialises it as one compact JSON line). `input` is our
   * §2.1 input object (the tool input already bounded).
   */
  encodeInput(
    event: HookEvent,
    input: Readonly<Record<string, unknown>>,
    context: DialectContext,
  ): unknown;
  /**
   * Our events on which this agent gives its model context a hook adds (spec §13.1: what `decide`
   * may report as `context`); `hooks import` names the converted hooks on them. Frozen.
   * @default [] (none)
   */
  readonly contextEvents?: readonly HookEvent[];
  /** Env vars this agent sets for its hooks (`CLAUDE_PROJECT_DIR`, …), added to ours. */
  env(context: DialectContext): Record<string, string>;
  /** What a finished process's exit code and output mean. Pure. */
  decide(event: HookEvent, run: DialectRun): DialectVerdict;
  /**
   * What a worker's answer (`output` of `{"id": N, "output": ...}`, spec §8) means. Present only on
   * a dialect whose hooks may run as `"mode": "worker"` (today `soong`). Pure.
   */
  decideAnswer?(event: HookEvent, output: unknown): DialectVerdict;
  /** Pure: this agent's config text → our hooks.json object (absent for `soong`). */
  convertConfig?(text: string, options?: ConvertOptions): ConvertResult;
}
