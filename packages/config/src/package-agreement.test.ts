import { TOOL_CALL_EVENTS } from '@soong-agent/matcher';
import { mcpServerOf } from '@soong-agent/matcher/internal';
import { formatMcpToolName, parseMcpToolName, TOOL_EVENTS } from '@soong-agent/protocol';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

// The matcher may not depend on protocol (spec §0), so it keeps its own list of the events that
// carry a tool call. Config depends on both: this is where the two lists are held equal.
describe('TOOL_CALL_EVENTS', () => {
  it('lists exactly the tool events of the protocol when compared', () => {
    expect([...TOOL_CALL_EVENTS].sort()).toEqual([...TOOL_EVENTS].sort());
  });
});

// The same for the MCP tool name: protocol owns `mcp__<server>__<tool>`; the mcp_server matcher
// reads the server with its own mirror, which must agree on every name.
describe('mcpServerOf', () => {
  it('finds the server parseMcpToolName finds, for MCP names and any other string', () => {
    const part = fc.string({
      minLength: 0,
      maxLength: 8,
      unit: fc.constantFrom('a', '_', '-', '1'),
    });
    fc.assert(
      fc.property(part, part, fc.string(), (server, tool, other) => {
        for (const name of [formatMcpToolName(server, tool), other, `mcp__${other}`]) {
          expect(mcpServerOf(name)).toBe(parseMcpToolName(name)?.server);
        }
      }),
    );
  });
});
