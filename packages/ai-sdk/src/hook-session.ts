import path from 'node:path';
import type { LoadedConfig } from '@soong-agent/config';
import {
  type HookSessionHandle,
  hookContextToMessage,
  LoopAdapterError,
  openHookSession,
  type PermissionCallback,
  type ToolDescription,
  type ToolGate,
} from '@soong-agent/loop-adapter';
import type { RiskClass } from '@soong-agent/protocol';
import { RiskClassSchema } from '@soong-agent/protocol/internal';
import type { ToolExecutionOptions, ToolSet } from 'ai';

/** Options of {@link createHookSession}. */
export interface HookSessionOptions {
  /** The project the app works on (absolute or relative to the cwd); hooks run there. */
  projectDir: string;
  /** The agent home. @default env `SOONG_AGENT_HOME`, else `~/.soong-agent` */
  home?: string;
  /** Risk class per tool name (spec §1.2 tags, §4 halting); a tool not listed is `dangerous`. @default {} */
  risk?: Readonly<Record<string, RiskClass>>;
  /** The paths a call touches, per tool name, for `path_prefix` matchers. @default {} */
  paths?: Readonly<Record<string, (input: unknown) => string[]>>;
  /** Asked for each call the PreToolUse hooks allowed. @default every call is allowed */
  permission?: PermissionCallback;
  /**
   * How other agents' hooks (`"protocol": "claude-code"`, …) name a tool, per tool name, e.g.
   * `{ shell: { "claude-code": "Bash" } }` (spec §11). @default our canonical names mapped by each dialect
   */
  dialectName?: Readonly<Record<string, Readonly<Record<string, string>>>>;
  /**
   * A tool's input in the shape of our canonical tool, for other agents' hooks only, per tool name,
   * e.g. `{ bash: (input) => ({ command: input.cmd }) }`: a Claude Code hook then sees `Bash` with
   * `tool_input.command`. @default the input as given
   */
  dialectInput?: Readonly<Record<string, (input: unknown) => unknown>>;
  /** Cancels running hooks and tools; calls not started yet get `aborted` errors. @default undefined */
  signal?: AbortSignal;
  /**
   * Hide this process's environment from its children (Linux: `/proc/$PPID/environ` shows NUL bytes),
   * as the `soong-agent` CLI does, so a hook cannot read the app's secrets there. @default true
   */
  protectEnvironment?: boolean;
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
  /**
   * The context the hooks added since the last call (spec §13.1; only with `[hooks]
   * deliver_context = true` in config.toml, else always `[]`), in order, as user messages to append
   * to `messages` before the next `generateText` / `streamText`: SessionStart's before the first
   * request, UserPromptSubmit's after the prompt, PreToolUse's and PostToolUse's after that tool's
   * result (a wrapped tool's result itself never changes). Drains: each message is given once.
   */
  takeContext(): { role: 'user'; content: string }[];
  /** Ends the session: worker hooks stop, the event log is flushed and closed. Idempotent. */
  close(): Promise<void>;
}

/**
 * Loads `config.toml` and `hooks.json` once (a broken file rejects with the config's `ConfigError`),
 * opens the session with `openHookSession` (event log, artifacts, Claude Code transcript,
 * `session_started`, `config_loaded`, SessionStart). Each tool call goes through the session's tool
 * gate: one gate per SDK step, the calls of a step serialised in the model's order.
 */
export async function createHookSession(options: HookSessionOptions): Promise<HookSession> {
  const projectDir = path.resolve(options.projectDir);
  const risks = checkRisks(options.risk ?? {});
  const pathsOf = options.paths ?? {};
  const { signal } = options;
  const tools = new Map<string, ToolDescription>();
  const session: HookSessionHandle = await openHookSession({
    projectDir,
    ...(options.home === undefined ? {} : { home: options.home }),
    tools,
    // Default: every call is allowed, but one a hook asked to confirm (no one to ask here).
    permission: options.permission,
    signal,
    protectEnvironment: options.protectEnvironment !== false,
  });

  // The calls of one model step share the SDK's `messages` array: one gate (and one queue) per step.
  const steps = new WeakMap<object, Step>();
  // Every call in flight (gate, then the tool): close() waits for them so no record stays open.
  const inFlight = new Set<Promise<unknown>>();
  let closed: Promise<void> | undefined;

  function stepOf(sdkOptions: ToolExecutionOptions | undefined): Step {
    const key = sdkOptions?.messages;
    const fresh = (): Step => ({ gate: session.toolGate(), queue: Promise.resolve() });
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
    const id = sdkOptions?.toolCallId ?? `${name}-${Math.random().toString(36).slice(2)}`;
    // generateText's per-call abortSignal cancels the hook and keeps the tool from running.
    const callSignal = anySignal(signal, sdkOptions?.abortSignal);
    const callOptions = callSignal === undefined ? {} : { signal: callSignal };
    // Serialised in the order the SDK started the calls (the model's order).
    const turn = step.queue.then(async () => {
      const outcome: { output?: unknown; failed?: unknown } = {};
      const result = await step.gate.run(
        { id, name, input },
        async () => {
          try {
            outcome.output = await finalOutput(original(input, sdkOptions));
          } catch (error) {
            // The tool's own failure reaches the SDK as it was thrown, and is recorded.
            outcome.failed = error;
            throw error;
          }
          return { content: resultText(outcome.output), isError: false };
        },
        callOptions,
      );
      // A denial, a skip or an abort is an error the model sees as the tool's result; execute never ran.
      if (result.status !== 'ok' && !('failed' in outcome)) {
        return { failed: new Error(result.content) };
      }
      return outcome;
    });
    step.queue = turn.then(
      () => undefined,
      () => undefined,
    );
    inFlight.add(turn);
    const forget = () => inFlight.delete(turn);
    turn.then(forget, forget);
    const outcome: { output?: unknown; failed?: unknown } = await turn;
    if ('failed' in outcome) throw outcome.failed;
    return outcome.output;
  }

  return {
    sessionId: session.sessionId,
    eventLog: session.eventLog,
    config: session.config,
    wrapTools<TOOLS extends ToolSet>(toolSet: TOOLS): TOOLS {
      const wrapped: Record<string, unknown> = {};
      for (const [name, tool] of Object.entries(toolSet)) {
        const original = tool.execute as
          | ((input: unknown, options: ToolExecutionOptions) => unknown)
          | undefined;
        if (typeof original !== 'function') {
          // No execute (a client-side tool): the SDK never runs it, nothing to guard.
          wrapped[name] = tool;
          continue;
        }
        const pathsFn = pathsOf[name];
        const dialectName = options.dialectName?.[name];
        const dialectInput = options.dialectInput?.[name];
        // What the gate learns of the tool: its risk, paths and how other agents' hooks see it.
        tools.set(name, {
          name,
          risk: risks.get(name) ?? 'dangerous',
          ...(pathsFn === undefined ? {} : { paths: pathsFn }),
          ...(dialectName === undefined ? {} : { dialectName }),
          ...(dialectInput === undefined ? {} : { dialectInput }),
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
      await session.userPrompt(text);
    },
    takeContext() {
      return session.takeContext().map(hookContextToMessage);
    },
    async stop(lastAssistantText) {
      const decision = await session.stop(lastAssistantText);
      if (decision.continue)
        return { continue: true, message: hookContextToMessage(decision.node) };
      session.sink.emit({ type: 'loop_ended', reason: 'completed' });
      return { continue: false };
    },
    close() {
      closed ??= (async () => {
        // No hook runs and no call is left without its tool_finished when this resolves.
        await Promise.allSettled([...inFlight]);
        await session.close('completed');
      })();
      return closed;
    },
  };
}

interface Step {
  gate: ToolGate;
  queue: Promise<void>;
}

function anySignal(...signals: (AbortSignal | undefined)[]): AbortSignal | undefined {
  const given = signals.filter((signal): signal is AbortSignal => signal !== undefined);
  if (given.length <= 1) return given[0];
  return AbortSignal.any(given);
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
