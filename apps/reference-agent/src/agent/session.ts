import { statSync } from 'node:fs';
import path from 'node:path';
import {
  ConfigError,
  type ConfigWarning,
  checkToolNames,
  type LoadedConfig,
  loadConfig,
  resolveAgentHome,
} from '@soong-agent/config';
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
import type { AgentTool, ToolContext } from '../tools/types.js';
import { selfCommand, shellQuote } from '../ui/self-command.js';
import {
  type AgentLoopResult,
  appendHookContext,
  closeOpenToolCalls,
  runAgentLoop,
} from './loop.js';

/** Where a command works: the agent home and the project dir, both absolute. */
export interface Locations {
  home: string;
  projectDir: string;
}

/**
 * `--home` > `SOONG_AGENT_HOME` > `~/.soong-agent`; `--project` > the current dir. A `--home` that
 * is not an existing directory is `CliError` `USAGE` (a typo must not start a session without hooks,
 * nor create a stray home); a home from the env or the default may be missing (the loader warns).
 */
export function resolveLocations(
  options: { home?: string; project?: string },
  /** `hooks import --write` creates the home it was asked to write into. @default false */
  { createsHome = false }: { createsHome?: boolean } = {},
): Locations {
  const home = resolveAgentHome(
    options.home === undefined ? {} : { home: path.resolve(options.home) },
  );
  if (options.home !== undefined && !createsHome && !isDirectory(home)) {
    throw new CliError({
      code: 'USAGE',
      message: `agent home ${home} does not exist or is not a directory (--home); create it first or fix the path`,
    });
  }
  return { home, projectDir: path.resolve(options.project ?? process.cwd()) };
}

function isDirectory(target: string): boolean {
  try {
    return statSync(target).isDirectory();
  } catch {
    return false;
  }
}

function checkProjectDir(projectDir: string): void {
  if (!isDirectory(projectDir)) {
    throw new CliError({
      code: 'USAGE',
      message: `project dir ${projectDir} does not exist or is not a directory (--project)`,
    });
  }
}

/** A command that takes `--no-hooks` (SPEC §6): its config errors say how to run without hooks. */
export type NoHooksCommand = 'run' | 'chat';

/**
 * Loads config.toml and hooks.json once (the session's snapshot). A missing project dir is
 * `CliError` `USAGE`, a broken file `CliError` `CONFIG` (both exit 2). With `noHooksCommand`, an
 * error that lies only in hooks.json ends with a line giving the same command line with
 * `--no-hooks`, the way to work until the file is fixed (config.toml is read either way, so a
 * broken config.toml gets no such line).
 */
export function loadConfigOrExit(
  locations: Locations,
  options: { noHooks?: boolean; noHooksCommand?: NoHooksCommand } = {},
): LoadedConfig {
  checkProjectDir(locations.projectDir);
  try {
    return loadConfig({
      home: locations.home,
      projectDir: locations.projectDir,
      noHooks: options.noHooks === true,
    });
  } catch (error) {
    if (!ConfigError.isInstance(error)) throw error;
    const hooksFile = path.join(locations.home, 'hooks.json');
    const onlyHooksJson = error.issues.every((issue) => issue.file === hooksFile);
    const hint =
      options.noHooksCommand !== undefined && onlyHooksJson
        ? `\n${noHooksHint(options.noHooksCommand)}`
        : '';
    throw new CliError({ code: 'CONFIG', message: `${error.message}${hint}`, cause: error });
  }
}

// The user's own command line with --no-hooks after the command word, ready to paste.
function noHooksHint(command: NoHooksCommand, argv: readonly string[] = process.argv): string {
  const args = argv.slice(2);
  const at = args.indexOf(command);
  const rerun =
    at === -1
      ? [command, '--no-hooks', '…']
      : [...args.slice(0, at + 1), '--no-hooks', ...args.slice(at + 1)].map(shellQuote);
  return `to run without hooks until hooks.json is fixed (--no-hooks): ${selfCommand(argv)} ${rerun.join(' ')}`;
}

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

/** The tool context of a session. */
export function toolContextFor(config: LoadedConfig, sessionId: string): ToolContext {
  return {
    projectDir: config.projectDir,
    agentHome: config.home,
    sessionId,
    envAllowlist: config.envAllowlist,
    maxOutputBytes: config.settings.runner.max_output_bytes,
    killGraceMs: config.settings.runner.kill_grace_ms,
    hooks: config.hooks,
  };
}

/** Config warnings plus unknown tool names in matchers (with a "did you mean"). */
export function allWarnings(
  config: LoadedConfig,
  tools: ReadonlyMap<string, AgentTool>,
): ConfigWarning[] {
  return [...config.warnings, ...checkToolNames(config, [...tools.keys()])];
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
      // SessionStart's context (SPEC §13.1) comes before the first prompt.
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
 * Runs the Notification hooks (kind `permission_prompt`, SPEC §2.3) before each question `ask`
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
