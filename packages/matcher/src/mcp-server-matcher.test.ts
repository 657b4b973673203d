import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileRules } from './compile-rules.js';
import { MatcherError } from './matcher-error.js';
import { mcpServerOf } from './mcp-server-matcher.js';
import { BUILT_IN_REGISTRY } from './test-helpers/registry.js';

const CONTEXT = { projectDir: '/project', homeDir: '/home/user', registry: BUILT_IN_REGISTRY };

describe('mcpServerMatcher', () => {
  it('matches every tool of the listed servers and nothing else when given mcp_server', () => {
    const index = compileRules(
      [
        { event: 'PreToolUse', matcher: { mcp_server: ['fs'] } },
        { event: 'PostToolUse', matcher: { mcp_server: ['fs', 'git'], tool: 'mcp__git__commit' } },
      ],
      CONTEXT,
    );
    expect(index.match({ event: 'PreToolUse', tool: 'mcp__fs__read_text_file' })).toEqual([0]);
    expect(index.match({ event: 'PreToolUse', tool: 'mcp__fs__write_file' })).toEqual([0]);
    for (const tool of ['mcp__fsx__read', 'mcp__f__read', 'fs', 'mcp__fs__', 'write_file']) {
      expect(index.match({ event: 'PreToolUse', tool }), tool).toEqual([]);
    }
    expect(index.match({ event: 'PreToolUse' })).toEqual([]);
    expect(index.match({ event: 'PostToolUse', tool: 'mcp__git__commit' })).toEqual([1]);
    expect(index.match({ event: 'PostToolUse', tool: 'mcp__git__push' })).toEqual([]);
  });

  it('explains a miss with the server pattern and the tool when the server differs', () => {
    const index = compileRules([{ event: 'PreToolUse', matcher: { mcp_server: 'fs' } }], CONTEXT);
    expect(index.explain({ event: 'PreToolUse', tool: 'mcp__git__push' })).toEqual([
      {
        ruleIndex: 0,
        matched: false,
        criterion: 'mcp_server',
        expected: 'mcp__fs__*',
        actual: 'mcp__git__push',
      },
    ]);
  });

  it.each(['Stop', 'SessionStart', 'UserPromptSubmit'])(
    'rejects mcp_server on %s, which has no tool call',
    (event) => {
      expect(() => compileRules([{ event, matcher: { mcp_server: 'fs' } }], CONTEXT)).toThrow(
        MatcherError,
      );
    },
  );

  it('rejects a regex-looking server name with the exact names to write', () => {
    try {
      compileRules([{ event: 'PreToolUse', matcher: { mcp_server: 'fs|git' } }], CONTEXT);
      expect.unreachable();
    } catch (error) {
      expect(error).toMatchObject({ code: 'INVALID_MATCHER_OPTIONS', suggestion: ['fs', 'git'] });
    }
  });
});

describe('mcpServerOf', () => {
  it('finds the server of any mcp__<server>__<tool> name and nothing in other names', () => {
    const part = fc.stringMatching(/^[a-z0-9-]([a-z0-9_-]*[a-z0-9-])?$/);
    fc.assert(
      fc.property(part, part, (server, tool) => {
        fc.pre(!server.includes('__'));
        expect(mcpServerOf(`mcp__${server}__${tool}`)).toBe(server);
        const other = `${server}__${tool}`;
        if (!other.startsWith('mcp__')) expect(mcpServerOf(other)).toBeUndefined();
      }),
    );
  });
});
