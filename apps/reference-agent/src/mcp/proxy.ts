import { mkdirSync } from 'node:fs';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  isJSONRPCErrorResponse,
  isJSONRPCNotification,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  type JSONRPCMessage,
  type JSONRPCRequest,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';
import type { LoadedConfig } from '@soong-agent/config';
import {
  createFileArtifactStore,
  createHookEngine,
  createJsonlEventSink,
  createSessionId,
  createToolBatch,
  type PermissionCallback,
  recordConfigLoaded,
  recordSessionStarted,
  runSessionStart,
  sessionPaths,
  type ToolDefinition,
} from '@soong-agent/loop-adapter';
import type { RiskClass } from '@soong-agent/protocol';

/** Argument names whose string values are the paths of an MCP tool call (SPEC §10). */
export const MCP_PATH_ARGUMENTS = [
  'path',
  'paths',
  'file',
  'file_path',
  'directory',
  'source',
  'destination',
] as const;

/** Options of {@link runMcpProxy}. */
export interface McpProxyOptions {
  /** The configuration snapshot of the session. */
  config: LoadedConfig;
  /** `--name`: the server's name in `mcp__<NAME>__<tool>`. @default the upstream's `serverInfo.name` */
  name?: string | undefined;
  /** Speaks to the MCP client (started here). */
  downstream: Transport;
  /** Speaks to the upstream MCP server (already started); its `onclose` means the server ended. */
  upstream: Transport;
  /** Resolves when the client has disconnected (end of the proxy's stdin). */
  clientClosed: Promise<void>;
  /** Problems worth a line on stderr (a malformed message, a failed send). */
  warn: (message: string) => void;
}

/** How a proxy session ended. */
export interface McpProxyOutcome {
  reason: 'client_closed' | 'upstream_exited';
  sessionId: string;
  eventLog: string;
}

interface HeldCall {
  controller: AbortController;
  answer?: (message: JSONRPCMessage) => void;
  fail?: (error: Error) => void;
}

/**
 * One proxy session: forwards every message between the client and the upstream MCP server
 * unchanged, except `tools/call` requests, which go through PreToolUse → permission → the upstream
 * → PostToolUse as the tool `mcp__<NAME>__<tool>` (one batch per call, calls handled one at a time
 * in arrival order). Records the usual event log. Resolves when either side has gone; the caller
 * ends the upstream.
 */
export async function runMcpProxy(options: McpProxyOptions): Promise<McpProxyOutcome> {
  const { config, downstream, upstream, warn } = options;
  const projectDir = config.projectDir;
  const sessionId = createSessionId();
  const files = sessionPaths(config.home, sessionId);
  mkdirSync(files.dir, { recursive: true, mode: 0o700 });
  const sink = createJsonlEventSink(files.eventLog, { sessionId });
  const artifacts = createFileArtifactStore(files.artifacts);
  const engine = createHookEngine({ config, sink, sessionId, projectDir, artifacts });
  recordSessionStarted(sink, { projectDir, agentHome: config.home });
  recordConfigLoaded(sink, config);

  let serverName = options.name;
  let initializeId: RequestId | undefined;
  const held = new Map<RequestId, HeldCall>();
  let queue: Promise<void> = runSessionStart(engine).then(() => undefined);
  let callCount = 0;
  let ended: McpProxyOutcome['reason'] | undefined;
  let resolveEnded!: () => void;
  const endedPromise = new Promise<void>((resolve) => {
    resolveEnded = resolve;
  });
  const end = (reason: McpProxyOutcome['reason']) => {
    if (ended !== undefined) return;
    ended = reason;
    for (const call of held.values()) {
      call.fail?.(
        new Error(
          reason === 'upstream_exited'
            ? 'the MCP server exited before it answered'
            : 'the client disconnected',
        ),
      );
    }
    resolveEnded();
  };

  const send = (transport: Transport, message: JSONRPCMessage, to: string) => {
    transport.send(message).catch((error: unknown) => {
      if (ended === undefined) warn(`cannot send to the ${to}: ${describe(error)}`);
    });
  };

  const permission: PermissionCallback = async ({ risk }) =>
    config.settings.permissions[risk] === 'deny'
      ? { allow: false, reason: `[permissions] ${risk} = "deny" in config.toml` }
      : { allow: true };

  const riskOf = (server: string, tool: string): RiskClass => {
    const table = config.settings.mcp[server];
    return table?.tools[tool]?.risk ?? table?.risk ?? 'dangerous';
  };

  async function handleToolCall(request: JSONRPCRequest): Promise<void> {
    const params = request.params as { name?: unknown; arguments?: unknown } | undefined;
    if (ended !== undefined) return;
    if (typeof params?.name !== 'string') {
      // Not a call we can name: the server answers it (with its own error).
      send(upstream, request, 'MCP server');
      return;
    }
    const server = serverName ?? 'unknown';
    const name = `mcp__${server}__${plainName(params.name)}`;
    const call: HeldCall = { controller: new AbortController() };
    held.set(request.id, call);
    let answered = false;
    const definition: ToolDefinition = {
      name,
      risk: riskOf(server, params.name),
      paths: pathsOf,
      execute: (_input, { signal }) =>
        new Promise((resolve, reject) => {
          call.answer = (response) => {
            // The client gets the server's answer at once; PostToolUse runs after it.
            answered = true;
            send(downstream, response, 'client');
            resolve(resultOf(response));
          };
          call.fail = reject;
          signal?.addEventListener('abort', () => reject(new Error('cancelled')), { once: true });
          send(upstream, request, 'MCP server');
        }),
    };
    try {
      const batch = createToolBatch({
        tools: { get: (toolName) => (toolName === name ? definition : undefined) },
        engine,
        permission,
        artifacts,
        sink,
        signal: call.controller.signal,
      });
      callCount += 1;
      const result = await batch.run({
        id: `mcp_${callCount}`,
        name,
        input: params.arguments ?? {},
      });
      // A cancelled request gets no answer (MCP); a denied, skipped or failed one gets the reason.
      if (!answered && !call.controller.signal.aborted && ended !== 'client_closed') {
        send(
          downstream,
          {
            jsonrpc: '2.0',
            id: request.id,
            result: { content: [{ type: 'text', text: result.content }], isError: true },
          },
          'client',
        );
      }
    } finally {
      held.delete(request.id);
    }
  }

  downstream.onmessage = (message) => {
    if (isJSONRPCRequest(message)) {
      if (message.method === 'tools/call') {
        queue = queue
          .then(() => handleToolCall(message))
          .catch((error: unknown) => warn(`tools/call failed: ${describe(error)}`));
        return;
      }
      if (message.method === 'initialize') initializeId = message.id;
    } else if (isJSONRPCNotification(message) && message.method === 'notifications/cancelled') {
      const requestId = (message.params as { requestId?: RequestId } | undefined)?.requestId;
      if (requestId !== undefined) held.get(requestId)?.controller.abort();
    }
    send(upstream, message, 'MCP server');
  };
  upstream.onmessage = (message) => {
    if (isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message)) {
      const call = message.id === undefined ? undefined : held.get(message.id);
      if (call?.answer !== undefined) {
        call.answer(message);
        return;
      }
      if (isJSONRPCResultResponse(message) && message.id === initializeId) {
        const info = (message.result as { serverInfo?: { name?: unknown } }).serverInfo;
        if (serverName === undefined && typeof info?.name === 'string') {
          serverName = plainName(info.name);
        }
      }
    }
    send(downstream, message, 'client');
  };
  downstream.onerror = (error) => warn(`client message: ${error.message}`);
  upstream.onerror = (error) => warn(error.message);
  upstream.onclose = () => end('upstream_exited');
  void options.clientClosed.then(() => end('client_closed'));
  await downstream.start();

  try {
    await endedPromise;
    await queue;
    // The session ends with the connection: `events` shows it as a whole session.
    sink.emit({ type: 'loop_ended', reason: ended === 'upstream_exited' ? 'error' : 'completed' });
  } finally {
    await engine.close();
    await sink.close();
  }
  return { reason: ended ?? 'client_closed', sessionId, eventLog: files.eventLog };
}

// A name usable in matchers (letters, digits, `_ . : -`): anything else becomes `_`.
function plainName(name: string): string {
  const plain = name.replace(/[^A-Za-z0-9_.:-]/g, '_');
  return plain === '' ? '_' : plain;
}

function pathsOf(input: unknown): string[] {
  if (input === null || typeof input !== 'object') return [];
  const args = input as Record<string, unknown>;
  const paths: string[] = [];
  for (const key of MCP_PATH_ARGUMENTS) {
    const value = args[key];
    if (typeof value === 'string' && value !== '') paths.push(value);
    else if (Array.isArray(value))
      for (const item of value) if (typeof item === 'string' && item !== '') paths.push(item);
  }
  return paths;
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

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
