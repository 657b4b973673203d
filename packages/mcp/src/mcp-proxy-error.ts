const BRAND = Symbol.for('@soong-agent/mcp/McpProxyError');

/** Every code a {@link McpProxyError} can carry. */
export const MCP_PROXY_ERROR_CODES = ['UPSTREAM_CLOSED'] as const;

/**
 * - `UPSTREAM_CLOSED`: the MCP server ended the connection on its own (it exited, or could not
 *   start): the proxy's `closed` rejects with it, so a host never ends silently as if all went well.
 */
export type McpProxyErrorCode = (typeof MCP_PROXY_ERROR_CODES)[number];

/** How the server's process ended, when the upstream transport knows (`WorkerTransport.exit`). */
export interface McpServerExit {
  exitCode: number | null;
  signal: string | null;
}

/** Constructor argument of {@link McpProxyError}. */
export interface McpProxyErrorOptions {
  code: McpProxyErrorCode;
  /** What happened, with the server's exit when known. */
  message: string;
  /** The server's exit, when the upstream transport knows it. */
  exit?: McpServerExit | undefined;
}

/**
 * The one error class of `@soong-agent/mcp`. Check it with {@link McpProxyError.isInstance}, which
 * works across duplicate installs.
 */
export class McpProxyError extends Error {
  readonly code: McpProxyErrorCode;
  /** The server's exit, when the upstream transport knows it. */
  readonly exit: McpServerExit | undefined;

  constructor(options: McpProxyErrorOptions) {
    super(options.message);
    this.name = 'McpProxyError';
    this.code = options.code;
    this.exit = options.exit;
    Object.defineProperty(this, BRAND, { value: true });
  }

  /** True for a `McpProxyError` from any copy of this package. */
  static isInstance(value: unknown): value is McpProxyError {
    return typeof value === 'object' && value !== null && BRAND in value;
  }
}
