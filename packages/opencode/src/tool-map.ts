import path from 'node:path';
import type { LoadedConfig } from '@soong-agent/config';
import { mcpToolPaths } from '@soong-agent/mcp/internal';
import { formatMcpToolName, type RiskClass } from '@soong-agent/protocol';

/** How one OpenCode tool call reaches our hooks: our name, our input shape, risk and paths. */
export interface MappedToolCall {
  /** Our canonical name (`bash`, `read_file`, …), `mcp__<server>__<tool>`, or OpenCode's own. */
  name: string;
  /** The input in our canonical tool's shape (what soong hooks and every dialect start from). */
  input: unknown;
  risk: RiskClass;
  /** Absolute paths the call touches, for `path_prefix` matchers. */
  paths: string[];
  /** How a dialect names the tool when our canonical name has no entry in its table. */
  dialectName?: Readonly<Record<string, string>>;
}

/**
 * OpenCode's built-in tools → ours. `map` turns OpenCode's arguments into our canonical tool's
 * input (so a Claude Code hook sees `Bash` with `{command, timeout}` in milliseconds, `Read` with
 * `file_path`); `paths` names what the call touches. Tools without a canonical counterpart keep a
 * snake_case name of ours and say how Claude Code names its own equivalent.
 */
export const OPENCODE_TOOLS: Readonly<
  Record<
    string,
    {
      name: string;
      risk: RiskClass;
      map(args: Record<string, unknown>): Record<string, unknown>;
      paths(args: Record<string, unknown>): unknown[];
      dialectName?: Readonly<Record<string, string>>;
    }
  >
> = Object.freeze({
  bash: {
    name: 'bash',
    risk: 'dangerous',
    // Our bash takes seconds; OpenCode's `timeout` is milliseconds.
    map: ({ command, timeout, workdir, description }) => ({
      command,
      ...(typeof timeout === 'number' ? { timeout: timeout / 1000 } : {}),
      ...(typeof workdir === 'string' ? { working_dir: workdir } : {}),
      ...(typeof description === 'string' ? { description } : {}),
    }),
    paths: ({ workdir }) => [workdir],
  },
  read: {
    name: 'read_file',
    risk: 'readonly',
    map: ({ filePath, offset, limit }) => ({ path: filePath, ...defined({ offset, limit }) }),
    paths: ({ filePath }) => [filePath],
  },
  write: {
    name: 'write_file',
    risk: 'write',
    map: ({ filePath, content }) => ({ path: filePath, content }),
    paths: ({ filePath }) => [filePath],
  },
  edit: {
    name: 'edit_file',
    risk: 'write',
    map: ({ filePath, oldString, newString, replaceAll }) => ({
      path: filePath,
      old_string: oldString,
      new_string: newString,
      ...defined({ replace_all: replaceAll }),
    }),
    paths: ({ filePath }) => [filePath],
  },
  multiedit: {
    name: 'edit_file',
    risk: 'write',
    map: ({ filePath, edits }) => ({ path: filePath, edits }),
    paths: ({ filePath }) => [filePath],
    dialectName: { 'claude-code': 'MultiEdit' },
  },
  apply_patch: {
    name: 'apply_patch',
    risk: 'write',
    map: ({ patchText }) => ({ command: patchText }),
    paths: ({ patchText }) => patchFiles(patchText),
    dialectName: { 'claude-code': 'Edit', codex: 'apply_patch' },
  },
  grep: {
    name: 'grep',
    risk: 'readonly',
    map: ({ pattern, path: where, include }) => ({
      pattern,
      ...defined({ path: where, glob: include }),
    }),
    paths: ({ path: where }) => [where ?? '.'],
  },
  glob: {
    name: 'glob',
    risk: 'readonly',
    map: ({ pattern, path: where }) => ({ pattern, ...defined({ path: where }) }),
    paths: ({ path: where }) => [where ?? '.'],
    dialectName: { 'claude-code': 'Glob', gemini: 'glob', copilot: 'glob' },
  },
  list: {
    name: 'list_dir',
    risk: 'readonly',
    map: ({ path: where, ignore }) => ({ path: where ?? '.', ...defined({ ignore }) }),
    paths: ({ path: where }) => [where ?? '.'],
  },
  task: {
    name: 'task',
    // It starts a subagent whose own tool calls come through the hooks one by one.
    risk: 'dangerous',
    map: (args) => args,
    paths: () => [],
    dialectName: { 'claude-code': 'Task' },
  },
  webfetch: {
    name: 'web_fetch',
    risk: 'readonly',
    map: (args) => args,
    paths: () => [],
    dialectName: { 'claude-code': 'WebFetch', gemini: 'web_fetch' },
  },
  websearch: {
    name: 'web_search',
    risk: 'readonly',
    map: (args) => args,
    paths: () => [],
    dialectName: { 'claude-code': 'WebSearch', gemini: 'google_web_search' },
  },
  todowrite: {
    name: 'todo_write',
    risk: 'readonly',
    map: (args) => args,
    paths: () => [],
    dialectName: { 'claude-code': 'TodoWrite' },
  },
  todoread: {
    name: 'todo_read',
    risk: 'readonly',
    map: (args) => args,
    paths: () => [],
  },
});

/**
 * One OpenCode call as our hooks see it. A built-in of {@link OPENCODE_TOOLS} gets our name and
 * input; a tool of a configured MCP server (`<server>_<tool>` in OpenCode) becomes
 * `mcp__<server>__<tool>` with the risk of `[mcp.<server>]` in config.toml and the paths of its
 * arguments (as mcp-proxy does); any other tool (a plugin's own) keeps its name and is `dangerous`.
 */
export function mapToolCall(
  tool: string,
  args: unknown,
  context: { directory: string; mcpServers: readonly string[]; config: LoadedConfig },
): MappedToolCall {
  const record: Record<string, unknown> =
    args !== null && typeof args === 'object' && !Array.isArray(args)
      ? (args as Record<string, unknown>)
      : {};
  const absolute = (values: unknown[]) =>
    values
      .filter((value): value is string => typeof value === 'string' && value !== '')
      .map((value) => path.resolve(context.directory, value));
  const builtIn = Object.hasOwn(OPENCODE_TOOLS, tool) ? OPENCODE_TOOLS[tool] : undefined;
  if (builtIn !== undefined) {
    return {
      name: builtIn.name,
      input: builtIn.map(record),
      risk: builtIn.risk,
      paths: absolute(builtIn.paths(record)),
      ...(builtIn.dialectName === undefined ? {} : { dialectName: builtIn.dialectName }),
    };
  }
  const mcp = mcpToolOf(tool, context.mcpServers);
  if (mcp !== undefined) {
    return {
      name: formatMcpToolName(mcp.server, mcp.tool),
      input: args,
      risk: mcpRisk(context.config, mcp.server, mcp.tool),
      paths: absolute(mcpToolPaths(args).paths),
    };
  }
  return { name: tool, input: args, risk: 'dangerous', paths: [] };
}

/**
 * OpenCode names an MCP tool `<server>_<tool>` with both parts sanitised to `[A-Za-z0-9_-]`: the
 * longest configured server name that prefixes it wins (`git_hub_x` with servers `git` and
 * `git_hub` is `git_hub`'s `x`).
 */
export function mcpToolOf(
  tool: string,
  servers: readonly string[],
): { server: string; tool: string } | undefined {
  let best: { server: string; tool: string } | undefined;
  for (const server of servers) {
    const prefix = `${sanitize(server)}_`;
    if (!tool.startsWith(prefix) || tool.length === prefix.length) continue;
    if (best === undefined || server.length > best.server.length)
      best = { server, tool: tool.slice(prefix.length) };
  }
  return best;
}

function sanitize(name: string): string {
  return name.replace(/[^a-zA-Z0-9_-]/g, '_');
}

function mcpRisk(config: LoadedConfig, server: string, tool: string): RiskClass {
  const servers = config.settings.mcp;
  const table = Object.hasOwn(servers, server) ? servers[server] : undefined;
  const tools = table?.tools;
  const own = tools !== undefined && Object.hasOwn(tools, tool) ? tools[tool] : undefined;
  return own?.risk ?? table?.risk ?? 'dangerous';
}

// The files a patch names (`*** Add File: a`, `*** Update File: b`, `*** Delete File: c`, `*** Move to: d`).
function patchFiles(patchText: unknown): string[] {
  if (typeof patchText !== 'string') return [];
  const files: string[] = [];
  for (const match of patchText.matchAll(
    /^\*\*\* (?:Add|Update|Delete) File: (.+)$|^\*\*\* Move to: (.+)$/gm,
  ))
    files.push((match[1] ?? match[2] ?? '').trim());
  return files.filter((file) => file !== '');
}

function defined(values: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined));
}
