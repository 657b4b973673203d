import { mkdirSync } from 'node:fs';
import path from 'node:path';
import {
  checkToolNames,
  type LoadedConfig,
  loadConfig,
  resolveAgentHome,
} from '@soong-agent/config';
import type {
  AddedContextNode,
  EventRecord,
  HostEventName,
  NotificationKind,
  SessionEndReason,
} from '@soong-agent/protocol';
import { hideProcessEnvironment } from '@soong-agent/runner/process-environment';
import { createFileArtifactStore } from './artifact-store.js';
import { type ClaudeCodeTranscript, createClaudeCodeTranscript } from './claude-code-transcript.js';
import { createJsonlEventSink, type EventSink } from './event-sink.js';
import {
  createHookEngine,
  type HookEngine,
  type HookOutcome,
  type HookPayload,
} from './hook-engine.js';
import { checkHostEventFields } from './host-event.js';
import { checkOption, LoopAdapterError } from './loop-adapter-error.js';
import {
  hookContextToMessage,
  recordConfigLoaded,
  recordSessionStarted,
  runSessionStart,
  runUserPromptSubmit,
} from './observe.js';
import {
  createSessionId,
  isSessionId,
  type SessionPaths,
  sessionFilesIn,
  sessionPaths,
} from './session.js';
import { createStopController, type StopController, type StopDecision } from './stop-controller.js';
import { type PermissionCallback, type ToolDescriptions, textResult } from './tool-call.js';
import { CLOSED_TOOL_TEXT, createToolGate, type ToolGate } from './tool-gate.js';

/** Options of {@link openHookSession} (spec §11). */
export interface OpenHookSessionOptions {
  /** The project (absolute or relative to the cwd); hooks run there. */
  projectDir: string;
  /** The agent home. @default env `SOONG_AGENT_HOME`, else `~/.soong-agent` */
  home?: string | undefined;
  /** The session id (see `createSessionId`). @default createSessionId() */
  sessionId?: string | undefined;
  /** `session_started.source` and SessionStart's `source`. @default 'startup' */
  source?: 'startup' | 'resume' | undefined;
  /** Tools by name (a `ToolRegistry`, or descriptions without `execute`), for gate calls that do not give their risk, tags, paths or dialect names. @default none */
  tools?: ToolDescriptions | undefined;
  /** Asked for each call the PreToolUse hooks allowed. @default allowUnlessAsked (a call a hook asked to confirm is refused: no one to ask) */
  permission?: PermissionCallback | undefined;
  /** Prevented stops honoured per loop (0 = no limit). @default config `hooks.stop_loop_limit` */
  stopLimit?: number | undefined;
  /** Cancels SessionStart, and by default every hook and gate of the session. @default undefined */
  signal?: AbortSignal | undefined;
  /** A configuration snapshot the host already loaded (`loadConfig`). @default loadConfig({ home, projectDir, noHooks }) */
  config?: LoadedConfig | undefined;
  /** Run without hooks (`config_loaded` carries `no_hooks: true`). @default false */
  noHooks?: boolean | undefined;
  /** Tool names matchers are checked against: unknown ones become `config_loaded` warnings. @default [] (no check) */
  knownTools?: readonly string[] | undefined;
  /** Each record, after it is written. @default undefined */
  onRecord?: ((record: EventRecord) => void) | undefined;
  /**
   * Where the session's files go (events.jsonl, artifacts/, transcript.jsonl), e.g. a scratch dir
   * for a dry run; then `sessionId` may be any non-empty name. @default `<home>/sessions/<id>`
   */
  dir?: string | undefined;
  /**
   * Run SessionStart when opening and SessionEnd in `close()`. `hooks test`, which runs one event on
   * its own, turns them off. @default true
   */
  lifecycleHooks?: boolean | undefined;
  /**
   * Hide this process's environment from its children first (Linux: `/proc/$PPID/environ` then
   * shows NUL bytes; the runner's `hideProcessEnvironment`), so a hook cannot read the host's
   * secrets there. Once per process; `process.env` keeps working. @default false
   */
  protectEnvironment?: boolean | undefined;
}

/** An open session (see {@link openHookSession}). */
export interface HookSessionHandle {
  readonly sessionId: string;
  /** `<home>/sessions/<id>` */
  readonly dir: string;
  /** `<home>/sessions/<id>/events.jsonl` */
  readonly eventLog: string;
  /** The configuration snapshot. */
  readonly config: LoadedConfig;
  /** The hook engine (its sink and artifact store are the session's). */
  readonly engine: HookEngine;
  /** The session's one event sink (e.g. for the host's `model_turn` and `loop_ended`). */
  readonly sink: EventSink;
  /** The Claude Code transcript (`transcript_path` of `"protocol": "claude-code"` hooks). */
  readonly transcript: ClaudeCodeTranscript;
  /**
   * A user prompt: a new loop (Stop counts start over), a transcript line, `user_prompt_submitted`
   * and UserPromptSubmit (observe only).
   */
  userPrompt(text: string, options?: { signal?: AbortSignal }): Promise<HookOutcome>;
  /** The gate of one model step (spec §4 deny state of that step); see {@link ToolGate}. */
  toolGate(options?: { signal?: AbortSignal; permission?: PermissionCallback }): ToolGate;
  /**
   * The model ended a turn without tool calls: the Stop hooks (see `createStopController`). On
   * `continue: true` the hook-context message is in the transcript; send it to the model. The host
   * records `loop_ended`.
   */
  stop(lastAssistantText: string, options?: { signal?: AbortSignal }): Promise<StopDecision>;
  /**
   * Drains the hook-context nodes the session's hooks added since the last call, in order (spec
   * §13.1; only with `[hooks] deliver_context = true`, else always `[]`): SessionStart's before the
   * first request, UserPromptSubmit's after the prompt, PreToolUse's and PostToolUse's after that
   * tool's result. Call it right before each model request and append `hookContextToMessage(node)`
   * (role `user`, never `system`) for each, after the messages already there. Each drained node is
   * also written to the transcript as a user line.
   */
  takeContext(): AddedContextNode[];
  /** The agent waits for the user: Notification hooks (observe only, spec §2.3). */
  notify(
    kind: NotificationKind,
    message: string,
    options?: { signal?: AbortSignal },
  ): Promise<HookOutcome>;
  /**
   * An event the host itself knows about (spec §13.2; `HOST_EVENTS`): it compacts its context
   * (`PreCompact`: `trigger`, `custom_instructions`), starts a subagent (`SubagentStart`:
   * `agent_id`, `agent_type`) or a subagent finished (`SubagentStop`: those plus
   * `stop_hook_active`, `last_assistant_message`, `agent_transcript_path?`). Observe only: a deny
   * is recorded as `hook_decision_ignored`, and the outcome never denies. `fields` are checked
   * for that event (an unknown or missing key throws `LoopAdapterError` `INVALID_OPTIONS`, as does
   * an event that is not a host event), before any hook runs.
   */
  fire<E extends HostEventName>(
    event: E,
    fields: HookPayload<E>,
    options?: { signal?: AbortSignal },
  ): Promise<HookOutcome>;
  /**
   * Ends the session once: waits until no hook of the session runs, runs SessionEnd with `reason`
   * (observe only, bounded by its hooks' timeouts), stops worker hooks, closes the transcript and
   * the event log (fsync). Idempotent: later calls return the same promise. @default reason 'completed'
   */
  close(reason?: SessionEndReason): Promise<void>;
}

/**
 * Opens a session the way every host does (spec §11): loads the configuration snapshot, creates
 * `<home>/sessions/<id>/` (0700) with its event log, artifact store and Claude Code transcript,
 * builds the engine, records `session_started` and `config_loaded`, and runs SessionStart. A
 * broken config file rejects with the config's `ConfigError` before anything is written.
 */
export async function openHookSession(options: OpenHookSessionOptions): Promise<HookSessionHandle> {
  const { config, projectDir, sessionId, files } = prepareSession(options);
  const lifecycleHooks = options.lifecycleHooks !== false;
  const stopLimit = options.stopLimit ?? config.settings.hooks.stop_loop_limit;
  const source = options.source ?? 'startup';
  mkdirSync(files.dir, { recursive: true, mode: 0o700 });
  const sink = createJsonlEventSink(files.eventLog, {
    sessionId,
    ...(options.onRecord === undefined ? {} : { onRecord: options.onRecord }),
  });

  let engine: HookEngine | undefined;
  let transcript: ClaudeCodeTranscript | undefined;
  // spec §13.1: context the hooks added, in order, until the host takes it for its next request.
  const pendingContext: AddedContextNode[] = [];
  // Every hook run of the session in flight: close() waits for them.
  const running = new Set<Promise<unknown>>();
  // Calls a gate let run whose result the host has not given yet: close() ends them.
  const openCalls = new Map<string, () => void>();
  let closing: Promise<void> | undefined;
  const finish = (end: (() => Promise<unknown>) | undefined) =>
    finishSession({ running, openCalls, engine, transcript, sink }, end);

  try {
    transcript = createClaudeCodeTranscript(files.transcript, {
      projectDir,
      readers: hasTranscriptReaders(config),
    });
    const artifacts = createFileArtifactStore(files.artifacts);
    const hooks = createHookEngine({
      config,
      sink,
      sessionId,
      projectDir,
      artifacts,
      transcriptPath: transcript.file,
      onContext: (node) => pendingContext.push(node),
    });
    engine = hooks;
    const stopController = createStopController({ engine: hooks, sink, limit: stopLimit });
    recordSessionStarted(sink, { projectDir, agentHome: config.home, source });
    const known = options.knownTools;
    recordConfigLoaded(
      sink,
      known === undefined
        ? config
        : { ...config, warnings: [...config.warnings, ...checkToolNames(config, known)] },
      options.noHooks === true ? { no_hooks: true } : {},
    );
    const track = createTracker(sessionId, running, () => closing !== undefined);
    if (lifecycleHooks) {
      const signal = options.signal;
      await track(() => runSessionStart(hooks, { source, ...(signal ? { signal } : {}) }));
    }
    return sessionHandle({
      options,
      sessionId,
      files,
      config,
      engine: hooks,
      sink,
      transcript,
      stopController,
      pendingContext,
      openCalls,
      track,
      isClosing: () => closing !== undefined,
      close: (end) => {
        closing ??= finish(end);
        return closing;
      },
    });
  } catch (error) {
    closing ??= finish(undefined);
    await closing.catch(() => undefined);
    throw error;
  }
}

// Everything checked and resolved before a file is written.
function prepareSession(options: OpenHookSessionOptions): {
  config: LoadedConfig;
  projectDir: string;
  sessionId: string;
  files: SessionPaths;
} {
  checkOption(
    typeof options === 'object' && options !== null && typeof options.projectDir === 'string',
    'options.projectDir',
    options?.projectDir,
    'pass the project dir',
  );
  if (options.protectEnvironment === true) protectEnvironmentOnce();
  const config =
    options.config ??
    loadConfig({
      home: resolveAgentHome(
        options.home === undefined ? {} : { home: path.resolve(options.home) },
      ),
      projectDir: path.resolve(options.projectDir),
      noHooks: options.noHooks === true,
    });
  const projectDir = path.resolve(options.projectDir);
  const sessionId = options.sessionId ?? createSessionId();
  checkOption(
    options.dir === undefined
      ? isSessionId(sessionId)
      : typeof sessionId === 'string' && sessionId !== '',
    'sessionId',
    sessionId,
    'pass createSessionId()',
  );
  const files =
    options.dir === undefined
      ? sessionPaths(config.home, sessionId)
      : sessionFilesIn(path.resolve(options.dir));
  return { config, projectDir, sessionId, files };
}

type Track = <T>(work: () => Promise<T>) => Promise<T>;

// Runs a piece of the session's work and keeps it in `running` until it settles; refused once the
// session is closing.
function createTracker(
  sessionId: string,
  running: Set<Promise<unknown>>,
  isClosing: () => boolean,
): Track {
  return <T>(work: () => Promise<T>): Promise<T> => {
    if (isClosing()) {
      return Promise.reject(
        new LoopAdapterError({
          code: 'ENGINE_CLOSED',
          message: `hook session ${sessionId} is closed: open a new session`,
        }),
      );
    }
    const promise = work();
    running.add(promise);
    const forget = () => running.delete(promise);
    promise.then(forget, forget);
    return promise;
  };
}

// The end of a session: its hooks settle, open calls get their tool_finished, `end` (SessionEnd)
// runs, then the engine (workers), the transcript and the log close, whatever failed before.
async function finishSession(
  parts: {
    running: Set<Promise<unknown>>;
    openCalls: Map<string, () => void>;
    engine: HookEngine | undefined;
    transcript: ClaudeCodeTranscript | undefined;
    sink: EventSink;
  },
  end: (() => Promise<unknown>) | undefined,
): Promise<void> {
  try {
    await Promise.allSettled([...parts.running]);
    // No tool_started stays without its tool_finished.
    for (const finishCall of [...parts.openCalls.values()]) finishCall();
    parts.openCalls.clear();
    await end?.();
  } finally {
    try {
      // Worker hooks end with the session (spec §8), their worker_stopped records before the log closes.
      await parts.engine?.close();
    } finally {
      parts.transcript?.close();
      await parts.sink.close();
    }
  }
}

// What sessionHandle builds the host's handle from.
interface SessionParts {
  options: OpenHookSessionOptions;
  sessionId: string;
  files: SessionPaths;
  config: LoadedConfig;
  engine: HookEngine;
  sink: EventSink;
  transcript: ClaudeCodeTranscript;
  stopController: StopController;
  pendingContext: AddedContextNode[];
  openCalls: Map<string, () => void>;
  track: Track;
  isClosing: () => boolean;
  close(end: (() => Promise<unknown>) | undefined): Promise<void>;
}

// The open session's handle: each method a tracked piece of work on the parts.
function sessionHandle(parts: SessionParts): HookSessionHandle {
  const { options, engine: hooks, transcript: opened, stopController, track } = parts;
  const lifecycleHooks = options.lifecycleHooks !== false;
  const signalOf = (given: { signal?: AbortSignal } | undefined) => {
    const signal = given?.signal ?? options.signal;
    return signal === undefined ? {} : { signal };
  };
  // Ids of the session's calls from their `before` to their end, across all its gates.
  const activeCallIds = new Set<string>();
  return {
    sessionId: parts.sessionId,
    dir: parts.files.dir,
    eventLog: parts.files.eventLog,
    config: parts.config,
    engine: hooks,
    sink: parts.sink,
    transcript: opened,
    userPrompt(text, promptOptions) {
      return track(async () => {
        stopController.reset(text);
        opened.user(text);
        return runUserPromptSubmit(hooks, text, signalOf(promptOptions));
      });
    },
    toolGate(gateOptions = {}) {
      return sessionGate(
        parts,
        createToolGate({
          engine: hooks,
          permission: gateOptions.permission ?? options.permission,
          tools: options.tools,
          transcript: opened,
          openCalls: parts.openCalls,
          activeCallIds,
          isClosing: parts.isClosing,
          ...signalOf(gateOptions),
        }),
      );
    },
    stop(lastAssistantText, stopOptions) {
      return track(async () => {
        const decision = await stopController.onModelStop(lastAssistantText, signalOf(stopOptions));
        if (decision.continue) opened.user(hookContextToMessage(decision.node).content);
        return decision;
      });
    },
    takeContext() {
      const nodes = parts.pendingContext.splice(0);
      // After close() the transcript is closed: the nodes are still the host's to deliver.
      if (!parts.isClosing()) {
        for (const node of nodes) opened.user(hookContextToMessage(node).content);
      }
      return nodes;
    },
    notify(kind, message, notifyOptions) {
      return track(() =>
        hooks.run('Notification', { kind, message }, { signal: signalOf(notifyOptions).signal }),
      );
    },
    fire(event, fields, fireOptions) {
      // Checked before anything is tracked: a host's mistake throws at once, hooks or none.
      const checked = checkHostEventFields(event, fields);
      return track(() =>
        hooks.run(event, checked as HookPayload<typeof event>, {
          signal: signalOf(fireOptions).signal,
        }),
      );
    },
    close(reason = 'completed') {
      return parts.close(
        lifecycleHooks
          ? () =>
              hooks.run('SessionEnd', { reason }).catch((error: unknown) => {
                // The host closed the engine itself first: its workers are gone, no SessionEnd.
                if (!(LoopAdapterError.isInstance(error) && error.code === 'ENGINE_CLOSED'))
                  throw error;
              })
          : undefined,
      );
    },
  };
}

// A gate of the session: each step tracked (close() waits for it); after close() nothing runs and
// nothing is recorded (the log is closed): spec §11.
function sessionGate(parts: Pick<SessionParts, 'track' | 'isClosing'>, gate: ToolGate): ToolGate {
  const { track, isClosing } = parts;
  return {
    engine: gate.engine,
    tools: gate.tools,
    run: (call, execute, runOptions) =>
      isClosing()
        ? Promise.resolve(textResult(call, CLOSED_TOOL_TEXT, 'error'))
        : track(() => gate.run(call, execute, runOptions)),
    before: (call, callOptions) =>
      isClosing()
        ? Promise.resolve({
            run: false as const,
            result: textResult(call, CLOSED_TOOL_TEXT, 'error'),
          })
        : track(() => gate.before(call, callOptions)),
    after: (id, result, callOptions) => track(() => gate.after(id, result, callOptions)),
  };
}

let environmentProtected = false;

// The environment block is hidden once: later sessions of the process find it hidden already.
function protectEnvironmentOnce(): void {
  if (environmentProtected) return;
  environmentProtected = true;
  hideProcessEnvironment();
}

// True when a hook of the session may read `transcript_path`: every protocol but soong's gets it.
function hasTranscriptReaders(config: LoadedConfig): boolean {
  return (
    config.hooksEnabled &&
    config.hooks.rules.some((rule) => rule.hooks.some((hook) => hook.protocol !== 'soong'))
  );
}
