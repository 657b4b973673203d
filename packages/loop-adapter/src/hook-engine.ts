import os from 'node:os';
import path from 'node:path';
import type { CompiledHooks, LoadedConfig } from '@soong-agent/config';
import type { HookCommandConfig } from '@soong-agent/config/internal';
import {
  type Dialect,
  type DialectContext,
  type DialectRegistry,
  defaultDialectRegistry,
} from '@soong-agent/dialects';
import type { MatchSubject } from '@soong-agent/matcher';
import { resolveUserPath } from '@soong-agent/paths/internal';
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
import { boundContext, boundSerialisedToolInput, fitsInline } from './bound-tool-io.js';
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
import { type SpanScope, startSpan, TRACING } from './telemetry.js';
import {
  composeJson,
  isCallDialectView,
  isPlainObject,
  knownToolInputJson,
  type SerialisedToolInput,
  serialiseToolInput,
  type ToolDialectView,
} from './tool-call.js';
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
 * The event-specific fields of a hook input (spec §2.1); the engine adds the common ones.
 * For tool events `tool.input` may be the raw input: the engine bounds it when it is too large.
 * `SessionStart.source` defaults to `"startup"`.
 */
export type HookPayload<E extends HookEvent> = E extends 'SessionStart'
  ? { source?: 'startup' | 'resume' }
  : E extends 'PreToolUse' | 'PostToolUse' | 'PostToolUseFailure'
    ? Omit<HookInputFor<E>, CommonInputKey> & { dialect?: ToolDialectView }
    : Omit<HookInputFor<E>, CommonInputKey>;

export type { ToolDialectView } from './tool-call.js';

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
   * `permissionDecision: "ask"` (spec §7). The caller asks the permission callback even when the
   * risk class is `allow` (`executeToolBatch` passes it as `hookAsk`).
   */
  ask?: { hookId: string; reason: string };
  /** One entry per hook that ran, in order. */
  results: readonly HookRunResult[];
  /**
   * With `[hooks] deliver_context = true`: the context the hooks added, one hook-context node per
   * hook that added some, in hook order, each bounded (over `inline_result_bytes`: its summary and
   * the artifact path) and recorded as `hook_context_added` (spec §13.1). A session queues them for
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

/** Runs the hooks of an event as spec §2 says; see {@link createHookEngine}. */
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
   * Ends the session's worker hooks (spec §8: stdin closed, then SIGTERM and SIGKILL to each
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
   * `transcript_path` sent to `"protocol": "claude-code"` hooks (spec §7); the session keeps the
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
  /**
   * The dialects hooks speak: each hook's `"protocol"` is resolved here once, when the engine is
   * created. @default config.dialects, else defaultDialectRegistry
   */
  dialects?: DialectRegistry | undefined;
}

const NO_HOOKS: HookOutcome = Object.freeze({
  decision: 'none',
  results: Object.freeze([]),
}) as HookOutcome;
const TOOL_EVENT_NAMES: ReadonlySet<string> = new Set(TOOL_EVENTS);

// What every stage of a run needs of its engine, made once per session.
interface EngineCore {
  config: LoadedConfig;
  sink: EventSink;
  sessionId: string;
  projectDir: string;
  agentHome: string;
  artifacts: ArtifactStore | undefined;
  transcriptPath: string;
  runner: typeof runCommand;
  workers: ReturnType<typeof createWorkerPool>;
  scripts: ReturnType<typeof createScriptFingerprints>;
  baseEnv: Record<string, string>;
  allowedRoots: string[];
  deliverContext: boolean;
  limitBytes: number;
  reportedUnknownKeys: Set<string>;
  runnerWarnings: string[];
  dialectOf(hook: HookCommandConfig): Dialect;
  /** Per hook: the JSON of its common fields but the timestamp (see hookCommonJson). */
  commonJson: Map<HookCommandConfig, { event: HookEvent; json: string }>;
  onContext: ((node: AddedContextNode) => void) | undefined;
}

/**
 * The hook engine: which hooks run, in what order, with what stdin and env, and what their output
 * means (spec §2). Each hook run is recorded (`hook_started`, `hook_log`…, `hook_finished` or
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
  const core = createEngineCore(options);
  let closed = false;
  const stopRunnerWarnings = onRunnerWarning((warning) =>
    core.runnerWarnings.push(warning.message),
  );
  return {
    config,
    sink,
    sessionId,
    projectDir: core.projectDir,
    artifacts,
    explain: (subject) => config.hooks.explain(subject),
    close() {
      closed = true;
      stopRunnerWarnings();
      return core.workers.close();
    },
    // Not async itself: runEvent is the one async layer of a run.
    run(event, payload, runOptions = {}) {
      if (closed) {
        return Promise.reject(
          new LoopAdapterError({
            code: 'ENGINE_CLOSED',
            message: `engine.run("${event}") after engine.close(): create a new engine for a new session`,
          }),
        );
      }
      return runEvent(core, event, payload, runOptions);
    },
  };
}

function createEngineCore(options: HookEngineOptions): EngineCore {
  const { config, sink } = options;
  const projectDir = path.resolve(options.projectDir ?? config.projectDir);
  const agentHome = path.resolve(config.home);
  const hooks = config.hooksEnabled ? config.hooks.rules.flatMap((rule) => rule.hooks) : [];
  // The first spawn hook of the session should cost what the tenth does: the runner's spawn
  // helper starts now, while the host talks to its model, not inside the first tool call.
  if (options.runner === undefined && hooks.some((hook) => hook.mode === 'spawn')) {
    warmSpawnHelper();
  }
  return {
    config,
    sink,
    sessionId: options.sessionId,
    projectDir,
    agentHome,
    artifacts: options.artifacts,
    transcriptPath: path.resolve(
      options.transcriptPath ?? sessionPaths(agentHome, options.sessionId).transcript,
    ),
    runner: options.runner ?? runCommand,
    workers: createWorkerPool({
      maxLineBytes: config.settings.runner.max_output_bytes,
      stderrTailBytes: HOOK_STDERR_LOG_BYTES,
      emit: (ids, record) => sink.emit(withIds(record, ids)),
      ...(options.startWorker === undefined ? {} : { start: options.startWorker }),
    }),
    // spec §2.2 extended: a hook whose script changed since the session started is not run and
    // fails closed.
    scripts: createScriptFingerprints(
      hooks,
      (hook) => resolveWorkingDir(hook.workingDir, projectDir),
      os.homedir(),
      projectDir,
      agentHome,
    ),
    baseEnv: {
      SOONG_AGENT_HOME: agentHome,
      SOONG_AGENT_PROJECT_DIR: projectDir,
      SOONG_AGENT_SESSION_ID: options.sessionId,
    },
    allowedRoots: [projectDir, agentHome],
    deliverContext: config.settings.hooks.deliver_context === true,
    limitBytes: config.settings.hooks.inline_result_bytes,
    reportedUnknownKeys: new Set<string>(),
    runnerWarnings: [],
    dialectOf: resolveDialects(hooks, options.dialects ?? config.dialects),
    commonJson: new Map(),
    onContext: options.onContext,
  };
}

// Each compiled hook's dialect, looked up once in the registry the engine was given.
function resolveDialects(
  hooks: readonly HookCommandConfig[],
  registry: DialectRegistry = defaultDialectRegistry,
): (hook: HookCommandConfig) => Dialect {
  const resolved = new Map<HookCommandConfig, Dialect>();
  for (const hook of hooks) resolved.set(hook, registry.get(hook.protocol));
  return (hook) => resolved.get(hook) ?? registry.get(hook.protocol);
}

// engine.run: check → match → build inputs → run serially → decide.
async function runEvent<E extends HookEvent>(
  core: EngineCore,
  event: E,
  payload: HookPayload<E>,
  runOptions: HookRunOptions,
): Promise<HookOutcome> {
  checkHookEvent(event);
  if (!isPlainObject(payload)) {
    checkOption(false, 'payload', payload, `pass the ${event} fields of spec §2.1`);
  }
  const { callId: givenCallId } = runOptions;
  checkOption(
    givenCallId === undefined || (typeof givenCallId === 'string' && givenCallId !== ''),
    'options.callId',
    givenCallId,
    'pass the tool call id, or leave it out',
  );
  const tool = TOOL_EVENT_NAMES.has(event)
    ? normalizeToolCall((payload as { tool?: unknown }).tool, core.projectDir)
    : undefined;
  const hooks = matchHooks(core, event, tool);
  if (hooks.length === 0) return NO_HOOKS;
  const built = await buildInputs(core, event, payload, tool);
  const callId = givenCallId ?? tool?.call_id;
  const ran = await runSerially(core, built, hooks, { callId, signal: runOptions.signal });
  return decideOutcome(ran, runOptions.signal);
}

// Stage 1: the hooks of the event whose matchers accept the subject, in configuration order.
function matchHooks(
  core: EngineCore,
  event: HookEvent,
  tool: ToolCallInfo | undefined,
): readonly HookCommandConfig[] {
  if (!core.config.hooksEnabled) return [];
  const subject: MatchSubject = tool
    ? { event, tool: tool.name, tags: tool.tags, paths: tool.paths, input: tool.input }
    : { event };
  return core.config.hooks.match(subject);
}

// The event fields of one run, shared by its hooks: built once, serialised at most once.
interface BuiltInputs {
  event: HookEvent;
  timestamp: string;
  fields: Record<string, unknown>;
  /** The dialect view, bounded like the tool input. */
  view: ToolDialectView | undefined;
  /** The JSON of the view's input as given, when known. */
  viewInputJson: string | undefined;
  /** The tool and view as given (a dialect that takes the input whole reads them). */
  raw: { tool: ToolCallInfo | undefined; view: unknown };
  /** The JSON of `fields.tool.input` when it is known (serialised once per call). */
  inputJson: string | undefined;
  /** The JSON of `{ timestamp, ...fields }`, made for the first soong hook. */
  fieldsJson?: string;
  /** Per bound: the tool with its whole input for dialects that take it whole (made when one runs). */
  whole: Map<number, WholeInput> | undefined;
}

// Stage 2: the event fields (the common ones are the engine's), the tool input bounded, the
// dialect view bounded, each once per run.
async function buildInputs<E extends HookEvent>(
  core: EngineCore,
  event: E,
  payload: HookPayload<E>,
  rawTool: ToolCallInfo | undefined,
): Promise<BuiltInputs> {
  const timestamp = isoNow();
  // One copy of the payload: the normalised tool is put in it, where the payload had its tool.
  const { dialect, ...fields } = payload as Record<string, unknown>;
  if (rawTool !== undefined) fields.tool = rawTool;
  // The engine sets the common fields; a payload cannot override them.
  for (const key of COMMON_KEYS) delete fields[key];
  if (event === 'SessionStart') fields.source ??= 'startup';
  // Awaited only when there is something to bound (each await is a turn of the microtask queue).
  const given = rawTool === undefined ? undefined : toolAsGiven(core, rawTool);
  const tool =
    given === undefined || 'bound' in given
      ? given?.bound
      : await boundLargeTool(core, rawTool as ToolCallInfo, given.over);
  const view = isPlainObject(dialect) ? await boundDialectView(core, dialect) : undefined;
  if (tool !== undefined) fields.tool = tool.tool;
  return {
    event,
    timestamp,
    fields,
    view: view?.view,
    viewInputJson: view?.inputJson,
    raw: { tool: rawTool, view: dialect },
    inputJson: tool?.inputJson,
    whole: undefined,
  };
}

// The tool as hooks see it, with the JSON of its input when known.
interface BoundTool {
  tool: ToolCallInfo;
  inputJson?: string;
}

// The tool as hooks see it when its input goes as it is: with the gate's JSON of the input (it
// serialised the input once for the call), bounded by the host already, or measured here and
// within the bound. `{ over }`: the input serialised here, larger than the bound.
function toolAsGiven(
  core: EngineCore,
  tool: ToolCallInfo,
): { bound: BoundTool } | { over: SerialisedToolInput } {
  const known = knownToolInputJson(tool);
  if (known !== undefined) return { bound: { tool, inputJson: known } };
  if (tool.input_truncated !== undefined) return { bound: { tool } };
  const serialised = serialiseToolInput(tool.input);
  if (fitsInline(serialised.json, core.limitBytes)) {
    return { bound: { tool, inputJson: serialised.json } };
  }
  return { over: serialised };
}

// A tool input over the bound: summarised for hooks, the whole input stored as an artifact.
async function boundLargeTool(
  core: EngineCore,
  tool: ToolCallInfo,
  serialised: SerialisedToolInput,
): Promise<BoundTool> {
  const done = await boundSerialisedToolInput(serialised, {
    limitBytes: core.limitBytes,
    artifacts: core.artifacts,
  });
  if (done.bounded.input_truncated) return { tool: { ...tool, ...done.bounded } };
  return { tool, inputJson: done.json };
}

// The bounded dialect views of the calls the gate made them for: a call's PreToolUse and
// PostToolUse share one bound.
const boundViews = new WeakMap<object, Promise<BoundView | undefined>>();

interface BoundView {
  view: ToolDialectView | undefined;
  /** The JSON of the view's input as given, when it has one. */
  inputJson: string | undefined;
}

// The dialect view's input is bounded like the tool input (it travels on the same stdin).
function boundDialectView(core: EngineCore, view: unknown): Promise<BoundView | undefined> {
  if (!isPlainObject(view)) return Promise.resolve(undefined);
  if (!isCallDialectView(view)) return boundViewNow(core, view as ToolDialectView);
  let bound = boundViews.get(view);
  if (bound === undefined) {
    bound = boundViewNow(core, view as ToolDialectView);
    boundViews.set(view, bound);
  }
  return bound;
}

async function boundViewNow(core: EngineCore, view: ToolDialectView): Promise<BoundView> {
  const { names, input } = view;
  if (input === undefined) {
    return { view: names === undefined ? undefined : { names }, inputJson: undefined };
  }
  const serialised = serialiseToolInput(input);
  const done = await boundSerialisedToolInput(serialised, { limitBytes: core.limitBytes });
  return {
    view: { ...(names === undefined ? {} : { names }), input: done.bounded.input },
    inputJson: isPlainObject(input) ? serialised.json : undefined,
  };
}

type WholeInput =
  | { tool: ToolCallInfo; view: ToolDialectView | undefined; bytes: number }
  | { over: number };

/**
 * The call's tool with its whole input, for a dialect whose agent passes it whole up to
 * `limitBytes` (spec §7); `{ over }` when it is larger. A host that bounded the input itself
 * (`input_truncated`) is read back from its artifact. Once per bound and run.
 */
async function wholeInput(
  core: EngineCore,
  built: BuiltInputs,
  limitBytes: number,
): Promise<WholeInput> {
  built.whole ??= new Map();
  let got = built.whole.get(limitBytes);
  if (got === undefined) {
    got = await readWholeInput(core, built, limitBytes);
    built.whole.set(limitBytes, got);
  }
  return got;
}

async function readWholeInput(
  core: EngineCore,
  built: BuiltInputs,
  limitBytes: number,
): Promise<WholeInput> {
  const tool = built.raw.tool as ToolCallInfo;
  let input: unknown = tool.input;
  let bytes: number;
  if (tool.input_truncated === true) {
    const ref = tool.input_artifact_ref;
    if (ref === undefined || core.artifacts === undefined) {
      return { over: Number.POSITIVE_INFINITY };
    }
    if (ref.bytes > limitBytes) return { over: ref.bytes };
    input = JSON.parse((await core.artifacts.read(ref)).toString('utf8'));
    bytes = ref.bytes;
  } else {
    bytes = Buffer.byteLength(built.inputJson ?? JSON.stringify(input) ?? '');
    if (bytes > limitBytes) return { over: bytes };
  }
  const { input_truncated: _t, input_artifact_ref: _r, ...rest } = tool;
  const view = isPlainObject(built.raw.view) ? (built.raw.view as ToolDialectView) : undefined;
  const viewJson =
    view?.input === undefined
      ? undefined
      : (built.viewInputJson ?? JSON.stringify(view.input) ?? '');
  const viewBytes = viewJson === undefined ? 0 : Buffer.byteLength(viewJson);
  return {
    tool: { ...rest, input: input as ToolCallInfo['input'] },
    // The host's view travels whole too, within the same bound; beyond it, bounded as usual.
    view: viewBytes <= limitBytes ? view : built.view,
    bytes,
  };
}

// What the hooks of one run came to, for the decision.
interface SerialRun {
  results: HookRunResult[];
  added: AddedContextNode[];
  ask: HookOutcome['ask'];
  /** The hook whose deny stands (the run stopped there). */
  deniedBy?: string;
}

// Stage 3: the hooks one after the other, each with its stdin; a standing deny ends the run.
async function runSerially(
  core: EngineCore,
  built: BuiltInputs,
  hooks: readonly HookCommandConfig[],
  context: { callId: string | undefined; signal: AbortSignal | undefined },
): Promise<SerialRun> {
  const ran: SerialRun = { results: [], added: [], ask: undefined };
  for (const hook of hooks) {
    const dialect = core.dialectOf(hook);
    // An agent with a failure event (Claude Code, Copilot, Cursor) runs its PostToolUse hooks
    // only for results that succeeded (spec §13.2): such a hook is not run at all here.
    if (skipsFailedResult(built.event, dialect, built.fields)) continue;
    const ids = hookRecordIds(hook.id, built.event, context.callId);
    const limit = dialect.toolInputBytes;
    const whole =
      limit !== undefined && built.raw.tool !== undefined
        ? await wholeInput(core, built, limit)
        : undefined;
    const run = prepareHookRun(core, built, hook, dialect, {
      ids,
      signal: context.signal,
      first: ran.results.length === 0,
      whole,
    });
    const result = await (TRACING ? runTraced(core, run) : runHook(core, run));
    ran.results.push(result);
    if (core.deliverContext && result.context !== undefined) {
      ran.added.push(await addContext(core, result.context, ids));
    }
    if (result.decision === 'deny' && !result.ignored) {
      ran.deniedBy = hook.id;
      return ran;
    }
    if (result.ask === true && ran.ask === undefined) {
      ran.ask = { hookId: hook.id, reason: result.reason ?? `hook ${hook.id} asked` };
    }
    if (context.signal?.aborted) break;
  }
  return ran;
}

// One hook's stdin and env (and, for a dialect that takes the input whole and finds it too
// large, why it is refused: `whole` is the input it takes whole, for such a dialect). The first
// hook's input is checked against the spec §2.1 schema.
function prepareHookRun(
  core: EngineCore,
  built: BuiltInputs,
  hook: HookCommandConfig,
  dialect: Dialect,
  {
    ids,
    signal,
    first,
    whole,
  }: {
    ids: HookRecordIds;
    signal: AbortSignal | undefined;
    first: boolean;
    whole: WholeInput | undefined;
  },
): HookRun {
  let hookFields = built.fields;
  let hookView = built.view;
  let refuse: string | undefined;
  const limit = dialect.toolInputBytes;
  if (whole !== undefined) {
    const got = whole;
    if (!('over' in got)) {
      hookFields = { ...built.fields, tool: got.tool };
      hookView = got.view;
    } else if (hook.onLargeInput !== 'summarize') {
      const size = Number.isFinite(got.over) ? `${got.over} bytes` : 'an input bounded by the host';
      refuse = `the tool input (${size}) is larger than the ${limit} bytes a "${dialect.name}" hook gets whole: the call is denied without running the hook (on_large_input "deny"; "summarize" runs it on the summarised input)`;
    }
  }
  // The common fields in their order, then the event's (one object, no spread of a second one).
  const input: Record<string, unknown> = {
    protocol_version: PROTOCOL_VERSION,
    event: built.event,
    session_id: core.sessionId,
    project_dir: core.projectDir,
    agent_home: core.agentHome,
    hook_id: hook.id,
    timestamp: built.timestamp,
    ...hookFields,
  };
  if (first) checkHookInput(built.event, hookFields, input);
  // Built in place, not spread: this runs for every hook of every call.
  const context: DialectContext = {
    sessionId: core.sessionId,
    projectDir: core.projectDir,
    agentHome: core.agentHome,
    transcriptPath: core.transcriptPath,
    hookId: hook.id,
  };
  if (hook.dialectEvent !== undefined) context.dialectEvent = hook.dialectEvent;
  const tool = toolView(hookView, dialect.name);
  if (tool !== undefined) context.tool = tool;
  const encoded = dialect.encodeInput(built.event, input, context);
  // Our own input as it is (soong): composed of the common fields and the run's fields, each
  // serialised once; another agent's input: one compact JSON line (some scripts `read -r` one).
  const stdin =
    encoded === input && hookFields === built.fields
      ? joinJsonObjects(hookCommonJson(core, built.event, hook), soongFieldsJson(built))
      : `${JSON.stringify(encoded)}\n`;
  return { hook, ids, dialect, stdin, env: dialect.env(context), signal, refuse };
}

// The ids of one hook run's records, in their order.
function hookRecordIds(
  hookId: string,
  event: HookEvent,
  callId: string | undefined,
): HookRecordIds {
  return callId === undefined
    ? { hook_id: hookId, event }
    : { hook_id: hookId, event, call_id: callId };
}

// The JSON of a hook's common fields but the timestamp (spec §2.1), the same on every run of the
// hook: made once per hook and event, then composed with the run's timestamp and fields.
function hookCommonJson(core: EngineCore, event: HookEvent, hook: HookCommandConfig): string {
  const known = core.commonJson.get(hook);
  if (known !== undefined && known.event === event) return known.json;
  const json = JSON.stringify({
    protocol_version: PROTOCOL_VERSION,
    event,
    session_id: core.sessionId,
    project_dir: core.projectDir,
    agent_home: core.agentHome,
    hook_id: hook.id,
  } satisfies Omit<Record<CommonInputKey, unknown>, 'timestamp'>);
  core.commonJson.set(hook, { event, json });
  return json;
}

// The run's timestamp and event fields as JSON (what follows a hook's common fields), composed
// around the tool input's JSON when it is known; made for the run's first soong hook.
function soongFieldsJson(built: BuiltInputs): string {
  if (built.fieldsJson !== undefined) return built.fieldsJson;
  const { fields, inputJson } = built;
  const tool = fields.tool;
  const toolJson =
    inputJson !== undefined && isPlainObject(tool)
      ? composeJson(tool, { input: inputJson })
      : undefined;
  built.fieldsJson = joinJsonObjects(
    JSON.stringify({ timestamp: built.timestamp }),
    composeJson(fields, { tool: toolJson }),
  );
  return built.fieldsJson;
}

// `{...a, ...b}` of two JSON objects with no key in common, as JSON.
function joinJsonObjects(a: string, b: string): string {
  if (b === '{}') return a;
  if (a === '{}') return b;
  return `${a.slice(0, -1)},${b.slice(1)}`;
}

// Stage 4: what the hooks decided together.
function decideOutcome(ran: SerialRun, signal: AbortSignal | undefined): HookOutcome {
  const { results, added } = ran;
  const context = added.length > 0 ? { context: added } : {};
  if (ran.deniedBy !== undefined) {
    const denied = results[results.length - 1] as HookRunResult;
    return {
      decision: 'deny',
      reason: denied.reason as string,
      hookId: ran.deniedBy,
      results,
      ...context,
    };
  }
  const allowed = results.some((result) => result.decision === 'allow');
  const cancelled =
    signal?.aborted === true || results.some((result) => result.failure === 'aborted');
  return {
    decision: allowed ? 'allow' : 'none',
    ...(ran.ask ? { ask: ran.ask } : {}),
    results,
    ...context,
    ...(cancelled ? { cancelled: true as const } : {}),
  };
}

// One span per hook run when OpenTelemetry is present: ids, decision or failure, duration and
// exit code; never the payload, a reason or an environment value. Not async: with the API but no
// SDK there is no span, and runHook's promise is handed up as it is (an async function returning
// a promise costs three more turns of the microtask queue on every call).
function runTraced(core: EngineCore, run: HookRun): Promise<HookRunResult> {
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
  if (span === undefined) return runHook(core, run);
  return runInSpan(core, run, span);
}

async function runInSpan(core: EngineCore, run: HookRun, span: SpanScope): Promise<HookRunResult> {
  const result = await span.run(() => runHook(core, run));
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
}

// Not async: the worker pool's answer is handed up as it is (an async function returning a
// promise costs extra turns of the microtask queue on every call).
function runHook(core: EngineCore, run: HookRun): Promise<HookRunResult> {
  const { hook, ids } = run;
  const settle = (outcome: HookRunOutcome, onFailure = hook.onFailure) =>
    decideAndRecord(
      core,
      onFailure === hook.onFailure ? hook : { ...hook, onFailure },
      run.dialect,
      ids,
      outcome,
    );
  const refused = run.refuse ?? changedScriptMessage(core, hook);
  if (refused !== undefined) {
    // Failed closed whatever its on_failure: hook_failed (spawn_error, nothing ran), then a deny.
    core.sink.emit({ type: 'hook_started', ...ids, command: hook.command });
    return Promise.resolve(settle(outcomeOfStartError(new Error(refused), 0), 'deny'));
  }
  const cwd = resolveWorkingDir(hook.workingDir, core.projectDir);
  if (hook.mode !== 'worker') return runSpawned(core, run, cwd, settle);
  return Promise.resolve(
    core.workers.call({
      hook,
      ids,
      // Built only when the hook has no live worker.
      start: () => ({
        command: hook.command,
        cwd,
        allowedRoots: core.allowedRoots,
        envAllowlist: core.config.envAllowlist,
        env: { ...core.baseEnv, SOONG_AGENT_HOOK_MODE: 'worker', ...run.env },
        killGraceMs: core.config.settings.runner.kill_grace_ms,
      }),
      input: run.stdin,
      signal: run.signal,
      settle: (outcome) => settle(outcome),
    }),
  );
}

// Why a hook whose script changed since the session started is not run.
function changedScriptMessage(core: EngineCore, hook: HookCommandConfig): string | undefined {
  const changed = core.scripts.changedFile(hook);
  if (changed === undefined) return undefined;
  return `script ${changed} changed since the session started: not run (a hook's files are fingerprinted when the session starts; start a new session to use the new version)`;
}

async function runSpawned(
  core: EngineCore,
  run: HookRun,
  cwd: string,
  settle: (outcome: HookRunOutcome) => HookRunResult,
): Promise<HookRunResult> {
  const { hook, ids, stdin, signal } = run;
  const { settings } = core.config;
  core.sink.emit({ type: 'hook_started', ...ids, command: hook.command });
  const started = performance.now();
  let outcome: HookRunOutcome;
  try {
    const result = await core.runner({
      command: hook.command,
      cwd,
      allowedRoots: core.allowedRoots,
      envAllowlist: core.config.envAllowlist,
      env: {
        ...core.baseEnv,
        SOONG_AGENT_HOOK_EVENT: ids.event,
        SOONG_AGENT_HOOK_MODE: 'spawn',
        ...run.env,
      },
      input: stdin,
      timeoutMs: hook.timeoutSec * 1000,
      killGraceMs: settings.runner.kill_grace_ms,
      maxOutputBytes: settings.runner.max_output_bytes,
      tailBytes: HOOK_STDERR_LOG_BYTES,
      stopOnOutputLimit: true,
      signal,
    });
    outcome = outcomeOfRunResult(result, {
      timeoutSec: hook.timeoutSec,
      maxOutputBytes: settings.runner.max_output_bytes,
    });
  } catch (error) {
    outcome = outcomeOfStartError(error, performance.now() - started);
  }
  // The runner's own warnings (its spawn helper could not start) go on the hook that met them.
  for (const message of core.runnerWarnings.splice(0)) {
    core.sink.emit({ type: 'hook_log', ...ids, source: 'warning', message });
  }
  return settle(outcome);
}

function decideAndRecord(
  core: EngineCore,
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
    unknownKeysReported: core.reportedUnknownKeys.has(hook.id),
    deliverContext: core.deliverContext,
  });
  if (decided.reportedUnknownKeys) core.reportedUnknownKeys.add(hook.id);
  for (const record of decided.records) core.sink.emit(withIds(record, ids));
  return decided.result;
}

// spec §13.1: the context of one hook run as a node for the model, bounded like a tool result
// and recorded after the run's own records.
async function addContext(
  core: EngineCore,
  text: string,
  ids: HookRecordIds,
): Promise<AddedContextNode> {
  const bounded = await boundContext(text, {
    limitBytes: core.limitBytes,
    artifacts: core.artifacts,
  });
  core.sink.emit({
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
  core.onContext?.(node);
  return node;
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

// A record with the ids of its hook run after its own fields: `{ ...record, ...ids }`, made with
// Object.assign, which Node 20's V8 does 2-3x faster than a second spread in one literal (measured
// on the worker call path, where two records are written per call; no difference on Node 24).
function withIds<R extends object>(record: R, ids: HookRecordIds): R & HookRecordIds {
  return Object.assign({}, record, ids);
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

// The host's view of a tool for one dialect (spec §11): its declared name there, and its input in
// our canonical tool's shape.
function toolView(
  view: ToolDialectView | undefined,
  dialect: string,
): DialectContext['tool'] | undefined {
  if (view === undefined) return undefined;
  const name =
    view.names !== undefined && Object.hasOwn(view.names, dialect)
      ? view.names[dialect]
      : undefined;
  if (name === undefined && view.input === undefined) return undefined;
  return {
    ...(name === undefined ? {} : { name }),
    ...(view.input === undefined ? {} : { input: view.input }),
  };
}

function resolveWorkingDir(workingDir: string | undefined, projectDir: string): string {
  if (workingDir === undefined) return projectDir;
  return resolveUserPath(workingDir, projectDir, os.homedir());
}
