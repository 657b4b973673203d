/**
 * The name of an MCP server's tool in hook inputs, matchers and event records (spec §10):
 * `mcp__<server>__<tool>`. The server is the text between the prefix and the next `__`; the tool is
 * the rest. Both are non-empty.
 *
 * This module imports nothing, so every package (the matcher included) can share the one convention.
 */
export const MCP_TOOL_PREFIX = 'mcp__';

/** The parts of an MCP tool name `mcp__<server>__<tool>`. */
export interface McpToolNameParts {
  /** The server's name (`[mcp.<server>]` in config.toml, `--name` of `soong-agent mcp-proxy`). */
  server: string;
  /** The tool's name as the server lists it. */
  tool: string;
}

/** `mcp__<server>__<tool>`: how a host names a tool of an MCP server. */
export function formatMcpToolName(server: string, tool: string): string {
  return `${MCP_TOOL_PREFIX}${server}__${tool}`;
}

/** The server and tool of `mcp__<server>__<tool>`, or `undefined` for any other name. */
export function parseMcpToolName(name: string): McpToolNameParts | undefined {
  if (!name.startsWith(MCP_TOOL_PREFIX)) return undefined;
  const end = name.indexOf('__', MCP_TOOL_PREFIX.length);
  if (end <= MCP_TOOL_PREFIX.length || end + 2 >= name.length) return undefined;
  return { server: name.slice(MCP_TOOL_PREFIX.length, end), tool: name.slice(end + 2) };
}
