import os from 'node:os';
import path from 'node:path';
import type { CompiledHooks, HookCommandConfig, LoadedConfig } from '@soong-agent/config';
import type { MatchSubject } from '@soong-agent/matcher';
import {
  BLOCKING_EVENTS,
  type HookEvent,
  type HookFailureKind,
  type HookInputFor,
  type HookOutput,
  PROTOCOL_VERSION,
  safeParseHookOutput,
  type ToolCallInfo,
} from '@soong-agent/protocol';
import { RunnerError, type RunResult, runCommand } from '@soong-agent/runner';
import type { ArtifactStore } from './artifact-store.js';
import { boundToolInput } from './bound-tool-io.js';
import { checkOption } from './errors.js';
import type { EventSink } from './event-sink.js';
import { roundMs } from './round-ms.js';
import { summarizeText } from './summarize-text.js';

/**
 * Bytes of the end of a hook's stderr kept in its `hook_log` record, and of each stream's end in
 * {@link HookRunResult} (`stdout`, `stderr`).
 */
export const HOOK_STDERR_LOG_BYTES = 8192;
/** Bytes of one `logs` line kept in its `hook_log` record (head and tail). */
export const HOOK_LOG_LINE_BYTES = 4096;
/**
 * Bytes of a hook's `reason` kept (head and tail, with counts): a reason is copied into several
 * records and, on a deny, reaches the model, so a hook cannot flood either with it.
 */
export const HOOK_REASON_BYTES = 8192;
/** `logs` lines recorded per hook run; the rest are counted in one warning. */
export const HOOK_LOG_LINES_MAX = 100;

type CommonInputKey =
  | 'protocol_version'
  | 'event'
  | 'session_id'
  | 'project_dir'
  | 'agent_home'
  | 'hook_id'
  | 'timestamp';

/**
 * The event-specific fields of a hook input (SPEC §2.1); the engine adds the common ones.
 * For tool events `tool.input` may be the raw input: the engine bounds it when it is too large.
 * `SessionStart.source` defaults to `"startup"`.
 */
export type HookPayload<E extends HookEvent> = E extends 'SessionStart'
  ? { source?: 'startup' | 'resume' }
  : Omit<HookInputFor<E>, CommonInputKey>;

/** What one hook run came to. */
export interface HookRunResult {
  /** The hook's id (its `name`, or `<Event>[<rule>][<hook>]`). */
  hookId: string;
  /** `finished`: it produced a decision or none; `failed`: SPEC §2.2 failure. */
  status: 'finished' | 'failed';
  /**
   * The hook's effective decision: `deny` when its deny stands (also after a failure with a valid
   * deny on stdout, or `on_failure = "deny"` on a blocking event), `none` for no decision or a failure.
   */
  decision: 'allow' | 'deny' | 'none';
  /** The deny (or allow) reason. */
  reason?: string;
  /** `metadata` from the hook's output. */
  metadata?: Record<string, unknown>;
  /** The failure kind, when `status` is `failed`. */
  failure?: HookFailureKind;
  /** What went wrong, when `status` is `failed`. */
  failureMessage?: string;
  /** True when a deny on an observe-only event was recorded as `hook_decision_ignored`. */
  ignored?: boolean;
  /** Exit code, or null (killed by a signal, or never started). */
  exitCode: number | null;
  /** Signal that ended the hook, or null. */
  signal: string | null;
  /** Wall time of the hook, in milliseconds, rounded to 0.1 ms. */
  durationMs: number;
  /** The last {@link HOOK_STDERR_LOG_BYTES} bytes of the hook's stdout ('' when it never ran). */
  stdout: string;
  /** The last {@link HOOK_STDERR_LOG_BYTES} bytes of the hook's stderr ('' when it never ran). */
  stderr: string;
  /** All bytes the hook wrote to stdout (more than `stdout` holds when it was long). */
  stdoutBytes: number;
  /** All bytes the hook wrote to stderr (more than `stderr` holds when it was long). */
  stderrBytes: number;
}

/** What `engine.run` decided for one event. */
export interface HookOutcome {
  /**
   * `deny` only when a deny stands on a blocking event (`PreToolUse`, `Stop`); `allow` when some hook
   * allowed; `none` when no hook ran or none decided. Observe-only events never yield `deny`.
   */
  decision: 'allow' | 'deny' | 'none';
  /** The reason of the standing deny. */
  reason?: string;
  /** The hook whose deny stands. */
  hookId?: string;
  /** One entry per hook that ran, in order. */
  results: readonly HookRunResult[];
}

/** Options of `engine.run`. */
export interface HookRunOptions {
  /** Aborting kills the running hook (failure `aborted`) and skips the remaining ones. @default undefined */
  signal?: AbortSignal | undefined;
  /** The tool call id, copied into the hook records. @default tool.call_id for tool events */
  callId?: string | undefined;
}

/** Runs the hooks of an event as SPEC §2 says; see {@link createHookEngine}. */
export interface HookEngine {
  /** Runs the hooks matching `event` and `payload`, serially, in configuration order. */
  run<E extends HookEvent>(
    event: E,
    payload: HookPayload<E>,
    options?: HookRunOptions,
  ): Promise<HookOutcome>;
  /** For each rule of the subject's event: matched, or which criterion failed. */
  explain(subject: MatchSubject): ReturnType<CompiledHooks['explain']>;
  /** The configuration snapshot. */
  readonly config: LoadedConfig;
  /** The sink records go to. */
  readonly sink: EventSink;
  /** The session id sent to hooks. */
  readonly sessionId: string;
  /** Absolute project dir. */
  readonly projectDir: string;
  /** The artifact store for large tool inputs, when given. */
  readonly artifacts: ArtifactStore | undefined;
}

/** Options of {@link createHookEngine}. */
export interface HookEngineOptions {
  /** The configuration snapshot (`loadConfig`). */
  config: LoadedConfig;
  /** Where hook records go. */
  sink: EventSink;
  /** The session id sent to hooks and in `SOONG_AGENT_SESSION_ID`. */
  sessionId: string;
  /** The project dir. @default config.projectDir */
  projectDir?: string | undefined;
  /** Where full tool inputs go when a hook gets a bounded one. @default undefined (no input artifact) */
  artifacts?: ArtifactStore | undefined;
  /** The command runner (for tests and benchmarks). @default runCommand */
  runner?: typeof runCommand | undefined;
}

// What the hook process left behind, copied into its HookRunResult.
type Exited = Pick<
  HookRunResult,
  'exitCode' | 'signal' | 'stdout' | 'stderr' | 'stdoutBytes' | 'stderrBytes'
>;
const NOT_RUN: Exited = Object.freeze({
  exitCode: null,
  signal: null,
  stdout: '',
  stderr: '',
  stdoutBytes: 0,
  stderrBytes: 0,
});

// One hook run: the hook and the fields every record of the run carries.
interface HookCall {
  hook: HookCommandConfig;
  ids: { hook_id: string; event: HookEvent; call_id?: string };
}

const NO_HOOKS: HookOutcome = Object.freeze({
  decision: 'none',
  results: Object.freeze([]),
}) as HookOutcome;
const TOOL_EVENT_NAMES: ReadonlySet<string> = new Set(['PreToolUse', 'PostToolUse']);
const BLOCKING: ReadonlySet<string> = new Set(BLOCKING_EVENTS);

/**
 * The hook engine: which hooks run, in what order, with what stdin and env, and what their output
 * means (SPEC §2). Each hook run is recorded (`hook_started`, `hook_log`…, `hook_finished` or
 * `hook_failed`, then `hook_denied` or `hook_decision_ignored`). An event with no matching rule
 * costs one index lookup: no payload is built and nothing is spawned.
 */
export function createHookEngine(options: HookEngineOptions): HookEngine {
  const { config, sink, sessionId, artifacts } = options;
  checkOption(
    typeof sessionId === 'string' && sessionId !== '',
    'sessionId',
    sessionId,
    'pass createSessionId()',
  );
  const projectDir = path.resolve(options.projectDir ?? config.projectDir);
  const agentHome = path.resolve(config.home);
  const runner = options.runner ?? runCommand;
  const warnedUnknownKeys = new Set<string>();
  const allowedRoots = [projectDir, agentHome];

  async function runOne(
    call: HookCall,
    stdin: string,
    signal: AbortSignal | undefined,
  ): Promise<HookRunResult> {
    const { hook, ids } = call;
    sink.emit({ type: 'hook_started', ...ids, command: hook.command });
    const started = performance.now();
    let result: RunResult;
    try {
      result = await runner({
        command: hook.command,
        cwd: resolveWorkingDir(hook.workingDir, projectDir),
        allowedRoots,
        envAllowlist: config.envAllowlist,
        env: {
          SOONG_AGENT_HOME: agentHome,
          SOONG_AGENT_PROJECT_DIR: projectDir,
          SOONG_AGENT_SESSION_ID: sessionId,
          SOONG_AGENT_HOOK_EVENT: ids.event,
        },
        input: stdin,
        timeoutMs: hook.timeoutSec * 1000,
        killGraceMs: config.settings.runner.kill_grace_ms,
        maxOutputBytes: config.settings.runner.max_output_bytes,
        tailBytes: HOOK_STDERR_LOG_BYTES,
        stopOnOutputLimit: true,
        signal,
      });
    } catch (error) {
      const kind: HookFailureKind =
        RunnerError.isInstance(error) && error.code === 'CWD_INVALID'
          ? 'cwd_invalid'
          : 'spawn_error';
      const message = error instanceof Error ? error.message : String(error);
      return fail(call, kind, message, NOT_RUN, roundMs(performance.now() - started));
    }

    if (result.stderrBytes > 0) {
      sink.emit({ type: 'hook_log', ...ids, source: 'stderr', message: stderrLog(result) });
    }
    // The runner rounds already; a custom runner (tests, benchmarks) may not.
    const durationMs = roundMs(result.durationMs);
    const exited: Exited = {
      exitCode: result.exitCode,
      signal: result.signal,
      stdout: result.stdoutTail,
      stderr: result.stderrTail,
      stdoutBytes: result.stdoutBytes,
      stderrBytes: result.stderrBytes,
    };
    if (result.aborted) return fail(call, 'aborted', 'the run was cancelled', exited, durationMs);
    if (result.timedOut) {
      const message = `hook ran past its timeout of ${hook.timeoutSec} s; its process group was killed`;
      return fail(call, 'timeout', message, exited, durationMs);
    }
    if (result.stdoutLimitExceeded) {
      const message = `hook printed more than ${config.settings.runner.max_output_bytes} bytes on stdout; it was stopped`;
      return fail(call, 'output_too_large', message, exited, durationMs);
    }

    const parsed = safeParseHookOutput(result.stdout);
    let output: HookOutput | null | undefined;
    if (parsed.success) {
      output = parsed.output;
      if (parsed.unknownKeys.length > 0 && !warnedUnknownKeys.has(hook.id)) {
        warnedUnknownKeys.add(hook.id);
        const keys = parsed.unknownKeys.map((key) => JSON.stringify(key)).join(', ');
        warn(call, `unknown output keys ignored: ${keys} (reported once per hook and session)`);
      }
    } else if (parsed.deny) {
      output = parsed.deny;
      warn(call, `${parsed.error.message}; ${parsed.denyNote ?? 'the deny stands'}`);
    }
    if (output?.reason !== undefined) output = { ...output, reason: boundReason(output.reason) };
    if (output) recordLogs(call, output.logs);

    if (result.exitCode !== 0) {
      const failed = fail(call, 'exit_code', exitMessage(result), exited, durationMs);
      if (output?.decision !== 'deny') return failed;
      return deny(call, { ...failed, decision: 'deny', ...reasonOf(hook, output) });
    }
    if (output === undefined) {
      const message = parsed.success ? 'invalid hook output' : parsed.error.message;
      return fail(call, 'protocol_error', message, exited, durationMs);
    }
    const decision = output?.decision ?? 'none';
    sink.emit({
      type: 'hook_finished',
      ...ids,
      decision,
      ...optional('reason', output?.reason),
      ...optional('metadata', output?.metadata),
      duration_ms: durationMs,
      exit_code: 0,
    });
    const finished: HookRunResult = {
      hookId: hook.id,
      status: 'finished',
      decision,
      ...optional('reason', output?.reason),
      ...optional('metadata', output?.metadata),
      ...exited,
      durationMs: durationMs,
    };
    return output?.decision === 'deny'
      ? deny(call, { ...finished, ...reasonOf(hook, output) })
      : finished;
  }

  function fail(
    { hook, ids }: HookCall,
    failure: HookFailureKind,
    message: string,
    exited: Exited,
    durationMs: number,
  ): HookRunResult {
    sink.emit({
      type: 'hook_failed',
      ...ids,
      failure,
      message,
      exit_code: exited.exitCode,
      signal: exited.signal,
      on_failure: hook.onFailure,
      duration_ms: durationMs,
    });
    return {
      hookId: hook.id,
      status: 'failed',
      decision: 'none',
      failure,
      failureMessage: message,
      ...exited,
      durationMs,
    };
  }

  // A standing deny: recorded as hook_denied on blocking events, hook_decision_ignored elsewhere.
  function deny({ hook, ids }: HookCall, result: HookRunResult): HookRunResult {
    const reason = result.reason ?? `denied by hook ${hook.id}`;
    if (BLOCKING.has(ids.event)) {
      sink.emit({ type: 'hook_denied', ...ids, reason });
      return { ...result, decision: 'deny', reason };
    }
    sink.emit({ type: 'hook_decision_ignored', ...ids, reason });
    return { ...result, decision: 'deny', reason, ignored: true };
  }

  function warn(call: HookCall, message: string): void {
    sink.emit({ type: 'hook_log', ...call.ids, source: 'warning', message });
  }

  function recordLogs(call: HookCall, logs: readonly string[] | undefined): void {
    if (!logs) return;
    const half = HOOK_LOG_LINE_BYTES / 2;
    for (const line of logs.slice(0, HOOK_LOG_LINES_MAX)) {
      const message = summarizeText(line, { headBytes: half, tailBytes: half });
      sink.emit({ type: 'hook_log', ...call.ids, source: 'logs', message });
    }
    if (logs.length > HOOK_LOG_LINES_MAX) {
      warn(
        call,
        `${logs.length - HOOK_LOG_LINES_MAX} more logs lines not recorded (at most ${HOOK_LOG_LINES_MAX} per run)`,
      );
    }
  }

  async function buildInput<E extends HookEvent>(
    event: E,
    payload: HookPayload<E>,
  ): Promise<Record<string, unknown>> {
    const fields: Record<string, unknown> = { ...payload };
    if (event === 'SessionStart') fields.source ??= 'startup';
    if (TOOL_EVENT_NAMES.has(event)) fields.tool = await boundTool(fields.tool as ToolCallInfo);
    return fields;
  }

  async function boundTool(tool: ToolCallInfo): Promise<ToolCallInfo> {
    if (tool.input_truncated !== undefined) return tool;
    const bounded = await boundToolInput(tool.input, {
      limitBytes: config.settings.hooks.inline_result_bytes,
      artifacts,
    });
    return bounded.input_truncated ? { ...tool, ...bounded } : tool;
  }

  return {
    config,
    sink,
    sessionId,
    projectDir,
    artifacts,
    explain: (subject) => config.hooks.explain(subject),
    async run(event, payload, runOptions = {}) {
      if (!config.hooksEnabled) return NO_HOOKS;
      const tool = TOOL_EVENT_NAMES.has(event)
        ? withRiskTag((payload as { tool: ToolCallInfo }).tool)
        : undefined;
      const subject: MatchSubject = tool
        ? { event, tool: tool.name, tags: tool.tags, paths: tool.paths, input: tool.input }
        : { event };
      const hooks = config.hooks.match(subject);
      if (hooks.length === 0) return NO_HOOKS;

      const timestamp = new Date().toISOString();
      const fields = await buildInput(event, tool ? { ...payload, tool } : payload);
      const callId = runOptions.callId ?? tool?.call_id;
      const results: HookRunResult[] = [];
      for (const hook of hooks) {
        const input = {
          protocol_version: PROTOCOL_VERSION,
          event,
          session_id: sessionId,
          project_dir: projectDir,
          agent_home: agentHome,
          hook_id: hook.id,
          timestamp,
          ...fields,
        };
        const call: HookCall = {
          hook,
          ids: { hook_id: hook.id, event, ...optional('call_id', callId) },
        };
        let result = await runOne(call, JSON.stringify(input), runOptions.signal);
        // SPEC §2.2: with on_failure = "deny" a failure counts as a deny; on an observe-only event
        // that deny changes nothing and is recorded as hook_decision_ignored (SPEC §2.3, §5).
        if (result.status === 'failed' && result.decision !== 'deny' && hook.onFailure === 'deny') {
          result = deny(call, {
            ...result,
            reason: `hook ${hook.id} failed: ${result.failure}`,
          });
        }
        results.push(result);
        if (result.decision === 'deny' && !result.ignored) {
          return { decision: 'deny', reason: result.reason as string, hookId: hook.id, results };
        }
        if (runOptions.signal?.aborted) break;
      }
      const allowed = results.some((result) => result.decision === 'allow');
      return { decision: allowed ? 'allow' : 'none', results };
    },
  };
}

// SPEC §1.2: a tool's tags always include its risk class.
function withRiskTag(tool: ToolCallInfo): ToolCallInfo {
  return tool.tags.includes(tool.risk) ? tool : { ...tool, tags: [tool.risk, ...tool.tags] };
}

function resolveWorkingDir(workingDir: string | undefined, projectDir: string): string {
  if (workingDir === undefined) return projectDir;
  if (workingDir === '~') return os.homedir();
  if (workingDir.startsWith('~/')) return path.join(os.homedir(), workingDir.slice(2));
  return path.resolve(projectDir, workingDir);
}

function boundReason(reason: string): string {
  if (Buffer.byteLength(reason) <= HOOK_REASON_BYTES) return reason;
  return summarizeText(reason, {
    headBytes: HOOK_REASON_BYTES / 2,
    tailBytes: HOOK_REASON_BYTES / 4,
  });
}

function exitMessage(result: RunResult): string {
  if (result.exitCode === null) return `hook was killed by ${result.signal ?? 'a signal'}`;
  const base = `hook exited with code ${result.exitCode}`;
  if (result.exitCode !== 2) return base;
  return (
    `${base}. Claude Code treats exit 2 as a block; here a deny is printed as JSON on stdout, ` +
    `e.g. {"decision":"deny","reason":"..."} (exit 0)`
  );
}

// The runner's tail is the real end of stderr, also after a flood past max_output_bytes.
function stderrLog(result: RunResult): string {
  const tail = result.stderrTail;
  const dropped = result.stderrBytes - Buffer.byteLength(tail);
  return dropped > 0 ? `[... ${dropped} bytes of stderr not kept ...]\n${tail}` : tail;
}

function reasonOf(
  hook: HookCommandConfig,
  output: HookOutput,
): { reason: string; metadata?: Record<string, unknown> } {
  return {
    reason: output.reason ?? `denied by hook ${hook.id}`,
    ...optional('metadata', output.metadata),
  };
}

function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}
