// @soong-agent/mcp/internal
//
// NOT PUBLIC API. A seam between the @soong-agent packages (opencode reads an MCP call's paths the
// way the proxy does), which move in lockstep with this exact version: it may change in any
// release, patches included, without notice. It imports no MCP SDK code. Application code imports
// `@soong-agent/mcp`.

export { type McpToolPaths, mcpToolPaths } from './tool-paths.js';
