import { randomUUID } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import type { CompiledHooks, HookCommandConfig, LoadedConfig } from '@soong-agent/config';
import { type Dialect, type DialectContext, getDialect } from '@soong-agent/dialects';
import type { MatchSubject } from '@soong-agent/matcher';
import { resolveUserPath } from '@soong-agent/paths';
import {
  type AddedContextNode,
  type HookEvent,
  type HookInputFor,
  PROTOCOL_VERSION,
  TOOL_EVENTS,
  type ToolCallInfo,
} from '@soong-agent/protocol';
import {
  onRunnerWarning,
  runCommand,
  type startWorker,
  warmSpawnHelper,
} from '@soong-agent/runner';
import type { ArtifactStore } from './artifact-store.js';
import {
  type BoundedToolInput,
  boundContext,
  boundToolInputSoon,
  isPlainObject,
} from './bound-tool-io.js';
import {
  decideHookRun,
  HOOK_STDERR_LOG_BYTES,
  type HookRunOutcome,
  type HookRunResult,
  outcomeOfRunResult,
  outcomeOfStartError,
} from './decide-hook-run.js';
import type { EventSink } from './event-sink.js';
import type { HookRecordIds } from './hook-record-ids.js';
import { isoNow } from './iso-now.js';
import { checkOption, LoopAdapterError } from './loop-adapter-error.js';
import { checkHookEvent, checkHookInput, normalizeToolCall } from './normalize-payload.js';
import { createScriptFingerprints } from './script-fingerprints.js';
import { sessionPaths } from './session.js';
import { startSpan, TRACING } from './telemetry.js';
import { createWorkerPool } from './worker-pool.js';

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
  : E extends 'PreToolUse' | 'PostToolUse' | 'PostToolUseFailure'
    ? Omit<HookInputFor<E>, CommonInputKey> & { dialect?: ToolDialectView }
    : Omit<HookInputFor<E>, CommonInputKey>;

/**
 * How dialect hooks (SPEC §11, §12: `"protocol"` other than `"soong"`) see one call of a tool that
 * a host names its own way; built from `ToolDefinition.dialectName` / `dialectInput`. Our own
 * (`soong`) hooks, matchers and records never see it.
 */
export interface ToolDialectView {
  /** The tool's name per dialect, e.g. `{ "claude-code": "Bash" }`; a dialect not listed maps `tool.name` by its own table. */
  names?: Readonly<Record<string, string>>;
  /**
   * The call's input in the shape of the canonical tool the dialect sees (e.g. `{ command }` for
   * `bash`); the dialect converts it like that tool's input. @default tool.input
   */
  input?: unknown;
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
  /**
   * PreToolUse only, when no deny stands: the first Claude Code hook that answered
   * `permissionDecision: "ask"` (SPEC §7). The caller asks the permission callback even when the
   * risk class is `allow` (`executeToolBatch` passes it as `hookAsk`).
   */
  ask?: { hookId: string; reason: string };
  /** One entry per hook that ran, in order. */
  results: readonly HookRunResult[];
  /**
   * With `[hooks] deliver_context = true`: the context the hooks added, one hook-context node per
   * hook that added some, in hook order, each bounded (over `inline_result_bytes`: its summary and
   * the artifact path) and recorded as `hook_context_added` (SPEC §13.1). A session queues them for
   * `takeContext()`. Absent when no hook added context or delivery is off.
   */
  context?: readonly AddedContextNode[];
  /**
   * True when the run was cut short, not decided: the signal aborted, or a hook run ended as
   * `aborted` (the engine closed during it) without a deny standing. A host must not act on an
   * outcome that was cancelled (the tool gate does not run the call).
   */
  cancelled?: true;
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
  /**
   * Ends the session's worker hooks (SPEC §8: stdin closed, then SIGTERM and SIGKILL to each
   * group; `worker_stopped` recorded with reason `session_end`). Idempotent; `run` afterwards
   * throws `LoopAdapterError` `ENGINE_CLOSED`. Call it at session end, before closing the sink.
   */
  close(): Promise<void>;
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
  /**
   * `transcript_path` sent to `"protocol": "claude-code"` hooks (SPEC §7); the session keeps the
   * file current. @default <home>/sessions/<sessionId>/transcript.jsonl
   */
  transcriptPath?: string | undefined;
  /** The command runner (for tests and benchmarks). @default runCommand */
  runner?: typeof runCommand | undefined;
  /**
   * Starts worker hooks (for tests and benchmarks: e.g. to talk to the same worker process without
   * the engine). @default startWorker
   */
  startWorker?: typeof startWorker | undefined;
  /**
   * Called with each hook-context node as it is recorded (`hook_context_added`), in hook order,
   * before `run` returns; `openHookSession` queues them for `takeContext()`. @default undefined
   */
  onContext?: ((node: AddedContextNode) => void) | undefined;
}

const NO_HOOKS: HookOutcome = Object.freeze({
  decision: 'none',
  results: Object.freeze([]),
}) as HookOutcome;
const TOOL_EVENT_NAMES: ReadonlySet<string> = new Set(TOOL_EVENTS);

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
  // The first spawn hook of the session should cost what the tenth does: the runner's spawn
  // helper starts now, while the host talks to its model, not inside the first tool call.
  if (
    options.runner === undefined &&
    config.hooksEnabled &&
    config.hooks.rules.some((rule) => rule.hooks.some((hook) => hook.mode === 'spawn'))
  )
    warmSpawnHelper();
  const reportedUnknownKeys = new Set<string>();
  const deliverContext = config.settings.hooks.deliver_context === true;
  const allowedRoots = [projectDir, agentHome];
  const transcriptPath = path.resolve(
    options.transcriptPath ?? sessionPaths(agentHome, sessionId).transcript,
  );
  const baseEnv = {
    SOONG_AGENT_HOME: agentHome,
    SOONG_AGENT_PROJECT_DIR: projectDir,
    SOONG_AGENT_SESSION_ID: sessionId,
  };
  const workers = createWorkerPool({
    maxLineBytes: config.settings.runner.max_output_bytes,
    stderrTailBytes: HOOK_STDERR_LOG_BYTES,
    emit: (ids, record) => sink.emit(withIds(record, ids)),
    ...(options.startWorker === undefined ? {} : { start: options.startWorker }),
  });
  // SPEC §2.2 extended (issue 11): a hook whose script changed since the session started is not
  // run and fails closed.
  const scripts = createScriptFingerprints(
    config.hooksEnabled ? config.hooks.rules.flatMap((rule) => rule.hooks) : [],
    (hook) => resolveWorkingDir(hook.workingDir, projectDir),
    os.homedir(),
    projectDir,
    agentHome,
  );
  // The common fields of every soong hook's stdin that are the same for the whole session, as JSON
  // (the event is a checked name and the timestamp an ISO string: neither needs escaping).
  const sessionJson = `"session_id":${JSON.stringify(sessionId)},"project_dir":${JSON.stringify(projectDir)},"agent_home":${JSON.stringify(agentHome)}`;
  let closed = false;
  const runnerWarnings: string[] = [];
  const stopRunnerWarnings = onRunnerWarning((warning) => runnerWarnings.push(warning.message));

  // One span per hook run when OpenTelemetry is present: ids, decision or failure, duration and
  // exit code; never the payload, a reason or an environment value.
  // Not async, nor runHook: a worker call's promise is handed up as it is (an async function that
  // returns a promise costs extra turns of the microtask queue on every call).
  function runOne(run: HookRun): HookRunResult | Promise<HookRunResult> {
    if (!TRACING) return runHook(run);
    const { hook, ids } = run;
    const span = startSpan(
      'soong_agent.hook',
      {
        'soong_agent.hook.event': ids.event,
        'soong_agent.hook.id': hook.id,
        'soong_agent.hook.mode': hook.mode,
        'soong_agent.hook.protocol': hook.protocol,
        'soong_agent.tool.call_id': ids.call_id,
      },
      { leaf: true },
    );
    if (span === undefined) return runHook(run);
    return span
      .run(async () => runHook(run))
      .then((result) => {
        span.end(
          {
            'soong_agent.hook.decision': result.decision,
            'soong_agent.hook.failure': result.failure,
            'soong_agent.hook.duration_ms': result.durationMs,
            'soong_agent.hook.exit_code': result.exitCode ?? undefined,
            'soong_agent.hook.signal': result.signal ?? undefined,
          },
          result.status === 'failed',
        );
        return result;
      });
  }

  function runHook(run: HookRun): HookRunResult | Promise<HookRunResult> {
    const { hook, ids, dialect, stdin, signal } = run;
    const settle = (outcome: HookRunOutcome, onFailure = hook.onFailure) =>
      decideAndRecord(
        onFailure === hook.onFailure ? hook : { ...hook, onFailure },
        dialect,
        ids,
        outcome,
      );
    if (run.refuse !== undefined) {
      // Failed closed whatever its on_failure: hook_failed (spawn_error, nothing ran), then a deny.
      sink.emit({ type: 'hook_started', ...ids, command: hook.command });
      return settle(outcomeOfStartError(new Error(run.refuse), 0), 'deny');
    }
    const changed = scripts.changedFile(hook);
    if (changed !== undefined) {
      // Failed closed whatever its on_failure: hook_failed (spawn_error, nothing ran), then a deny.
      sink.emit({ type: 'hook_started', ...ids, command: hook.command });
      const error = new Error(
        `script ${changed} changed since the session started: not run (a hook's files are fingerprinted when the session starts; start a new session to use the new version)`,
      );
      return settle(outcomeOfStartError(error, 0), 'deny');
    }
    const cwd = resolveWorkingDir(hook.workingDir, projectDir);
    if (hook.mode === 'worker') {
      return workers.call({
        hook,
        ids,
        // Built only when the hook has no live worker.
        start: () => ({
          command: hook.command,
          cwd,
          allowedRoots,
          envAllowlist: config.envAllowlist,
          env: { ...baseEnv, SOONG_AGENT_HOOK_MODE: 'worker', ...run.env },
          killGraceMs: config.settings.runner.kill_grace_ms,
        }),
        input: stdin,
        signal,
        settle: (outcome) => settle(outcome),
      });
    }
    return runSpawned(run, cwd, settle);
  }

  async function runSpawned(
    run: HookRun,
    cwd: string,
    settle: (outcome: HookRunOutcome) => HookRunResult,
  ): Promise<HookRunResult> {
    const { hook, ids, stdin, signal } = run;
    sink.emit({ type: 'hook_started', ...ids, command: hook.command });
    const started = performance.now();
    let outcome: HookRunOutcome;
    try {
      const result = await runner({
        command: hook.command,
        cwd,
        allowedRoots,
        envAllowlist: config.envAllowlist,
        env: {
          ...baseEnv,
          SOONG_AGENT_HOOK_EVENT: ids.event,
          SOONG_AGENT_HOOK_MODE: 'spawn',
          ...run.env,
        },
        input: stdin,
        timeoutMs: hook.timeoutSec * 1000,
        killGraceMs: config.settings.runner.kill_grace_ms,
        maxOutputBytes: config.settings.runner.max_output_bytes,
        tailBytes: HOOK_STDERR_LOG_BYTES,
        stopOnOutputLimit: true,
        signal,
      });
      outcome = outcomeOfRunResult(result, {
        timeoutSec: hook.timeoutSec,
        maxOutputBytes: config.settings.runner.max_output_bytes,
      });
    } catch (error) {
      outcome = outcomeOfStartError(error, performance.now() - started);
    }
    // The runner's own warnings (its spawn helper could not start) go on the hook that met them.
    for (const message of runnerWarnings.splice(0))
      sink.emit({ type: 'hook_log', ...ids, source: 'warning', message });
    return settle(outcome);
  }

  function decideAndRecord(
    hook: HookCommandConfig,
    dialect: Dialect,
    ids: HookRecordIds,
    outcome: HookRunOutcome,
  ): HookRunResult {
    const decided = decideHookRun({
      hook,
      event: ids.event,
      outcome,
      dialect,
      unknownKeysReported: reportedUnknownKeys.has(hook.id),
      deliverContext,
    });
    if (decided.reportedUnknownKeys) reportedUnknownKeys.add(hook.id);
    for (const record of decided.records) sink.emit(withIds(record, ids));
    return decided.result;
  }

  // SPEC §13.1: the context of one hook run as a node for the model, bounded like a tool result
  // and recorded after the run's own records.
  async function addContext(text: string, ids: HookRecordIds): Promise<AddedContextNode> {
    const bounded = await boundContext(text, {
      limitBytes: config.settings.hooks.inline_result_bytes,
      artifacts,
    });
    sink.emit({
      type: 'hook_context_added',
      ...ids,
      bytes: bounded.bytes,
      ...(bounded.artifactRef === undefined ? {} : { artifact_ref: bounded.artifactRef }),
      text: bounded.text,
    });
    const node: AddedContextNode = {
      kind: 'hook_context',
      event: ids.event,
      hook_id: ids.hook_id,
      text: bounded.text,
    };
    options.onContext?.(node);
    return node;
  }

  // The input's event fields; without a turn of the event loop unless a large input is bounded
  // (written to the artifact store).
  function buildInput<E extends HookEvent>(
    event: E,
    payload: HookPayload<E>,
  ): BuiltInput | Promise<BuiltInput> {
    const { dialect, ...fields } = payload as Record<string, unknown>;
    // The engine sets the common fields; a payload cannot override them.
    for (const key of COMMON_KEYS) delete fields[key];
    if (event === 'SessionStart') fields.source ??= 'startup';
    const rawTool = TOOL_EVENT_NAMES.has(event) ? (fields.tool as ToolCallInfo) : undefined;
    const raw = { tool: rawTool, view: dialect };
    const built = (
      tool: { tool: ToolCallInfo; inputJson?: string } | undefined,
      view: ToolDialectView | undefined,
    ): BuiltInput => {
      if (tool !== undefined) fields.tool = tool.tool;
      return { fields, dialect: view, raw, inputJson: tool?.inputJson };
    };
    const tool = rawTool === undefined ? undefined : boundTool(rawTool);
    const view = boundDialectView(dialect);
    return tool instanceof Promise || view instanceof Promise
      ? Promise.all([tool, view]).then(([boundedTool, boundedView]) =>
          built(boundedTool, boundedView),
        )
      : built(tool, view);
  }

  /**
   * The call's tool with its whole input, for a dialect whose agent passes it whole up to
   * `limitBytes` (SPEC §7, issue 20 #12); `undefined` when it is larger. A host that bounded the
   * input itself (`input_truncated`) is read back from its artifact.
   */
  async function wholeInput(
    raw: { tool: ToolCallInfo | undefined; view: unknown },
    bounded: ToolDialectView | undefined,
    limitBytes: number,
  ): Promise<
    { tool: ToolCallInfo; view: ToolDialectView | undefined; bytes: number } | { over: number }
  > {
    const tool = raw.tool as ToolCallInfo;
    let input: unknown = tool.input;
    let bytes: number;
    if (tool.input_truncated === true) {
      const ref = tool.input_artifact_ref;
      if (ref === undefined || artifacts === undefined) return { over: Number.POSITIVE_INFINITY };
      if (ref.bytes > limitBytes) return { over: ref.bytes };
      input = JSON.parse((await artifacts.read(ref)).toString('utf8'));
      bytes = ref.bytes;
    } else {
      bytes = Buffer.byteLength(JSON.stringify(input) ?? '');
      if (bytes > limitBytes) return { over: bytes };
    }
    const { input_truncated: _t, input_artifact_ref: _r, ...rest } = tool;
    const view = isPlainObject(raw.view) ? (raw.view as ToolDialectView) : undefined;
    const viewBytes =
      view?.input === undefined ? 0 : Buffer.byteLength(JSON.stringify(view.input) ?? '');
    return {
      tool: { ...rest, input: input as ToolCallInfo['input'] },
      // The host's view travels whole too, within the same bound; beyond it, bounded as usual.
      view: viewBytes <= limitBytes ? view : bounded,
      bytes,
    };
  }

  // The dialect view's input is bounded like the tool input (it travels on the same stdin).
  function boundDialectView(
    view: unknown,
  ): ToolDialectView | undefined | Promise<ToolDialectView | undefined> {
    if (!isPlainObject(view)) return undefined;
    const { names, input } = view as ToolDialectView;
    if (input === undefined) return names === undefined ? undefined : { names };
    const withInput = (bounded: unknown): ToolDialectView => ({
      ...(names === undefined ? {} : { names }),
      input: bounded,
    });
    return whenBounded(
      boundToolInputSoon(input, { limitBytes: config.settings.hooks.inline_result_bytes }),
      (done) => withInput(done.bounded.input),
    );
  }

  // The tool as hooks see it, and the JSON of its input when that is the input as given (the
  // input is serialised once per call: to measure it here, then spliced into every stdin).
  function boundTool(
    tool: ToolCallInfo,
  ):
    | { tool: ToolCallInfo; inputJson?: string }
    | Promise<{ tool: ToolCallInfo; inputJson?: string }> {
    if (tool.input_truncated !== undefined) return { tool };
    const bounded = boundToolInputSoon(tool.input, {
      limitBytes: config.settings.hooks.inline_result_bytes,
      artifacts,
    });
    // Only an input that fits comes with its JSON (and only a bounded one is truncated).
    return whenBounded(bounded, (done: { bounded: BoundedToolInput; json?: string }) =>
      done.bounded.input_truncated
        ? { tool: { ...tool, ...done.bounded } }
        : done.json !== undefined && done.bounded.input === tool.input
          ? { tool, inputJson: done.json }
          : { tool },
    );
  }

  return {
    config,
    sink,
    sessionId,
    projectDir,
    artifacts,
    explain: (subject) => config.hooks.explain(subject),
    close() {
      closed = true;
      stopRunnerWarnings();
      return workers.close();
    },
    async run(event, payload, runOptions = {}) {
      if (closed) {
        throw new LoopAdapterError({
          code: 'ENGINE_CLOSED',
          message: `engine.run("${event}") after engine.close(): create a new engine for a new session`,
        });
      }
      checkHookEvent(event);
      if (!isPlainObject(payload)) {
        checkOption(false, 'payload', payload, `pass the ${event} fields of SPEC §2.1`);
      }
      const { callId: givenCallId, signal } = runOptions;
      checkOption(
        givenCallId === undefined || (typeof givenCallId === 'string' && givenCallId !== ''),
        'options.callId',
        givenCallId,
        'pass the tool call id, or leave it out',
      );
      const tool = TOOL_EVENT_NAMES.has(event)
        ? normalizeToolCall((payload as { tool?: unknown }).tool, projectDir)
        : undefined;
      if (!config.hooksEnabled) return NO_HOOKS;
      const subject: MatchSubject = tool
        ? { event, tool: tool.name, tags: tool.tags, paths: tool.paths, input: tool.input }
        : { event };
      const hooks = config.hooks.match(subject);
      if (hooks.length === 0) return NO_HOOKS;

      const timestamp = isoNow();
      let built = buildInput(event, tool ? { ...payload, tool } : payload);
      if (built instanceof Promise) built = await built;
      const { fields, dialect: view, raw, inputJson } = built;
      // Per bound: the tool with its whole input for dialects that pass it whole (issue 20 #12).
      const whole = new Map<number, Awaited<ReturnType<typeof wholeInput>>>();
      const callId = givenCallId ?? tool?.call_id;
      const results: HookRunResult[] = [];
      const added: AddedContextNode[] = [];
      let ask: HookOutcome['ask'];
      // The event's fields serialised once per call, shared by every soong hook's stdin.
      let fieldsJson: string | undefined;
      for (const hook of hooks) {
        const dialect = getDialect(hook.protocol);
        // An agent with a failure event (Claude Code, Copilot, Cursor) runs its PostToolUse hooks
        // only for results that succeeded (SPEC §13.2): such a hook is not run at all here.
        if (skipsFailedResult(event, dialect, fields)) continue;
        const ids: HookRecordIds = { hook_id: hook.id, event, ...optional('call_id', callId) };
        let hookFields = fields;
        let hookView = view;
        let refuse: string | undefined;
        const limit = dialect.toolInputBytes;
        if (limit !== undefined && raw.tool !== undefined) {
          let got = whole.get(limit);
          if (got === undefined) {
            got = await wholeInput(raw, view, limit);
            whole.set(limit, got);
          }
          if (!('over' in got)) {
            hookFields = { ...fields, tool: got.tool };
            hookView = got.view;
          } else if (hook.onLargeInput !== 'summarize') {
            const size = Number.isFinite(got.over)
              ? `${got.over} bytes`
              : 'an input bounded by the host';
            refuse = `the tool input (${size}) is larger than the ${limit} bytes a "${dialect.name}" hook gets whole: the call is denied without running the hook (on_large_input "deny"; "summarize" runs it on the summarised input)`;
          }
        }
        const input: Record<string, unknown> = {
          protocol_version: PROTOCOL_VERSION,
          event,
          session_id: sessionId,
          project_dir: projectDir,
          agent_home: agentHome,
          hook_id: hook.id,
          timestamp,
          ...hookFields,
        };
        // PreToolUse carries only the tool, checked by normalizeToolCall (and the common fields the
        // engine sets): the schema check runs for every other payload and for a tool the caller
        // bounded itself (its artifact ref), not on the hot path of every tool call.
        if (results.length === 0 && !(event === 'PreToolUse' && plainTool(hookFields.tool))) {
          checkHookInput(event, input);
        }
        const context: DialectContext = {
          sessionId,
          projectDir,
          agentHome,
          transcriptPath,
          hookId: hook.id,
          ...(hook.dialectEvent === undefined ? {} : { dialectEvent: hook.dialectEvent }),
          ...toolView(hookView, dialect.name),
        };
        const encoded = dialect.encodeInput(event, input, context);
        let stdin: string;
        if (encoded === input && hookFields === fields) {
          // Our own input as it is (soong): the common fields, then the shared serialised fields.
          fieldsJson ??= fieldsToJson(fields, inputJson);
          stdin = `{"protocol_version":${PROTOCOL_VERSION},"event":"${event}",${sessionJson},"hook_id":${JSON.stringify(hook.id)},"timestamp":"${timestamp}"${fieldsJson === '{}' ? '' : `,${fieldsJson.slice(1)}`}`;
        } else {
          // One compact JSON line (some scripts `read -r` one line).
          stdin = `${JSON.stringify(encoded)}\n`;
        }
        const env = dialect.env(context);
        const result = await runOne({ hook, ids, dialect, stdin, env, signal, refuse });
        results.push(result);
        if (deliverContext && result.context !== undefined) {
          added.push(await addContext(result.context, ids));
        }
        if (result.decision === 'deny' && !result.ignored) {
          return {
            decision: 'deny',
            reason: result.reason as string,
            hookId: hook.id,
            results,
            ...(added.length > 0 ? { context: added } : {}),
          };
        }
        if (result.ask === true && ask === undefined) {
          ask = { hookId: hook.id, reason: result.reason ?? `hook ${hook.id} asked` };
        }
        if (signal?.aborted) break;
      }
      const allowed = results.some((result) => result.decision === 'allow');
      const cancelled =
        signal?.aborted === true || results.some((result) => result.failure === 'aborted');
      return {
        decision: allowed ? 'allow' : 'none',
        ...(ask ? { ask } : {}),
        results,
        ...(added.length > 0 ? { context: added } : {}),
        ...(cancelled ? { cancelled: true as const } : {}),
      };
    },
  };
}

// A PostToolUse hook of a dialect whose agent runs PostToolUseFailure for an error result instead.
function skipsFailedResult(
  event: HookEvent,
  dialect: Dialect,
  fields: Record<string, unknown>,
): boolean {
  return (
    event === 'PostToolUse' &&
    dialect.failedToolEvent === 'PostToolUseFailure' &&
    (fields.result as { is_error?: unknown } | undefined)?.is_error === true
  );
}

// `then` for boundToolInputSoon's answer: at once when it came at once, else when it settles.
function whenBounded<T, U>(value: T | Promise<T>, next: (done: T) => U): U | Promise<U> {
  return value instanceof Promise ? value.then(next) : next(value);
}

// A record with the ids of its hook run after its own fields: `{ ...record, ...ids }`, made with
// Object.assign, which Node 20's V8 does 2-3x faster than a second spread in one literal (measured
// on the worker call path, where two records are written per call; no difference on Node 24).
function withIds<R extends object>(record: R, ids: HookRecordIds): R & HookRecordIds {
  return Object.assign({}, record, ids);
}

// JSON.stringify(fields), with the tool input's JSON (already made to measure it) put in as it
// is, not serialised again: the fields are serialised with a marker for the input (random per
// process, so no value can hold it), which is then replaced. Same bytes, same key order.
function fieldsToJson(fields: Record<string, unknown>, inputJson: string | undefined): string {
  const tool = fields.tool;
  if (inputJson === undefined || !isPlainObject(tool)) return JSON.stringify(fields);
  const json = JSON.stringify({ ...fields, tool: { ...tool, input: INPUT_MARK } });
  const at = json.indexOf(INPUT_MARK_JSON);
  return `${json.slice(0, at)}${inputJson}${json.slice(at + INPUT_MARK_JSON.length)}`;
}

const INPUT_MARK = `soong-agent-input-${randomUUID()}`;
const INPUT_MARK_JSON = JSON.stringify(INPUT_MARK);

// A tool as normalizeToolCall checked it, without the fields only the schema checks.
function plainTool(tool: unknown): boolean {
  const fields = tool as Partial<ToolCallInfo> | undefined;
  return (
    fields !== undefined &&
    fields.input_truncated === undefined &&
    fields.input_artifact_ref === undefined &&
    Object.keys(fields).length === 6
  );
}

// The event fields of one call, as buildInput made them.
interface BuiltInput {
  fields: Record<string, unknown>;
  dialect: ToolDialectView | undefined;
  raw: { tool: ToolCallInfo | undefined; view: unknown };
  inputJson: string | undefined;
}

// What runHook needs for one hook of one call.
interface HookRun {
  hook: HookCommandConfig;
  ids: HookRecordIds;
  dialect: Dialect;
  stdin: string;
  env: Record<string, string>;
  signal: AbortSignal | undefined;
  /** Why the hook is not run and the call denied (a tool input over its dialect's bound). */
  refuse?: string | undefined;
}

const COMMON_KEYS = [
  'protocol_version',
  'event',
  'session_id',
  'project_dir',
  'agent_home',
  'hook_id',
  'timestamp',
] as const;

// The host's view of a tool for one dialect (SPEC §11): its declared name there, and its input in
// our canonical tool's shape.
function toolView(
  view: ToolDialectView | undefined,
  dialect: string,
): Pick<DialectContext, 'tool'> {
  if (view === undefined) return {};
  const name =
    view.names !== undefined && Object.hasOwn(view.names, dialect)
      ? view.names[dialect]
      : undefined;
  if (name === undefined && view.input === undefined) return {};
  return {
    tool: {
      ...(name === undefined ? {} : { name }),
      ...(view.input === undefined ? {} : { input: view.input }),
    },
  };
}

function resolveWorkingDir(workingDir: string | undefined, projectDir: string): string {
  if (workingDir === undefined) return projectDir;
  return resolveUserPath(workingDir, projectDir, os.homedir());
}

function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}
