import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { type LoadedConfig, loadConfig, resolveAgentHome } from '@soong-agent/config';
import {
  createFileArtifactStore,
  createHookEngine,
  createJsonlEventSink,
  createSessionId,
  createStopController,
  createToolBatch,
  type ExecuteToolBatchOptions,
  hookContextToMessage,
  LoopAdapterError,
  type PermissionCallback,
  recordConfigLoaded,
  recordSessionStarted,
  runSessionStart,
  runUserPromptSubmit,
  sessionPaths,
  type ToolBatch,
  type ToolDefinition,
} from '@soong-agent/loop-adapter';
import { type RiskClass, RiskClassSchema } from '@soong-agent/protocol';
import type { ToolExecutionOptions, ToolSet } from 'ai';

/** Options of {@link createHookSession}. */
export interface HookSessionOptions {
  /** The project the app works on (absolute or relative to the cwd); hooks run there. */
  projectDir: string;
  /** The agent home. @default env `SOONG_AGENT_HOME`, else `~/.soong-agent` */
  home?: string;
  /** Risk class per tool name (SPEC §1.2 tags, §4 halting); a tool not listed is `dangerous`. @default {} */
  risk?: Readonly<Record<string, RiskClass>>;
  /** The paths a call touches, per tool name, for `path_prefix` matchers. @default {} */
  paths?: Readonly<Record<string, (input: unknown) => string[]>>;
  /** Asked for each call the PreToolUse hooks allowed. @default every call is allowed */
  permission?: PermissionCallback;
  /** Cancels running hooks and tools; calls not started yet get `aborted` errors. @default undefined */
  signal?: AbortSignal;
}

/** What {@link HookSession.stop} tells the app. */
export type StopResult =
  | { continue: false }
  | { continue: true; message: { role: 'user'; content: string } };

/** One session of hooks in an AI SDK app (see {@link createHookSession}). */
export interface HookSession {
  /** The session id (the folder of its event log). */
  readonly sessionId: string;
  /** The session's event log, `<home>/sessions/<id>/events.jsonl`. */
  readonly eventLog: string;
  /** The configuration snapshot the session runs with. */
  readonly config: LoadedConfig;
  /** The app's tool set with each `execute` going through PreToolUse → permission → execute → PostToolUse. */
  wrapTools<TOOLS extends ToolSet>(tools: TOOLS): TOOLS;
  /** Records the prompt and runs UserPromptSubmit; starts a new loop (Stop counts restart). */
  userPrompt(text: string): Promise<void>;
  /** Runs the Stop hooks when the model ended a turn without tool calls. */
  stop(lastAssistantText: string): Promise<StopResult>;
  /** Ends the session: worker hooks stop, the event log is flushed and closed. Idempotent. */
  close(): Promise<void>;
}

/**
 * Loads `config.toml` and `hooks.json` once (a broken file rejects with the config's `ConfigError`),
 * opens the session's event log, records `session_started` and `config_loaded` and runs SessionStart.
 */
export async function createHookSession(options: HookSessionOptions): Promise<HookSession> {
  const projectDir = path.resolve(options.projectDir);
  const home = resolveAgentHome(
    options.home === undefined ? {} : { home: path.resolve(options.home) },
  );
  const risks = checkRisks(options.risk ?? {});
  const pathsOf = options.paths ?? {};
  const permission: PermissionCallback = options.permission ?? (async () => ({ allow: true }));
  const { signal } = options;
  const config = loadConfig({ home, projectDir });
  const sessionId = createSessionId();
  const files = sessionPaths(home, sessionId);
  mkdirSync(files.dir, { recursive: true, mode: 0o700 });
  const sink = createJsonlEventSink(files.eventLog, { sessionId });
  const artifacts = createFileArtifactStore(files.artifacts);
  const engine = createHookEngine({ config, sink, sessionId, projectDir, artifacts });
  const stopController = createStopController({
    engine,
    sink,
    limit: config.settings.hooks.stop_loop_limit,
  });
  recordSessionStarted(sink, { projectDir, agentHome: home });
  recordConfigLoaded(sink, config);
  const signalOption = signal === undefined ? {} : { signal };
  await runSessionStart(engine, signalOption);

  // The calls of one model step share the SDK's `messages` array: one batch (and one queue) per step.
  const steps = new WeakMap<object, Step>();
  const definitions = new Map<string, ToolDefinition>();
  const pending = new Map<string, PendingCall>();
  const batchOptions: ExecuteToolBatchOptions = {
    tools: definitions,
    engine,
    permission,
    artifacts,
    sink,
    signal,
  };
  let closed: Promise<void> | undefined;

  function stepOf(sdkOptions: ToolExecutionOptions | undefined): Step {
    const key = sdkOptions?.messages;
    const fresh = (): Step => ({ batch: createToolBatch(batchOptions), queue: Promise.resolve() });
    if (key === undefined || key === null || typeof key !== 'object') return fresh();
    let step = steps.get(key);
    if (step === undefined) {
      step = fresh();
      steps.set(key, step);
    }
    return step;
  }

  async function runCall(
    name: string,
    original: (input: unknown, options: ToolExecutionOptions) => unknown,
    input: unknown,
    sdkOptions: ToolExecutionOptions,
  ): Promise<unknown> {
    if (closed !== undefined) {
      throw new LoopAdapterError({
        code: 'ENGINE_CLOSED',
        message: `tool ${name} called after hooks.close(); create a new hook session`,
      });
    }
    const step = stepOf(sdkOptions);
    const callId = sdkOptions?.toolCallId ?? `${name}-${Math.random().toString(36).slice(2)}`;
    const call: PendingCall = { original, sdkOptions };
    // Serialised in the order the SDK started the calls (the model's order).
    const turn = step.queue.then(async () => {
      pending.set(callId, call);
      try {
        return await step.batch.run({ id: callId, name, input });
      } finally {
        pending.delete(callId);
      }
    });
    step.queue = turn.then(
      () => undefined,
      () => undefined,
    );
    const result = await turn;
    if (result.status === 'ok') return call.output;
    // The tool's own failure reaches the SDK as it was thrown; a denial, a skip or an abort is an
    // error the model sees as the tool's result (execute never ran).
    if (call.error !== undefined) throw call.error.value;
    throw new Error(result.content);
  }

  return {
    sessionId,
    eventLog: files.eventLog,
    config,
    wrapTools<TOOLS extends ToolSet>(tools: TOOLS): TOOLS {
      const wrapped: Record<string, unknown> = {};
      for (const [name, tool] of Object.entries(tools)) {
        const original = tool.execute as
          | ((input: unknown, options: ToolExecutionOptions) => unknown)
          | undefined;
        if (typeof original !== 'function') {
          // No execute (a client-side tool): the SDK never runs it, nothing to guard.
          wrapped[name] = tool;
          continue;
        }
        const pathsFn = pathsOf[name];
        definitions.set(name, {
          name,
          risk: risks.get(name) ?? 'dangerous',
          ...(pathsFn === undefined ? {} : { paths: pathsFn }),
          async execute(callInput, context) {
            const call = pending.get(context.callId);
            if (call === undefined)
              throw new Error(`tool ${name}: no pending call ${context.callId}`);
            try {
              const output = await finalOutput(call.original(callInput, call.sdkOptions));
              call.output = output;
              return { content: resultText(output), isError: false };
            } catch (error) {
              call.error = { value: error };
              throw error;
            }
          },
        });
        wrapped[name] = {
          ...tool,
          execute: (input: unknown, sdkOptions: ToolExecutionOptions) =>
            runCall(name, original.bind(tool), input, sdkOptions),
        };
      }
      return wrapped as TOOLS;
    },
    async userPrompt(text) {
      stopController.reset();
      await runUserPromptSubmit(engine, text, signalOption);
    },
    async stop(lastAssistantText) {
      const decision = await stopController.onModelStop(lastAssistantText, signalOption);
      if (decision.continue)
        return { continue: true, message: hookContextToMessage(decision.node) };
      sink.emit({ type: 'loop_ended', reason: 'completed' });
      return { continue: false };
    },
    close() {
      closed ??= (async () => {
        try {
          await engine.close();
        } finally {
          await sink.close();
        }
      })();
      return closed;
    },
  };
}

interface Step {
  batch: ToolBatch;
  queue: Promise<void>;
}

interface PendingCall {
  original: (input: unknown, options: ToolExecutionOptions) => unknown;
  sdkOptions: ToolExecutionOptions;
  output?: unknown;
  error?: { value: unknown };
}

function checkRisks(risk: Readonly<Record<string, RiskClass>>): Map<string, RiskClass> {
  const risks = new Map<string, RiskClass>();
  for (const [name, value] of Object.entries(risk)) {
    const parsed = RiskClassSchema.safeParse(value);
    if (!parsed.success) {
      throw new LoopAdapterError({
        code: 'INVALID_OPTIONS',
        message: `risk.${name} is ${JSON.stringify(value)}; expected "readonly", "write" or "dangerous"`,
      });
    }
    risks.set(name, parsed.data);
  }
  return risks;
}

// A tool's execute may return a value, a promise, or an async iterable of preliminary results
// (the last one is the result).
async function finalOutput(returned: unknown): Promise<unknown> {
  const value = await returned;
  if (
    value !== null &&
    typeof value === 'object' &&
    typeof (value as AsyncIterable<unknown>)[Symbol.asyncIterator] === 'function'
  ) {
    let last: unknown;
    for await (const part of value as AsyncIterable<unknown>) last = part;
    return last;
  }
  return value;
}

// What hooks see of a result: a string as it is, anything else as JSON.
function resultText(output: unknown): string {
  if (typeof output === 'string') return output;
  if (output === undefined) return '';
  try {
    return JSON.stringify(output) ?? '';
  } catch {
    return String(output);
  }
}
