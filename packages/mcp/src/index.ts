export {
  createMcpHookProxy,
  MCP_CLIENT_BACKLOG_MAX_BYTES,
  MCP_MAX_MESSAGE_DEPTH,
  type McpHookProxy,
  type McpHookProxyOptions,
  type McpProxyEndReason,
} from './mcp-hook-proxy.js';
export {
  MCP_PROXY_ERROR_CODES,
  McpProxyError,
  type McpProxyErrorCode,
  type McpProxyErrorOptions,
  type McpServerExit,
} from './mcp-proxy-error.js';
export { MCP_PATH_ARGUMENTS, type McpToolPaths, mcpToolPaths } from './tool-paths.js';
export {
  MCP_MAX_MESSAGE_BYTES,
  WorkerTransport,
  type WorkerTransportOptions,
} from './worker-transport.js';
