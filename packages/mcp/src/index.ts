// @soong-agent/mcp: the public API (spec §10, §11). Everything here is semver-covered.
// `@modelcontextprotocol/sdk` is a peer dependency: the transports on either side are the app's.
// Deliberately not exported: the proxy's message bounds (documented values, not names) and how it
// reads a call's paths. Sibling packages reach what they share through
// `@soong-agent/mcp/internal`, which is not public and loads no MCP SDK code.

// The proxy.
export {
  createMcpHookProxy,
  type McpHookProxy,
  type McpHookProxyOptions,
  type McpProxyEndReason,
} from './mcp-hook-proxy.js';
// Errors.
export {
  MCP_PROXY_ERROR_CODES,
  McpProxyError,
  type McpProxyErrorCode,
  type McpServerExit,
} from './mcp-proxy-error.js';
// A worker hook's stdio as an MCP transport.
export { WorkerTransport, type WorkerTransportOptions } from './worker-transport.js';
