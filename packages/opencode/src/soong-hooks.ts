import path from 'node:path';
import { type LoadedConfig, loadConfig, resolveAgentHome } from '@soong-agent/config';
import {
  type HookSessionHandle,
  hookContextToMessage,
  openHookSession,
  type PermissionCallback,
  type ToolDescription,
  type ToolGate,
} from '@soong-agent/loop-adapter';
import { allowUnlessAsked } from '@soong-agent/loop-adapter/internal';
import type { HookContextNode } from '@soong-agent/protocol';
import { deliverHookContext } from './deliver-hook-context.js';
import type {
  OpencodeClient,
  OpencodeEvent,
  OpencodeHooks,
  OpencodeMessage,
  OpencodePart,
  OpencodePlugin,
} from './opencode-types.js';
import { mapToolCall, OPENCODE_TOOLS } from './tool-map.js';

/** The `service` of this plugin's lines in OpenCode's log. */
const LOG_SERVICE = 'soong-hooks';

/** One OpenCode session and its soong session. */
interface SessionState {
  /** The soong session (opened on the first event of the OpenCode session). */
  opened: Promise<HookSessionHandle>;
  /** The gate of the current model step (a new one per model request). */
  gate: ToolGate | undefined;
  /** `before` calls of the step, in the order OpenCode gave them. */
  queue: Promise<unknown>;
  /** Calls the gate let run, waiting for their result. */
  calls: Map<string, ToolGate>;
  /** Hook-context nodes waiting for the next model request. */
  context: HookContextNode[];
  /** Texts of the continuation prompts a Stop hook asked for (not user prompts). */
  continuations: Set<string>;
}

/**
 * The OpenCode plugin: the user's soong agent home (`SOONG_AGENT_HOME`, default `~/.soong-agent`,
 * its hooks.json in any dialect) in every OpenCode session, through `openHookSession` like every
 * host. PreToolUse in `tool.execute.before` (a deny throws: the tool does not run and the model
 * reads the reason as the tool's result), PostToolUse in `tool.execute.after`, SessionStart on
 * `session.created`, UserPromptSubmit on `chat.message`, Stop on `session.idle` (a prevented stop
 * prompts the session once more with the hook's reason), SessionEnd when the session is deleted or
 * OpenCode shuts down. The factory never throws: a broken hooks.json stops every tool call with the
 * config error instead, so OpenCode never runs unguarded because the plugin failed to load.
 */
export const SoongHooks: OpencodePlugin = async (input) => {
  const plugin = new OpencodeHookSessions(
    input.client,
    path.resolve(input.directory),
    resolveAgentHome(),
  );
  plugin.announce();
  return plugin.hooks();
};

type Hook<Name extends keyof OpencodeHooks> = NonNullable<OpencodeHooks[Name]>;

// The plugin's state, shared by every hook OpenCode calls: the config (reloaded while broken), the
// MCP server names, and the soong session of each OpenCode session.
class OpencodeHookSessions {
  private readonly client: OpencodeClient;
  private readonly projectDir: string;
  private readonly home: string;
  private config: LoadedConfig | undefined;
  private configError: Error | undefined;
  private mcpServers: Promise<string[]> | undefined;
  private readonly sessions = new Map<string, SessionState>();

  constructor(client: OpencodeClient, projectDir: string, home: string) {
    this.client = client;
    this.projectDir = projectDir;
    this.home = home;
  }

  /** The hooks OpenCode calls. */
  hooks(): OpencodeHooks {
    return {
      event: ({ event }) => this.onEvent(event),
      'chat.message': (input, output) => this.onChatMessage(input.sessionID, output.parts),
      // Called before each model request: the calls of its answer are one step (one gate).
      'chat.params': async ({ sessionID }) => {
        const state = this.sessions.get(sessionID);
        if (state !== undefined) state.gate = undefined;
      },
      'tool.execute.before': (input, output) => this.beforeTool(input, output),
      'tool.execute.after': (input, output) => this.afterTool(input, output),
      'experimental.chat.messages.transform': (_input, output) =>
        this.transformMessages(output.messages),
      dispose: async () => {
        await Promise.allSettled([...this.sessions.keys()].map((id) => this.closeSession(id)));
      },
    };
  }

  /** Loads the config now and says in OpenCode's log what is active, or why nothing runs. */
  announce(): void {
    try {
      const loaded = this.currentConfig();
      this.log(
        'info',
        `soong-agent hooks: ${activeHooks(loaded)} active from ${loaded.hooksFile}; each OpenCode session's event log is ${path.join(this.home, 'sessions', '<id>', 'events.jsonl')}`,
      );
    } catch {
      this.log('error', refusal(this.configError as Error));
    }
  }

  private log(
    level: 'info' | 'warn' | 'error',
    message: string,
    extra?: Record<string, unknown>,
  ): void {
    // Not awaited: the server that takes the line may still be starting while plugins load.
    void this.client.app
      .log({
        body: { service: LOG_SERVICE, level, message, ...(extra === undefined ? {} : { extra }) },
      })
      .catch(() => undefined);
  }

  private report(what: string): (error: unknown) => void {
    return (error) => this.log('error', `${what}: ${describe(error)}`);
  }

  // Loaded now and again at each tool call while broken: fixing hooks.json takes effect without
  // restarting OpenCode; until then no tool runs.
  private currentConfig(): LoadedConfig {
    if (this.config !== undefined) return this.config;
    try {
      this.config = loadConfig({ home: this.home, projectDir: this.projectDir });
      this.configError = undefined;
      return this.config;
    } catch (error) {
      this.configError = error instanceof Error ? error : new Error(String(error));
      throw this.configError;
    }
  }

  private serverNames(): Promise<string[]> {
    this.mcpServers ??= this.client.config
      .get()
      .then((answer) => Object.keys(answer.data?.mcp ?? {}))
      .catch(() => []);
    return this.mcpServers;
  }

  private stateFor(sessionID: string, source: 'startup' | 'resume'): SessionState {
    const existing = this.sessions.get(sessionID);
    if (existing !== undefined) return existing;
    const opened = openHookSession({
      projectDir: this.projectDir,
      home: this.home,
      config: this.currentConfig(),
      source,
      tools: TOOL_DESCRIPTIONS,
      permission: permissionFrom(this.currentConfig()),
    });
    const state: SessionState = {
      opened,
      gate: undefined,
      queue: Promise.resolve(),
      calls: new Map(),
      context: [],
      continuations: new Set(),
    };
    this.sessions.set(sessionID, state);
    opened.then(
      (session) =>
        this.log('info', `OpenCode session ${sessionID} is soong session ${session.sessionId}`, {
          eventLog: session.eventLog,
        }),
      (error: unknown) => this.log('error', `could not open the hook session: ${describe(error)}`),
    );
    return state;
  }

  private async onEvent(event: OpencodeEvent): Promise<void> {
    const sessionID = sessionIdOf(event);
    if (sessionID === undefined) return;
    switch (event.type) {
      case 'session.created':
        try {
          this.stateFor(sessionID, 'startup').opened.catch(() => undefined);
        } catch (error) {
          this.log('error', refusal(error as Error));
        }
        return;
      case 'session.idle':
        await this.onIdle(sessionID).catch(this.report('Stop hooks'));
        return;
      case 'session.deleted':
        await this.closeSession(sessionID).catch(this.report('SessionEnd'));
        return;
      case 'message.part.updated': {
        const part = event.properties.part as OpencodePart | undefined;
        if (part?.type === 'tool' && part.state?.status === 'error')
          await this.onToolError(part).catch(this.report('PostToolUse of a failed tool'));
        return;
      }
      default:
        return;
    }
  }

  private async onToolError(part: OpencodePart): Promise<void> {
    const sessionID = part.sessionID;
    const callID = part.callID;
    if (sessionID === undefined || callID === undefined) return;
    const state = this.sessions.get(sessionID);
    const gate = state?.calls.get(callID);
    if (state === undefined || gate === undefined) return;
    state.calls.delete(callID);
    await gate.after(callID, {
      content: `tool ${part.tool ?? ''} failed: ${part.state?.error ?? 'unknown error'}`,
      isError: true,
    });
  }

  private async onIdle(sessionID: string): Promise<void> {
    const state = this.sessions.get(sessionID);
    if (state === undefined) return;
    const session = await state.opened;
    const decision = await session.stop(await lastAssistantText(this.client, sessionID));
    if (!decision.continue) {
      session.sink.emit({ type: 'loop_ended', reason: 'completed' });
      return;
    }
    // The runner of the turn that just ended is still winding down when session.idle is published:
    // a prompt now would join it and be answered with the old reply. One turn later it starts a run.
    await new Promise((resolve) => setTimeout(resolve, 0));
    const text = hookContextToMessage(decision.node).content;
    state.continuations.add(text);
    const answer = await this.client.session.promptAsync({
      path: { id: sessionID },
      body: { parts: [{ type: 'text', text, synthetic: true }] },
    });
    if (answer.error !== undefined)
      this.log(
        'error',
        `a Stop hook asked to continue, but OpenCode refused the prompt: ${describe(answer.error)}`,
      );
  }

  private async closeSession(sessionID: string): Promise<void> {
    const state = this.sessions.get(sessionID);
    if (state === undefined) return;
    this.sessions.delete(sessionID);
    const session = await state.opened.catch(() => undefined);
    await session?.close('completed');
  }

  private async onChatMessage(sessionID: string, parts: OpencodePart[]): Promise<void> {
    let state: SessionState;
    try {
      state = this.stateFor(sessionID, 'resume');
    } catch (error) {
      // A broken config stops the tool calls (tool.execute.before), not the conversation.
      this.log('error', refusal(error as Error));
      return;
    }
    const text = parts
      .filter((part) => part.type === 'text' && part.synthetic !== true && part.ignored !== true)
      .map((part) => part.text ?? '')
      .join('\n');
    const continuation = parts.some(
      (part) => part.type === 'text' && state.continuations.delete(part.text ?? ''),
    );
    // A Stop hook's continuation is not a user prompt: the stop count of the loop goes on.
    if (continuation || text === '') return;
    state.gate = undefined;
    const session = await state.opened;
    await session.userPrompt(text);
  }

  private async beforeTool(
    { tool, sessionID, callID }: Parameters<Hook<'tool.execute.before'>>[0],
    output: Parameters<Hook<'tool.execute.before'>>[1],
  ): Promise<void> {
    let state: SessionState;
    try {
      state = this.stateFor(sessionID, 'resume');
    } catch (error) {
      throw new Error(refusal(error as Error));
    }
    const session = await state.opened.catch((error: unknown) => {
      // A session that could not open (its config broke since) is retried on the next call.
      this.sessions.delete(sessionID);
      throw new Error(refusal(error as Error));
    });
    const mapped = mapToolCall(tool, output.args, {
      directory: this.projectDir,
      mcpServers: await this.serverNames(),
      config: session.config,
    });
    state.gate ??= session.toolGate();
    const gate = state.gate;
    const turn = state.queue.then(() =>
      gate.before({
        id: callID,
        name: mapped.name,
        input: mapped.input,
        risk: mapped.risk,
        paths: mapped.paths,
      }),
    );
    state.queue = turn.catch(() => undefined);
    const verdict = await turn;
    // OpenCode turns the throw into the tool's result, verbatim: the model reads the reason.
    if (!verdict.run) throw new Error(verdict.result.content);
    state.calls.set(callID, gate);
  }

  private async afterTool(
    { sessionID, callID }: Parameters<Hook<'tool.execute.after'>>[0],
    output: Parameters<Hook<'tool.execute.after'>>[1],
  ): Promise<void> {
    const state = this.sessions.get(sessionID);
    const gate = state?.calls.get(callID);
    if (state === undefined || gate === undefined) return;
    state.calls.delete(callID);
    const result = await gate.after(callID, { content: output.output, isError: false });
    // Over inline_result_bytes the model gets the summary and the artifact path (spec §11).
    output.output = result.content;
  }

  private async transformMessages(messages: OpencodeMessage[]): Promise<void> {
    const sessionID = messages.at(-1)?.info.sessionID;
    const state = sessionID === undefined ? undefined : this.sessions.get(sessionID);
    if (state === undefined) return;
    const session = await state.opened.catch(() => undefined);
    const nodes = [...state.context.splice(0), ...(session?.takeContext() ?? [])];
    deliverHookContext(messages, nodes);
  }
}

/** What the gate knows of our names beyond the call: how dialects name the tools. */
const TOOL_DESCRIPTIONS = new Map<string, ToolDescription>(
  Object.values(OPENCODE_TOOLS)
    .filter((tool) => tool.dialectName !== undefined)
    .map((tool) => [
      tool.name,
      { name: tool.name, risk: tool.risk, dialectName: tool.dialectName ?? {} },
    ]),
);

// `[permissions]` of config.toml: a risk class set to "deny" is refused; OpenCode's own permission
// check comes after ours. A hook's "ask" is a refusal (the plugin cannot ask the user).
function permissionFrom(config: LoadedConfig): PermissionCallback {
  return async (request) =>
    config.settings.permissions[request.risk] === 'deny'
      ? { allow: false, reason: `[permissions] ${request.risk} = "deny" in config.toml` }
      : allowUnlessAsked(request);
}

function activeHooks(config: LoadedConfig): string {
  if (!config.hooksEnabled) return 'no hooks (hooks are disabled in config.toml)';
  const count = config.hooks.rules.reduce((sum, rule) => sum + rule.hooks.length, 0);
  return `${count} ${count === 1 ? 'hook' : 'hooks'} in ${config.hooks.ruleCount} ${config.hooks.ruleCount === 1 ? 'rule' : 'rules'}`;
}

function refusal(error: Error): string {
  return `soong-agent hooks could not load, so no tool runs until this is fixed: ${error.message}`;
}

function sessionIdOf(event: OpencodeEvent): string | undefined {
  const { sessionID } = event.properties;
  if (typeof sessionID === 'string') return sessionID;
  const info = event.properties.info as { id?: unknown } | undefined;
  if (event.type.startsWith('session.') && typeof info?.id === 'string') return info.id;
  const part = event.properties.part as { sessionID?: unknown } | undefined;
  return typeof part?.sessionID === 'string' ? part.sessionID : undefined;
}

async function lastAssistantText(client: OpencodeClient, sessionID: string): Promise<string> {
  const answer = await client.session.messages({ path: { id: sessionID } });
  const messages: OpencodeMessage[] = answer.data ?? [];
  const last = messages.findLast((message) => message.info.role === 'assistant');
  return (last?.parts ?? [])
    .filter((part) => part.type === 'text' && typeof part.text === 'string')
    .map((part) => part.text)
    .join('\n');
}

function describe(error: unknown): string {
  if (error instanceof Error) return error.message;
  return typeof error === 'string' ? error : JSON.stringify(error);
}
