import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, RequestId } from '@modelcontextprotocol/sdk/types.js';
import {
  type HookSessionHandle,
  hookContextToMessage,
  LoopAdapterError,
  openHookSession,
  type PermissionCallback,
} from '@soong-agent/loop-adapter';
import { allowUnlessAsked } from '@soong-agent/loop-adapter/internal';
import { formatMcpToolName, jsonValueDepth, type RiskClass } from '@soong-agent/protocol';
import { McpProxyError, type McpServerExit } from './mcp-proxy-error.js';
import { mcpToolPaths } from './tool-paths.js';

/** Messages nested deeper than this are refused (serialising them would overflow the stack). */
export const MCP_MAX_MESSAGE_DEPTH = 512;
/**
 * Bytes the proxy lets wait for a client that does not read (its transport's `send` has not
 * settled); beyond it the client counts as gone and the proxy ends. One message more may wait.
 */
export const MCP_CLIENT_BACKLOG_MAX_BYTES = 32 * 1024 * 1024;

/** Options of {@link createMcpHookProxy} every proxy takes. */
export interface McpHookProxyTransportOptions {
  /**
   * Speaks to the MCP server (a client transport, not started: the proxy starts it and closes it
   * when the session ends). Its `onclose` means the server has gone.
   */
  upstream: Transport;
  /**
   * Speaks to the MCP client (a server transport, not started: the proxy starts it and closes it
   * when the session ends). Its `onclose` means the client has gone.
   */
  downstream: Transport;
  /** The server's name in `mcp__<NAME>__<tool>`. @default the upstream's `serverInfo.name` */
  name?: string | undefined;
  /**
   * Asked for each call the PreToolUse hooks allowed (after the proxy's own check that it can
   * read the call's paths). @default `[permissions]` of config.toml: a risk class set to "deny" is denied, the rest allowed
   */
  permission?: PermissionCallback | undefined;
  /** Problems worth a line in a log (a malformed message, a failed send). @default ignored */
  onWarning?: ((message: string) => void) | undefined;
}

/** Options of {@link createMcpHookProxy}: the transports, and a session or where to open one. */
export type McpHookProxyOptions = McpHookProxyTransportOptions &
  (
    | {
        /**
         * A session the host opened (`openHookSession` of `@soong-agent/loop-adapter`): the proxy
         * runs its calls through the session's tool gate and leaves closing it to the host.
         */
        session: HookSessionHandle;
        projectDir?: undefined;
        home?: undefined;
        protectEnvironment?: undefined;
      }
    | {
        session?: undefined;
        /** The project the server works on; relative tool paths resolve there, hooks run there. */
        projectDir: string;
        /** The agent home. @default env `SOONG_AGENT_HOME`, else `~/.soong-agent` */
        home?: string | undefined;
        /** Hide this process's environment from hooks (see `openHookSession`). @default true */
        protectEnvironment?: boolean | undefined;
      }
  );

/** Why a proxy session ended. */
export type McpProxyEndReason = 'client_closed' | 'upstream_closed' | 'client_stalled' | 'closed';

/** A running proxy (see {@link createMcpHookProxy}). */
export interface McpHookProxy {
  /** The server's name in `mcp__<NAME>__<tool>`: the `name` option, else the upstream's once it answered `initialize`. */
  readonly name: string | undefined;
  /** The session id (the folder of its event log). */
  readonly sessionId: string;
  /** The session's event log, `<home>/sessions/<id>/events.jsonl`. */
  readonly eventLog: string;
  /** Why the session ended, once it has. */
  readonly endReason: McpProxyEndReason | undefined;
  /**
   * Settles once the session has ended: hooks stopped, both transports closed, the log closed.
   * Resolves when the client left or `close()` was called; rejects with {@link McpProxyError}
   * `UPSTREAM_CLOSED` (the server's exit when the transport knows it) when the server ended the
   * connection on its own, e.g. it could not start. An unawaited rejection does not crash the host.
   */
  readonly closed: Promise<void>;
  /** Ends the session (pending calls get an error answer) and resolves once it has ended. Idempotent; never rejects. */
  close(): Promise<void>;
}

interface ToolCallState {
  clientId: RequestId;
  toolName: string;
  input: Record<string, unknown>;
  meta: unknown;
  controller: AbortController;
  cancelled: boolean;
  upstreamId?: number;
  answered: boolean;
  settle?: ((message: JSONRPCMessage | Error) => void) | undefined;
}

type Forwarded =
  | { kind: 'request'; clientId: RequestId; initialize: boolean }
  | { kind: 'tool'; call: ToolCallState };

const INVALID_REQUEST = -32600;
const INVALID_PARAMS = -32602;
const INTERNAL_ERROR = -32603;

type SessionConfig = HookSessionHandle['config'];

// What the parts of one proxy share: the session, both sides, and the state of the connection.
interface ProxyState {
  readonly session: HookSessionHandle;
  readonly upstream: Transport;
  readonly downstream: Transport;
  readonly warn: (message: string) => void;
  serverName: string | undefined;
  endReason: McpProxyEndReason | undefined;
  /** Client tools/call requests not finished, by the client's id. */
  readonly toolCalls: Map<RequestId, ToolCallState>;
  /** Requests sent upstream under the proxy's own ids. */
  readonly forwarded: Map<number, Forwarded>;
  readonly forwardedByClient: Map<RequestId, number>;
  nextUpstreamId: number;
  /** The tool calls, one at a time in arrival order. */
  queue: Promise<void>;
}

/**
 * Puts soong-agent hooks in front of an MCP server: every message passes between `downstream` (the
 * client) and `upstream` (the server) unchanged, except `tools/call`, which runs PreToolUse →
 * permission (`[permissions]` in config.toml) → the server → PostToolUse as the tool
 * `mcp__<NAME>__<tool>` (risk from `[mcp.<NAME>]`, paths from {@link MCP_PATH_ARGUMENTS}), one call
 * at a time in arrival order. A call the proxy cannot run hooks on is answered with an error and
 * never forwarded. When either side goes, the session ends: hooks are killed, calls still pending
 * fail (the client gets errors when it is still there), both transports are closed.
 *
 * Loads the configuration (a broken file rejects with the config's `ConfigError`, nothing started),
 * opens the session's event log, runs SessionStart, then starts both transports.
 */
export async function createMcpHookProxy(options: McpHookProxyOptions): Promise<McpHookProxy> {
  const { downstream, upstream } = options;
  if (options.session === undefined && typeof options.projectDir !== 'string') {
    throw new LoopAdapterError({
      code: 'INVALID_OPTIONS',
      message:
        'createMcpHookProxy: pass { session } (openHookSession) or { projectDir, home? } to open one',
    });
  }
  const owned = options.session === undefined;
  const session =
    options.session ??
    (await openHookSession({
      projectDir: options.projectDir,
      home: options.home,
      protectEnvironment: options.protectEnvironment !== false,
    }));
  const state: ProxyState = {
    session,
    upstream,
    downstream,
    warn: options.onWarning ?? (() => {}),
    serverName: options.name,
    endReason: undefined,
    toolCalls: new Map(),
    forwarded: new Map(),
    forwardedByClient: new Map(),
    nextUpstreamId: 1,
    queue: Promise.resolve(),
  };
  const lifecycle = createLifecycle(state, owned);
  const client = createClientSide(state, lifecycle.end);
  const calls = createToolCalls(state, client, proxyPermission(session.config, options.permission));
  downstream.onmessage = (message) => onClientMessage(state, client, calls, message);
  upstream.onmessage = (message) => onServerMessage(state, client, message);
  // After the end, a side's errors are the echo of closing it (a line cut short).
  downstream.onerror = (error) => {
    if (state.endReason === undefined) state.warn(`client: ${error.message}`);
  };
  upstream.onerror = (error) => {
    if (state.endReason === undefined) state.warn(`MCP server: ${error.message}`);
  };
  downstream.onclose = () => lifecycle.end('client_closed');
  upstream.onclose = () => lifecycle.end('upstream_closed');

  try {
    await upstream.start();
    await downstream.start();
  } catch (error) {
    lifecycle.end('closed');
    await lifecycle.ending;
    throw error;
  }

  return {
    get name() {
      return state.serverName;
    },
    sessionId: session.sessionId,
    eventLog: session.eventLog,
    get endReason() {
      return state.endReason;
    },
    closed: lifecycle.closed,
    async close() {
      lifecycle.end('closed');
      await lifecycle.ending;
    },
  };
}

interface Lifecycle {
  /** Ends the session once, for `reason`. */
  end(reason: McpProxyEndReason): void;
  /** Settles once the session has ended (never rejects). */
  ending: Promise<void>;
  /** `McpHookProxy.closed`. */
  closed: Promise<void>;
}

// How a proxy session ends: the reason is kept, the pending calls fail, then, once the queue is
// done, both sides close, `loop_ended` is recorded and an owned session closes.
function createLifecycle(state: ProxyState, owned: boolean): Lifecycle {
  const { session, downstream, upstream } = state;
  let resolveEnded!: () => void;
  const ended = new Promise<void>((resolve) => {
    resolveEnded = resolve;
  });
  const end = (reason: McpProxyEndReason): void => {
    if (state.endReason !== undefined) return;
    state.endReason = reason;
    // Hooks are killed, queued calls are not run, the call with the server fails; a call the
    // server has answered finishes its PostToolUse (the record of what happened).
    const failure = endedText(state);
    for (const call of state.toolCalls.values()) {
      if (call.answered) continue;
      call.settle?.(new Error(failure));
      call.controller.abort();
    }
    resolveEnded();
  };

  let upstreamEnded: McpProxyError | undefined;
  const ending = (async () => {
    await ended;
    await state.queue;
    const { endReason } = state;
    // Both sides end with the session (each transport's close is idempotent enough to call once).
    await Promise.allSettled([
      endReason === 'client_closed' ? undefined : downstream.close(),
      endReason === 'upstream_closed' ? undefined : upstream.close(),
    ]);
    if (endReason === 'upstream_closed') upstreamEnded = upstreamClosedError(upstream);
    const reason = endReason === 'upstream_closed' ? 'error' : 'completed';
    // The session's loop ends with the connection: `events` shows it as a whole session, and why.
    session.sink.emit({
      type: 'loop_ended',
      reason,
      ...(upstreamEnded === undefined ? {} : { message: upstreamEnded.message }),
    });
    if (owned) await session.close(reason);
  })().catch((error: unknown) => state.warn(`closing the session failed: ${describe(error)}`));
  const closed = ending.then(() => {
    if (upstreamEnded !== undefined) throw upstreamEnded;
  });
  // Handled here too: a host that never awaits `closed` is not crashed by its rejection.
  closed.catch(() => undefined);
  return { end, ending, closed };
}

// What the proxy says to the client.
interface ClientSide {
  send(message: JSONRPCMessage): void;
  answerError(id: RequestId | undefined, code: number, message: string): void;
  answerToolError(id: RequestId, text: string): void;
  /** The server's answer with the hooks' pending context appended to its content. */
  withContext(response: JSONRPCMessage): JSONRPCMessage;
}

function createClientSide(state: ProxyState, end: (reason: McpProxyEndReason) => void): ClientSide {
  const { downstream, session, warn } = state;
  let backlogBytes = 0;
  let backlogSends = 0;
  const toClient = (message: JSONRPCMessage) => {
    if (state.endReason === 'client_closed' || state.endReason === 'client_stalled') return;
    // A client that stops reading leaves sends unsettled: bounded, then the client counts as gone.
    const bytes = backlogSends > 0 ? approximateBytes(message) : 0;
    backlogSends += 1;
    backlogBytes += bytes;
    if (backlogBytes > MCP_CLIENT_BACKLOG_MAX_BYTES) {
      warn(
        `the client has not read ${backlogBytes} bytes (over ${MCP_CLIENT_BACKLOG_MAX_BYTES}); the proxy ends`,
      );
      end('client_stalled');
      return;
    }
    downstream.send(message).then(
      () => {
        backlogSends -= 1;
        backlogBytes -= bytes;
      },
      (error: unknown) => {
        backlogSends -= 1;
        backlogBytes -= bytes;
        if (state.endReason === undefined) warn(`cannot send to the client: ${describe(error)}`);
      },
    );
  };
  // spec §13.1 behind a proxy: the context the hooks added since the last answer (SessionStart's,
  // this call's PreToolUse, earlier calls' PostToolUse) rides along as extra text items after the
  // server's own content, which stays as it was; [] unless [hooks] deliver_context = true.
  const contextItems = () =>
    session.takeContext().map((node) => ({
      type: 'text' as const,
      text: hookContextToMessage(node).content,
      annotations: { audience: ['assistant' as const] },
    }));
  return {
    send: toClient,
    answerError: (id, code, message) =>
      toClient({
        jsonrpc: '2.0',
        ...(id === undefined ? {} : { id }),
        error: { code, message: `soong-agent mcp-proxy: ${message}` },
      } as JSONRPCMessage),
    answerToolError: (id, text) =>
      toClient({
        jsonrpc: '2.0',
        id,
        result: { content: [{ type: 'text', text }, ...contextItems()], isError: true },
      }),
    withContext(response) {
      const result = 'result' in response ? (response.result as { content?: unknown }) : undefined;
      // A JSON-RPC error, or a result without a content list, keeps the context for the next answer.
      if (result === undefined || !Array.isArray(result.content)) return response;
      const items = contextItems();
      if (items.length === 0) return response;
      return { ...response, result: { ...result, content: [...result.content, ...items] } };
    },
  };
}

function toServer(state: ProxyState, message: JSONRPCMessage): void {
  state.upstream.send(message).catch((error: unknown) => {
    if (state.endReason === undefined)
      state.warn(`cannot send to the MCP server: ${describe(error)}`);
  });
}

// The permission of a proxy call: paths the proxy cannot resolve are refused first, then the
// host's callback, else `[permissions]` of config.toml (no one to ask: a hook's "ask" is a refusal).
function proxyPermission(
  config: SessionConfig,
  given: PermissionCallback | undefined,
): PermissionCallback {
  const hostPermission: PermissionCallback =
    given ??
    (async (request) =>
      config.settings.permissions[request.risk] === 'deny'
        ? { allow: false, reason: `[permissions] ${request.risk} = "deny" in config.toml` }
        : allowUnlessAsked(request));
  return async (request) => {
    const { unresolvable } = mcpToolPaths(request.call.input);
    if (unresolvable.length > 0) {
      return {
        allow: false,
        reason: `the proxy cannot tell which file ${JSON.stringify(unresolvable[0])} names (the server may read it differently); write the path absolute or relative to the project`,
      };
    }
    return hostPermission(request);
  };
}

// `[mcp.<server>]` risk of a tool: its own, else the server's, else dangerous.
function riskOf(config: SessionConfig, server: string, tool: string): RiskClass {
  const servers = config.settings.mcp;
  const table = Object.hasOwn(servers, server) ? servers[server] : undefined;
  const tools = table?.tools;
  const own = tools !== undefined && Object.hasOwn(tools, tool) ? tools[tool] : undefined;
  return own?.risk ?? table?.risk ?? 'dangerous';
}

function endedText(state: ProxyState): string {
  return state.endReason === 'upstream_closed' ? UPSTREAM_GONE : SESSION_ENDED;
}

// What the proxy does with the client's tools/call requests and cancellations.
interface ToolCalls {
  onToolCall(id: RequestId | undefined, params: unknown): void;
  onCancelled(message: JSONRPCMessage & { params?: unknown }): void;
}

function createToolCalls(
  state: ProxyState,
  client: ClientSide,
  permission: PermissionCallback,
): ToolCalls {
  const { toolCalls, forwarded, forwardedByClient } = state;
  return {
    onToolCall(id, params) {
      if (id === undefined) {
        // A notification cannot be answered by id: an error without one, never forwarded.
        client.answerError(
          undefined,
          INVALID_REQUEST,
          'tools/call sent as a notification (no id) is refused: hooks run on requests only',
        );
        return;
      }
      const call = toolCallOf(client, toolCalls, id, params);
      if (call === undefined) return;
      toolCalls.set(id, call);
      state.queue = state.queue.then(() =>
        runCall(state, client, permission, call).catch((error: unknown) => {
          state.warn(`tools/call failed: ${describe(error)}`);
          if (!call.answered && !call.cancelled)
            client.answerToolError(id, `tools/call failed: ${describe(error)}`);
        }),
      );
    },
    onCancelled(message) {
      const requestId = (message.params as { requestId?: RequestId } | undefined)?.requestId;
      if (requestId === undefined) return;
      const call = toolCalls.get(requestId);
      if (call !== undefined) {
        if (call.answered) return;
        call.cancelled = true;
        call.controller.abort();
        if (call.upstreamId !== undefined) {
          toServer(state, {
            ...message,
            params: { ...(message.params as object), requestId: call.upstreamId },
          });
        }
        return;
      }
      const upstreamId = forwardedByClient.get(requestId);
      if (upstreamId === undefined) return;
      forwardedByClient.delete(requestId);
      forwarded.delete(upstreamId);
      toServer(state, {
        ...message,
        params: { ...(message.params as object), requestId: upstreamId },
      });
    },
  };
}

// The call a tools/call request asks for, or undefined when it was answered with an error.
function toolCallOf(
  client: ClientSide,
  toolCalls: Map<RequestId, ToolCallState>,
  id: RequestId,
  params: unknown,
): ToolCallState | undefined {
  const { name, arguments: input, _meta: meta } = (params ?? {}) as Record<string, unknown>;
  if (params === null || typeof params !== 'object' || typeof name !== 'string') {
    client.answerError(id, INVALID_PARAMS, 'tools/call needs params.name, a string');
    return undefined;
  }
  if (
    input !== undefined &&
    (input === null || typeof input !== 'object' || Array.isArray(input))
  ) {
    client.answerError(id, INVALID_PARAMS, 'tools/call params.arguments must be an object');
    return undefined;
  }
  if (toolCalls.has(id)) {
    client.answerError(id, INVALID_REQUEST, `request id ${JSON.stringify(id)} is already in use`);
    return undefined;
  }
  return {
    clientId: id,
    toolName: name,
    input: (input ?? {}) as Record<string, unknown>,
    meta,
    controller: new AbortController(),
    cancelled: false,
    answered: false,
  };
}

// One call through the session's gate: hooks, the permission, the server, PostToolUse; the
// client gets the server's answer or the reason it never reached the server.
async function runCall(
  state: ProxyState,
  client: ClientSide,
  permission: PermissionCallback,
  call: ToolCallState,
): Promise<void> {
  const { session } = state;
  const { signal } = call.controller;
  try {
    if (signal.aborted) {
      // Cancelled while queued: never forwarded, never answered. A session that ended fails it
      // (a client that left gets nothing: toClient drops it).
      if (!call.cancelled) client.answerToolError(call.clientId, endedText(state));
      return;
    }
    const server = state.serverName ?? 'unknown';
    const name = formatMcpToolName(server, plainName(call.toolName));
    // Unique within the session, also when several proxies share it.
    const id = `mcp_${nextCallNumber(session)}`;
    // One gate per call: each call is its own step (no halting across calls of one client).
    const gate = session.toolGate({ permission, signal });
    const run = { executed: false, failure: undefined as string | undefined };
    const result = await gate.run(
      {
        id,
        name,
        input: call.input,
        risk: riskOf(session.config, server, call.toolName),
        paths: mcpToolPaths(call.input).paths,
      },
      async () => {
        run.executed = true;
        const outcome =
          signal.aborted || state.endReason !== undefined
            ? new Error(state.endReason === undefined ? 'cancelled' : endedText(state))
            : await forward(state, call);
        if (outcome instanceof Error) {
          run.failure = outcome.message;
          throw outcome;
        }
        // The client gets the server's answer at once; PostToolUse runs after it.
        call.answered = true;
        client.send(client.withContext({ ...outcome, id: call.clientId } as JSONRPCMessage));
        return resultOf(outcome);
      },
    );
    // An answered call is done; a cancelled one gets nothing.
    if (call.answered || call.cancelled) return;
    if (run.failure !== undefined) client.answerToolError(call.clientId, run.failure);
    // A denied, skipped or refused call gets the reason.
    else if (!run.executed)
      client.answerToolError(
        call.clientId,
        state.endReason !== undefined && signal.aborted ? endedText(state) : result.content,
      );
  } finally {
    state.toolCalls.delete(call.clientId);
    if (call.upstreamId !== undefined) state.forwarded.delete(call.upstreamId);
  }
}

// Forwards a call the hooks allowed and resolves with the server's answer, or an Error when the
// call was cancelled or the session ended first.
function forward(state: ProxyState, call: ToolCallState): Promise<JSONRPCMessage | Error> {
  return new Promise((resolve) => {
    call.settle = (outcome) => {
      call.settle = undefined;
      resolve(outcome);
    };
    call.controller.signal.addEventListener('abort', () => call.settle?.(new Error('cancelled')), {
      once: true,
    });
    const upstreamId = state.nextUpstreamId++;
    call.upstreamId = upstreamId;
    state.forwarded.set(upstreamId, { kind: 'tool', call });
    const params: Record<string, unknown> = { name: call.toolName, arguments: call.input };
    if (call.meta !== undefined) params._meta = call.meta;
    // A transport that cannot deliver (an HTTP server gone) fails the call instead of leaving it waiting.
    state.upstream
      .send({ jsonrpc: '2.0', id: upstreamId, method: 'tools/call', params })
      .catch((error: unknown) =>
        call.settle?.(new Error(`cannot reach the MCP server: ${describe(error)}`)),
      );
  });
}

// A message from the client: tools/call runs the hooks, a cancellation follows its request, the
// rest passes to the server (requests under the proxy's own ids).
function onClientMessage(
  state: ProxyState,
  client: ClientSide,
  calls: ToolCalls,
  message: JSONRPCMessage,
): void {
  if (state.endReason !== undefined) return;
  const id = (message as { id?: RequestId }).id;
  const method = (message as { method?: unknown }).method;
  if (jsonValueDepth(message, MCP_MAX_MESSAGE_DEPTH) > MCP_MAX_MESSAGE_DEPTH) {
    if (typeof method === 'string' && id !== undefined)
      client.answerError(
        id,
        INVALID_REQUEST,
        `message nested more than ${MCP_MAX_MESSAGE_DEPTH} levels deep`,
      );
    else
      state.warn(
        `a client message nested more than ${MCP_MAX_MESSAGE_DEPTH} levels deep was dropped`,
      );
    return;
  }
  if (method === 'tools/call') {
    calls.onToolCall(id, (message as { params?: unknown }).params);
    return;
  }
  if (typeof method === 'string' && id !== undefined) {
    const upstreamId = state.nextUpstreamId++;
    state.forwarded.set(upstreamId, {
      kind: 'request',
      clientId: id,
      initialize: method === 'initialize',
    });
    state.forwardedByClient.set(id, upstreamId);
    state.upstream
      .send({ ...message, id: upstreamId } as JSONRPCMessage)
      .catch((error: unknown) => {
        if (!state.forwarded.delete(upstreamId)) return;
        state.forwardedByClient.delete(id);
        if (state.endReason === undefined)
          client.answerError(id, INTERNAL_ERROR, `cannot reach the MCP server: ${describe(error)}`);
      });
    return;
  }
  if (method === 'notifications/cancelled') {
    calls.onCancelled(message);
    return;
  }
  // Other notifications, and the client's answers to the server's own requests.
  toServer(state, message);
}

// A message from the server: its own requests and notifications pass to the client as they are,
// an answer goes to the request (or the tool call) waiting for it, under the client's id.
function onServerMessage(state: ProxyState, client: ClientSide, message: JSONRPCMessage): void {
  if (state.endReason !== undefined) return;
  const method = (message as { method?: unknown }).method;
  const id = (message as { id?: RequestId }).id;
  if (typeof method === 'string') {
    // The server's requests and notifications: its own id space, passed on as they are.
    if (jsonValueDepth(message, MCP_MAX_MESSAGE_DEPTH) > MCP_MAX_MESSAGE_DEPTH) {
      state.warn(
        `a server message nested more than ${MCP_MAX_MESSAGE_DEPTH} levels deep was dropped`,
      );
      return;
    }
    client.send(message);
    return;
  }
  const target = typeof id === 'number' ? state.forwarded.get(id) : undefined;
  if (target === undefined) {
    state.warn(
      `the MCP server answered a request nobody is waiting for (id ${JSON.stringify(id)})`,
    );
    return;
  }
  state.forwarded.delete(id as number);
  const tooDeep = jsonValueDepth(message, MCP_MAX_MESSAGE_DEPTH) > MCP_MAX_MESSAGE_DEPTH;
  if (target.kind === 'tool') {
    target.call.settle?.(
      tooDeep
        ? new Error(`the MCP server's answer nests more than ${MCP_MAX_MESSAGE_DEPTH} levels deep`)
        : message,
    );
    return;
  }
  state.forwardedByClient.delete(target.clientId);
  if (tooDeep) {
    client.answerError(
      target.clientId,
      INTERNAL_ERROR,
      `the MCP server's answer nests more than ${MCP_MAX_MESSAGE_DEPTH} levels deep`,
    );
    return;
  }
  if (target.initialize && 'result' in message) learnServer(state, message.result);
  client.send({ ...message, id: target.clientId } as JSONRPCMessage);
}

// The server's answer to `initialize`: its name (unless one was given) and the protocol version.
function learnServer(state: ProxyState, answer: unknown): void {
  const result = answer as { serverInfo?: { name?: unknown }; protocolVersion?: unknown };
  if (state.serverName === undefined && typeof result.serverInfo?.name === 'string') {
    state.serverName = plainName(result.serverInfo.name);
  }
  if (typeof result.protocolVersion === 'string') {
    state.upstream.setProtocolVersion?.(result.protocolVersion);
    state.downstream.setProtocolVersion?.(result.protocolVersion);
  }
}

// Why the server's side ended, in words, with its exit when the transport knows it
// (`WorkerTransport.exit`; another transport only says that it closed).
function upstreamClosedError(upstream: Transport): McpProxyError {
  const exit = (upstream as { exit?: McpServerExit }).exit;
  const how =
    exit === undefined
      ? 'closed the connection'
      : exit.signal != null
        ? `was killed by ${exit.signal}`
        : `exited with code ${exit.exitCode}`;
  return new McpProxyError({
    code: 'UPSTREAM_CLOSED',
    message: `the MCP server ${how} before the client left; the proxy session ended`,
    exit,
  });
}

const UPSTREAM_GONE = 'the MCP server exited before it answered';
const SESSION_ENDED = 'the proxy session ended before the MCP server answered';

// Call numbers per session, shared by every proxy on it (a gate refuses an id in use).
const callNumbers = new WeakMap<object, { last: number }>();
function nextCallNumber(session: object): number {
  let counter = callNumbers.get(session);
  if (counter === undefined) {
    counter = { last: 0 };
    callNumbers.set(session, counter);
  }
  counter.last += 1;
  return counter.last;
}

// A name usable in matchers (letters, digits, `_ . : -`): anything else becomes `_`.
function plainName(name: string): string {
  const plain = name.replace(/[^A-Za-z0-9_.:-]/g, '_');
  return plain === '' ? '_' : plain;
}

// What hooks see of the server's answer: the text of its content, other content as JSON.
function resultOf(response: JSONRPCMessage): { content: string; isError: boolean } {
  if ('error' in response) {
    const error = response.error as { code?: unknown; message?: unknown };
    return { content: `error ${String(error.code)}: ${String(error.message)}`, isError: true };
  }
  const result = ('result' in response ? response.result : {}) as {
    content?: unknown;
    structuredContent?: unknown;
    isError?: unknown;
  };
  const parts = Array.isArray(result.content) ? result.content : [];
  const text = parts
    .map((part: { type?: unknown; text?: unknown }) =>
      part?.type === 'text' && typeof part.text === 'string' ? part.text : JSON.stringify(part),
    )
    .join('\n');
  return {
    content:
      text === '' && result.structuredContent !== undefined
        ? JSON.stringify(result.structuredContent)
        : text,
    isError: result.isError === true,
  };
}

// The size a stdio transport will write (only measured while the client is behind).
function approximateBytes(message: JSONRPCMessage): number {
  try {
    return Buffer.byteLength(JSON.stringify(message)) + 1;
  } catch {
    return 0;
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
