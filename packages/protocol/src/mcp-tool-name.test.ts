import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isBlockingEvent } from './event-kinds.js';
import { formatMcpToolName, parseMcpToolName } from './mcp-tool-name.js';

describe('parseMcpToolName', () => {
  it('returns the server and the tool when the name is mcp__<server>__<tool>', () => {
    expect(parseMcpToolName('mcp__fs__read_file')).toEqual({ server: 'fs', tool: 'read_file' });
    expect(parseMcpToolName('mcp__github__create__issue')).toEqual({
      server: 'github',
      tool: 'create__issue',
    });
  });

  it('returns undefined when the server or the tool is missing or the prefix differs', () => {
    for (const name of [
      'bash',
      'mcp__',
      'mcp__fs',
      'mcp__fs__',
      'mcp____tool',
      'mcp_fs_tool',
      'MCP__fs__x',
    ]) {
      expect(parseMcpToolName(name)).toBeUndefined();
    }
  });

  it('reads back every name formatMcpToolName writes when the server has no "__"', () => {
    const part = fc.string({ minLength: 1 }).filter((text) => !text.includes('__'));
    const server = part.filter((text) => !text.startsWith('_') && !text.endsWith('_'));
    fc.assert(
      fc.property(server, fc.string({ minLength: 1 }), (serverName, tool) => {
        expect(parseMcpToolName(formatMcpToolName(serverName, tool))).toEqual({
          server: serverName,
          tool,
        });
      }),
    );
  });
});

describe('isBlockingEvent', () => {
  it('is true for PreToolUse and Stop only', () => {
    expect(['PreToolUse', 'Stop'].every(isBlockingEvent)).toBe(true);
    for (const event of [
      'PostToolUse',
      'SessionStart',
      'UserPromptSubmit',
      'Notification',
      'stop',
    ]) {
      expect(isBlockingEvent(event)).toBe(false);
    }
  });
});
