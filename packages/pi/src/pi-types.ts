/**
 * The part of pi's extension API (`@mariozechner/pi-coding-agent` 0.73) this package uses, written
 * out structurally. pi is not a dependency of this package: pi's loader points an extension's
 * imports of `@mariozechner/pi-coding-agent` at the running pi's own copy, so a runtime dependency
 * would load a second, unused pi; and pi's own `ExtensionAPI` is assignable to {@link PiExtensionAPI}
 * (the tests run the real pi), so a user's `ExtensionFactory` accepts this package's factory.
 */

/** A text part of a message or tool result. */
export interface PiTextContent {
  type: 'text';
  text: string;
}

/** An image part of a message or tool result. */
export interface PiImageContent {
  type: 'image';
  data: string;
  mimeType: string;
}

/** What pi's `ctx.ui` offers that this package uses (no-ops in print mode). */
export interface PiExtensionUI {
  notify(message: string, type?: 'info' | 'warning' | 'error'): void;
  setStatus(key: string, text: string | undefined): void;
}

/** The context pi passes to every handler. */
export interface PiExtensionContext {
  /** pi's working directory: the project. */
  cwd: string;
  /** False in print (`-p`) and JSON mode. */
  hasUI: boolean;
  ui: PiExtensionUI;
  /** True when no agent loop runs. */
  isIdle(): boolean;
  /** The running agent loop's abort signal (Esc), if any. */
  signal?: AbortSignal | undefined;
}

/** A custom message pi stores in the session and sends to the model as a user message. */
export interface PiCustomMessage {
  customType: string;
  content: string | (PiTextContent | PiImageContent)[];
  display: boolean;
  details?: unknown;
}

/** `session_start`. */
export interface PiSessionStartEvent {
  type: 'session_start';
  reason: 'startup' | 'reload' | 'new' | 'resume' | 'fork';
  previousSessionFile?: string;
}

/** `session_shutdown`. */
export interface PiSessionShutdownEvent {
  type: 'session_shutdown';
  reason: 'quit' | 'reload' | 'new' | 'resume' | 'fork';
  targetSessionFile?: string;
}

/** `before_agent_start`: a prompt (templates and skills expanded) is about to start the agent. */
export interface PiBeforeAgentStartEvent {
  type: 'before_agent_start';
  prompt: string;
}

/** What a `before_agent_start` handler may return. */
export interface PiBeforeAgentStartResult {
  message?: PiCustomMessage;
  systemPrompt?: string;
}

/** `turn_start`: one model call and its tool calls begin. */
export interface PiTurnStartEvent {
  type: 'turn_start';
  turnIndex: number;
  timestamp: number;
}

/** One message of pi's agent (only what this package reads). */
export interface PiAgentMessage {
  role: string;
  content?: unknown;
  stopReason?: string;
}

/** `agent_end`: the loop of one prompt ended. */
export interface PiAgentEndEvent {
  type: 'agent_end';
  messages: PiAgentMessage[];
}

/** `tool_call`: before a tool runs; may block. */
export interface PiToolCallEvent {
  type: 'tool_call';
  toolCallId: string;
  toolName: string;
  input: Record<string, unknown>;
}

/** What a `tool_call` handler may return. */
export interface PiToolCallResult {
  block?: boolean;
  reason?: string;
}

/** `tool_result`: a tool ran (not fired for a blocked call). */
export interface PiToolResultEvent {
  type: 'tool_result';
  toolCallId: string;
  toolName: string;
  input: Record<string, unknown>;
  content: (PiTextContent | PiImageContent)[];
  isError: boolean;
  details?: unknown;
}

/** What a `tool_result` handler may return (a patch of the result). */
export interface PiToolResultPatch {
  content?: (PiTextContent | PiImageContent)[];
  details?: unknown;
  isError?: boolean;
}

type Handler<E, R = undefined> = (
  event: E,
  ctx: PiExtensionContext,
) => Promise<R | undefined> | R | undefined;

/** The part of pi's `ExtensionAPI` this package uses. */
export interface PiExtensionAPI {
  on(event: 'session_start', handler: Handler<PiSessionStartEvent>): void;
  on(event: 'session_shutdown', handler: Handler<PiSessionShutdownEvent>): void;
  on(
    event: 'before_agent_start',
    handler: Handler<PiBeforeAgentStartEvent, PiBeforeAgentStartResult>,
  ): void;
  on(event: 'turn_start', handler: Handler<PiTurnStartEvent>): void;
  on(event: 'agent_end', handler: Handler<PiAgentEndEvent>): void;
  on(event: 'tool_call', handler: Handler<PiToolCallEvent, PiToolCallResult>): void;
  on(event: 'tool_result', handler: Handler<PiToolResultEvent, PiToolResultPatch>): void;
  /** Injects a custom message (a user message for the model). */
  sendMessage(
    message: PiCustomMessage,
    options?: { triggerTurn?: boolean; deliverAs?: 'steer' | 'followUp' | 'nextTurn' },
  ): void;
}
