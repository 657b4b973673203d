import type { LoadedConfig } from '@soong-agent/config';
import {
  createSessionId,
  type HookSessionHandle,
  openHookSession,
  type PermissionCallback,
} from '@soong-agent/loop-adapter';
import type { EventRecord, SessionEndReason } from '@soong-agent/protocol';
import { killAllRuns } from '@soong-agent/runner';
import { diskErrorMessage } from '../disk-errors.js';
import { CliError } from '../errors.js';
import type { ChatMessage, ModelProvider } from '../model/provider.js';
import { selectModelProvider } from '../model/select.js';
import type { AskUser } from '../permissions.js';
import { createToolRegistry } from '../tools/registry.js';
import {
  loadConfigOrExit,
  type NoHooksCommand,
  resolveLocations,
  toolContextFor,
} from './locations.js';
import {
  type AgentLoopResult,
  appendHookContext,
  closeOpenToolCalls,
  runAgentLoop,
} from './loop.js';

/**
 * What `run` and `chat` need before a session: the locations, the config snapshot and the model
 * (`--model` over `[model]`; a real provider's key is taken from the env here).
 */
export function loadSessionSetup(
  options: {
    home?: string;
    project?: string;
    model?: string;
    baseUrl?: string;
    hooks?: boolean;
  },
  /** The command when it takes `--no-hooks`: a broken hooks.json then says how to run without. */
  command?: NoHooksCommand,
): { config: LoadedConfig; provider: ModelProvider } {
  const config = loadConfigOrExit(resolveLocations(options), {
    noHooks: options.hooks === false,
    ...(command === undefined ? {} : { noHooksCommand: command }),
  });
  const provider = selectModelProvider({
    ...(options.model === undefined ? {} : { flag: options.model }),
    ...(options.baseUrl === undefined ? {} : { baseUrlFlag: options.baseUrl }),
    settings: config.settings.model,
    home: config.home,
    cwd: process.cwd(),
  });
  return { config, provider };
}

/** What {@link startSession} needs besides the config. */
export interface StartSessionOptions {
  /** The configuration snapshot (from {@link loadConfigOrExit}). */
  config: LoadedConfig;
  /** The model. */
  provider: ModelProvider;
  /** The permission check for tool calls. */
  permission: PermissionCallback;
  /** Each record, after it is written (timeline or `--json`). @default undefined */
  onRecord?: (record: EventRecord) => void;
  /** The model's text as it streams in. @default undefined */
  onText?: (text: string) => void;
  /** Model calls per loop before `max_turns`. @default DEFAULT_MAX_TURNS (20) */
  maxTurns?: number;
  /** Aborts SessionStart. @default undefined */
  signal?: AbortSignal;
  /** `--no-hooks` was given: `config_loaded` carries `no_hooks: true`. @default false */
  noHooks?: boolean;
  /** The hook session, once open (e.g. to run Notification hooks before a permission prompt). @default undefined */
  onOpen?: (session: HookSessionHandle) => void;
}

/** An open session: one event log, one hook engine, one conversation across its prompts. */
export interface AgentSession {
  sessionId: string;
  eventLog: string;
  /**
   * One user prompt: `user_prompt_submitted`, UserPromptSubmit hooks, then one agent loop on the
   * conversation so far (the history of earlier prompts included). Tool calls an aborted loop left
   * open are closed with `aborted` results first.
   */
  prompt(text: string, options?: { signal?: AbortSignal }): Promise<AgentLoopResult>;
  /**
   * Ends the session: SessionEnd hooks run with `reason`, worker hooks stop, the event log is
   * closed (fsync). Idempotent. @default reason 'completed'
   */
  close(reason?: SessionEndReason): Promise<void>;
}

/** What {@link runSession} needs besides the config. */
export interface RunSessionOptions extends StartSessionOptions {
  /** The user prompt of the loop. */
  prompt: string;
}

/** What a session left behind. */
export interface SessionOutcome extends AgentLoopResult {
  sessionId: string;
  eventLog: string;
}

/**
 * Opens a session: session dir and event log, `session_started`, `config_loaded`, SessionStart
 * hooks. Call `close()` at its end (also after a failure of `prompt`).
 */
export async function startSession(options: StartSessionOptions): Promise<AgentSession> {
  const { config } = options;
  const sessionId = createSessionId();
  // Built before the session dir exists: a bad [[tools]] entry is exit 2 with nothing written.
  const tools = createToolRegistry(toolContextFor(config, sessionId), config.settings);
  let session: HookSessionHandle;
  try {
    session = await openHookSession({
      projectDir: config.projectDir,
      config,
      sessionId,
      tools,
      permission: options.permission,
      // config_loaded carries the loader's warnings plus unknown tool names in matchers.
      knownTools: [...tools.keys()],
      noHooks: options.noHooks === true,
      onRecord: options.onRecord,
      signal: options.signal,
    });
  } catch (error) {
    const message = diskErrorMessage(error);
    if (message === undefined) throw error;
    throw new CliError({
      code: 'RUNTIME',
      message: `cannot start a session in ${config.home}: ${message}`,
      cause: error,
    });
  }
  options.onOpen?.(session);
  const messages: ChatMessage[] = [];
  return {
    sessionId,
    eventLog: session.eventLog,
    async prompt(text, promptOptions = {}) {
      const signalOption =
        promptOptions.signal === undefined ? {} : { signal: promptOptions.signal };
      closeOpenToolCalls(messages);
      // SessionStart's context (spec §13.1) comes before the first prompt.
      appendHookContext(session, messages);
      await session.userPrompt(text, signalOption);
      messages.push({ role: 'user', content: text });
      return runAgentLoop({
        provider: options.provider,
        tools,
        session,
        messages,
        ...(options.maxTurns === undefined ? {} : { maxTurns: options.maxTurns }),
        ...(options.onText === undefined ? {} : { onText: options.onText }),
        ...signalOption,
      });
    },
    close: (reason) => session.close(reason),
  };
}

/**
 * Runs the Notification hooks (kind `permission_prompt`, spec §2.3) before each question `ask`
 * puts to the user, once `bind` gave it the session.
 */
export function notifyingAsk(ask: AskUser): {
  ask: AskUser;
  bind: (session: HookSessionHandle) => void;
} {
  let bound: HookSessionHandle | undefined;
  return {
    async ask(question) {
      await bound?.notify('permission_prompt', question);
      return ask(question);
    },
    bind: (session) => {
      bound = session;
    },
  };
}

/**
 * One `run`: {@link startSession}, one prompt, then the session is closed (the sink fsynced)
 * before it resolves.
 */
export async function runSession(options: RunSessionOptions): Promise<SessionOutcome> {
  const session = await startSession(options);
  let outcome: AgentLoopResult | undefined;
  try {
    outcome = await session.prompt(
      options.prompt,
      options.signal === undefined ? {} : { signal: options.signal },
    );
    return { ...outcome, sessionId: session.sessionId, eventLog: session.eventLog };
  } finally {
    // SessionEnd learns how the loop ended (a throw is an error end).
    await session.close(outcome?.reason ?? 'error');
  }
}

/**
 * Turns SIGINT / SIGTERM into an abort of the running session: the signal aborts, the runner
 * kills every process group still in flight, and the session ends with `loop_ended{aborted}`. A
 * second signal exits at once. Returns the controller and a `dispose` that removes the handlers.
 */
export function abortOnSignals(): {
  signal: AbortSignal;
  received: () => NodeJS.Signals | undefined;
  dispose: () => void;
} {
  const controller = new AbortController();
  let received: NodeJS.Signals | undefined;
  const handler = (name: NodeJS.Signals) => {
    if (received !== undefined) {
      killAllRuns();
      process.exit(name === 'SIGINT' ? 130 : 143);
    }
    received = name;
    controller.abort(new Error(`received ${name}`));
    killAllRuns();
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
  return {
    signal: controller.signal,
    received: () => received,
    dispose: () => {
      process.off('SIGINT', handler);
      process.off('SIGTERM', handler);
    },
  };
}
