import { defineMatcher, type MatchPredicate } from './define-matcher.js';
import { nameListSchema, toNameArray } from './name-list.js';
import { splitAlternatives } from './suggest.js';
import { TOOL_CALL_EVENTS } from './tool-call-events.js';

// The matcher may not depend on protocol (spec §0), which owns the MCP tool name convention
// (`parseMcpToolName`): this mirror is held equal to it by config's package-agreement test.
const MCP_PREFIX = 'mcp__';

/** The server of an MCP tool name `mcp__<server>__<tool>`, or `undefined` for any other name. */
export function mcpServerOf(tool: string): string | undefined {
  if (!tool.startsWith(MCP_PREFIX)) return undefined;
  const end = tool.indexOf('__', MCP_PREFIX.length);
  if (end <= MCP_PREFIX.length || end + 2 >= tool.length) return undefined;
  return tool.slice(MCP_PREFIX.length, end);
}

/**
 * `mcp_server`: the tool is `mcp__<server>__<tool>` and `<server>` equals one of the values exactly
 * (`{"mcp_server": ["fs"]}` matches every `mcp__fs__…` tool). Tool-call events only.
 */
export const mcpServerMatcher = defineMatcher({
  type: 'mcp_server',
  events: TOOL_CALL_EVENTS,
  optionsSchema: nameListSchema({
    key: 'mcp_server',
    noun: 'MCP server name',
    suggest: splitAlternatives,
  }),
  create(options) {
    const names = toNameArray(options);
    const wanted = new Set(names);
    const expected = names.map((name) => `${MCP_PREFIX}${name}__*`).join(' | ');
    const predicate: MatchPredicate = (subject) => {
      const server = subject.tool === undefined ? undefined : mcpServerOf(subject.tool);
      return server !== undefined && wanted.has(server);
    };
    predicate.describeMiss = (subject) => ({ expected, actual: subject.tool ?? '(no tool)' });
    return predicate;
  },
});
