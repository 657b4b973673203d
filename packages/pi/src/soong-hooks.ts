import path from 'node:path';
import { ConfigError } from '@soong-agent/config';
import {
  type HookSessionHandle,
  openHookSession,
  type ToolDescription,
  type ToolGate,
} from '@soong-agent/loop-adapter';
import type { HookContextNode } from '@soong-agent/protocol';
import {
  deliverHookContext,
  type HookContextDelivery,
  hookContextMessage,
} from './hook-context.js';
import { PI_TOOL_NAMES, piToolDescription } from './pi-tools.js';
import type {
  PiAgentEndEvent,
  PiAgentMessage,
  PiBeforeAgentStartEvent,
  PiBeforeAgentStartResult,
  PiExtensionAPI,
  PiExtensionContext,
  PiSessionStartEvent,
  PiTextContent,
  PiToolCallEvent,
  PiToolCallResult,
  PiToolResultEvent,
  PiToolResultPatch,
} from './pi-types.js';

/** Options of {@link createSoongHooks}. */
export interface SoongHooksOptions {
  /** The agent home. @default env `SOONG_AGENT_HOME`, else `~/.soong-agent` */
  home?: string;
  /** The project hooks run in. @default pi's working directory (`ctx.cwd`) */
  projectDir?: string;
  /**
   * Hide pi's environment from its children (Linux: `/proc/$PPID/environ` shows NUL bytes), so a
   * hook cannot read pi's API keys there; `process.env` and pi's own tools keep working. @default true
   */
  protectEnvironment?: boolean;
}

/** The `setStatus` key of this package's footer line in pi's interactive UI. */
export const STATUS_KEY = 'soong-hooks';

/**
 * A pi extension factory running the soong agent home's hooks (spec §14). Per pi session it opens
 * one hook session with `openHookSession` (the usual event log, artifacts and Claude Code
 * transcript): `session_start` → SessionStart, `before_agent_start` → UserPromptSubmit,
 * `tool_call` → PreToolUse and permission (a deny blocks the call with its reason), `tool_result` →
 * PostToolUse, `agent_end` → Stop (a Stop hook's deny makes pi go on with the reason as a user
 * message), `session_shutdown` → SessionEnd. A configuration that does not load blocks every tool
 * call with the precise error until it is fixed.
 */
export function createSoongHooks(options: SoongHooksOptions = {}): (pi: PiExtensionAPI) => void {
  return (pi) => {
    registerSoongHooks(pi, options);
  };
}

// Where a Stop hook that made pi go on is waited for: the loop it started ends in a later agent_end.
interface Continuation {
  promise: Promise<void>;
  resolve(): void;
}

function registerSoongHooks(pi: PiExtensionAPI, options: SoongHooksOptions): void {
  const hooks = new PiHookSession(pi, options);
  pi.on('session_start', (event, ctx) => hooks.onSessionStart(event, ctx));
  pi.on('before_agent_start', (event) => hooks.onBeforeAgentStart(event));
  pi.on('turn_start', () => {
    // One model step, one gate: spec §4's deny state of a step ends with it.
    hooks.gate = undefined;
    return undefined;
  });
  pi.on('tool_call', (event, ctx) => hooks.onToolCall(event, ctx));
  pi.on('tool_result', (event, ctx) => hooks.onToolResult(event, ctx));
  pi.on('agent_end', (event, ctx) => hooks.onAgentEnd(event, ctx));
  pi.on('session_shutdown', () => hooks.onShutdown());
}

// The hook session of one pi session, and what its handlers share: the gate of the model step, the
// error that keeps it closed, the Stop handling in flight.
class PiHookSession {
  private readonly pi: PiExtensionAPI;
  private readonly options: SoongHooksOptions;
  private session: HookSessionHandle | undefined;
  private startError: Error | undefined;
  private projectDir = '';
  private source: 'startup' | 'resume' = 'startup';
  /** The gate of the current model step (a new one per turn). */
  gate: ToolGate | undefined;
  // The Stop handling in flight, and the loop a Stop hook made pi start: session_shutdown waits
  // for both, so in print mode the continued loop runs before pi exits.
  private stopping: Promise<void> = Promise.resolve();
  private continuation: Continuation | undefined;

  constructor(pi: PiExtensionAPI, options: SoongHooksOptions) {
    this.pi = pi;
    this.options = options;
  }

  async onSessionStart(event: PiSessionStartEvent, ctx: PiExtensionContext): Promise<undefined> {
    this.projectDir = path.resolve(this.options.projectDir ?? ctx.cwd);
    // A resumed, reloaded or forked pi session already has a conversation.
    this.source = event.reason === 'startup' || event.reason === 'new' ? 'startup' : 'resume';
    await this.open(ctx);
    return undefined;
  }

  async onBeforeAgentStart(
    event: PiBeforeAgentStartEvent,
  ): Promise<PiBeforeAgentStartResult | undefined> {
    if (this.session === undefined) return undefined;
    await this.session.userPrompt(event.prompt);
    const message = hookContextMessage(this.session.takeContext());
    return message === undefined ? undefined : { message };
  }

  async onToolCall(
    event: PiToolCallEvent,
    ctx: PiExtensionContext,
  ): Promise<PiToolCallResult | undefined> {
    // A broken hooks.json may have been fixed since: try again before refusing.
    const current =
      this.session ?? (this.startError === undefined ? undefined : await this.open(ctx));
    if (current === undefined) {
      return {
        block: true,
        reason: `soong-agent hooks: ${blockedReason(this.startError ?? new Error('the hook session is not open'))}`,
      };
    }
    this.gate ??= current.toolGate();
    try {
      const verdict = await this.gate.before(
        { id: event.toolCallId, name: canonicalName(event.toolName), input: event.input },
        ctx.signal === undefined ? {} : { signal: ctx.signal },
      );
      this.deliver(ctx, current.takeContext(), 'next-request');
      return verdict.run ? undefined : { block: true, reason: verdict.result.content };
    } catch (error) {
      // Fails closed: a call the hooks could not judge does not run.
      return { block: true, reason: `soong-agent hooks: ${describe(error)}` };
    }
  }

  async onToolResult(
    event: PiToolResultEvent,
    ctx: PiExtensionContext,
  ): Promise<PiToolResultPatch | undefined> {
    const { session, gate } = this;
    if (session === undefined || gate === undefined) return undefined;
    try {
      const result = await gate.after(
        event.toolCallId,
        { content: resultText(event), isError: event.isError },
        ctx.signal === undefined ? {} : { signal: ctx.signal },
      );
      this.deliver(ctx, session.takeContext(), 'next-request');
      // Over `inline_result_bytes` the model gets the summary and the artifact path (spec §11).
      if (result.artifactRef === undefined) return undefined;
      return {
        content: [
          { type: 'text', text: result.content },
          ...event.content.filter((part) => part.type !== 'text'),
        ],
      };
    } catch (error) {
      say(
        ctx,
        `soong-agent hooks: PostToolUse of ${event.toolName}: ${describe(error)}`,
        'warning',
      );
      return undefined;
    }
  }

  async onAgentEnd(event: PiAgentEndEvent, ctx: PiExtensionContext): Promise<undefined> {
    const ended = this.continuation;
    this.continuation = undefined;
    const handling = this.stopping.then(async () => {
      try {
        await this.handleStop(event, ctx);
      } catch (error) {
        say(ctx, `soong-agent hooks: Stop: ${describe(error)}`, 'warning');
      } finally {
        ended?.resolve();
      }
    });
    this.stopping = handling;
    await handling;
    return undefined;
  }

  async onShutdown(): Promise<undefined> {
    for (;;) {
      const handling = this.stopping;
      await handling;
      const next = this.continuation;
      if (next !== undefined) await next.promise;
      // An agent_end may have come while this waited: wait for its Stop handling too.
      else if (this.stopping === handling) break;
    }
    const current = this.session;
    this.session = undefined;
    this.gate = undefined;
    await current?.close('completed');
    return undefined;
  }

  private async open(ctx: PiExtensionContext): Promise<HookSessionHandle | undefined> {
    const { options } = this;
    try {
      const opened = await openHookSession({
        projectDir: this.projectDir,
        ...(options.home === undefined ? {} : { home: options.home }),
        source: this.source,
        tools: { get: (name) => toolDescription(name, this.projectDir) },
        protectEnvironment: options.protectEnvironment !== false,
      });
      this.session = opened;
      this.startError = undefined;
      announce(ctx, opened);
      this.deliver(ctx, opened.takeContext(), 'next-prompt');
      return opened;
    } catch (error) {
      const previous = this.startError?.message;
      this.startError = error instanceof Error ? error : new Error(String(error));
      // Said once per problem: each tool call tries again, and each blocked call carries it anyway.
      if (this.startError.message !== previous) {
        say(ctx, `soong-agent hooks: ${blockedReason(this.startError)}`, 'error');
      }
      return undefined;
    }
  }

  private deliver(
    ctx: PiExtensionContext,
    nodes: readonly HookContextNode[],
    when: HookContextDelivery,
  ): void {
    if (nodes.length === 0) return;
    deliverHookContext(
      this.pi,
      nodes,
      when === 'next-request' && ctx.isIdle() ? 'next-prompt' : when,
    );
  }

  private async handleStop(event: PiAgentEndEvent, ctx: PiExtensionContext): Promise<void> {
    const current = this.session;
    if (current === undefined) return;
    const last = lastAssistant(event.messages);
    if (last?.stopReason === 'error' || last?.stopReason === 'aborted') {
      // The loop did not end on its own: Stop hooks do not run (spec §4).
      current.sink.emit({ type: 'loop_ended', reason: last.stopReason });
      return;
    }
    const decision = await current.stop(textOf(last));
    if (!decision.continue) {
      current.sink.emit({ type: 'loop_ended', reason: 'completed' });
      return;
    }
    deliverHookContext(this.pi, [decision.node], 'continue');
    // pi starts the continued loop synchronously when it was idle; wait for its agent_end.
    if (!ctx.isIdle()) this.continuation = deferred();
  }
}

function toolDescription(name: string, projectDir: string): ToolDescription {
  const piName = Object.keys(PI_TOOL_NAMES).find((key) => PI_TOOL_NAMES[key] === name);
  return piName === undefined ? { name, risk: 'dangerous' } : piToolDescription(piName, projectDir);
}

function canonicalName(piName: string): string {
  return Object.hasOwn(PI_TOOL_NAMES, piName) ? (PI_TOOL_NAMES[piName] as string) : piName;
}

function announce(ctx: PiExtensionContext, session: HookSessionHandle): void {
  const { config } = session;
  const hooks = config.hooks.rules.reduce((count, rule) => count + rule.hooks.length, 0);
  const state = config.hooksEnabled
    ? `${hooks} hook${hooks === 1 ? '' : 's'} active from ${config.hooksFile}`
    : `hooks are off (hooks.enabled = false in ${config.configFile})`;
  say(ctx, `soong-agent hooks: ${state}; event log ${session.eventLog}`, 'info');
  for (const warning of config.warnings)
    say(ctx, `soong-agent hooks: ${warning.message}`, 'warning');
  if (ctx.hasUI)
    ctx.ui.setStatus(STATUS_KEY, config.hooksEnabled ? `hooks: ${hooks}` : 'hooks: off');
}

function blockedReason(error: Error): string {
  const what = ConfigError.isInstance(error)
    ? 'the hooks configuration does not load'
    : 'the hook session did not start';
  return `${what}, so no tool runs until it is fixed: ${error.message}`;
}

// pi's UI when there is one; in print and JSON mode stderr, so stdout stays the answer.
function say(ctx: PiExtensionContext, text: string, level: 'info' | 'warning' | 'error'): void {
  if (ctx.hasUI) ctx.ui.notify(text, level);
  else process.stderr.write(`${text}\n`);
}

function lastAssistant(messages: readonly PiAgentMessage[]): PiAgentMessage | undefined {
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    const message = messages[index];
    if (message?.role === 'assistant') return message;
  }
  return undefined;
}

function textOf(message: PiAgentMessage | undefined): string {
  const content = message?.content;
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .filter((part): part is PiTextContent => isTextPart(part))
    .map((part) => part.text)
    .join('');
}

// What hooks see of a result: its text parts (an image is named, not inlined).
function resultText(event: PiToolResultEvent): string {
  return event.content
    .map((part) => (isTextPart(part) ? part.text : `[${part.type} ${part.mimeType}]`))
    .join('\n');
}

function isTextPart(part: unknown): part is PiTextContent {
  return (
    typeof part === 'object' &&
    part !== null &&
    (part as { type?: unknown }).type === 'text' &&
    typeof (part as { text?: unknown }).text === 'string'
  );
}

function deferred(): Continuation {
  let resolve = () => {};
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
