import { formatMcpToolName, parseMcpToolName } from '@soong-agent/protocol';
import { defineMatcher, type MatchPredicate } from './define-matcher.js';
import { nameListSchema, toNameArray } from './name-list.js';
import { splitAlternatives } from './suggest.js';
import { TOOL_CALL_EVENTS } from './tool-call-events.js';

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
    const expected = names.map((name) => formatMcpToolName(name, '*')).join(' | ');
    const predicate: MatchPredicate = (subject) => {
      const server =
        subject.tool === undefined ? undefined : parseMcpToolName(subject.tool)?.server;
      return server !== undefined && wanted.has(server);
    };
    predicate.describeMiss = (subject) => ({ expected, actual: subject.tool ?? '(no tool)' });
    return predicate;
  },
});
