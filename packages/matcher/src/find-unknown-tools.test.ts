import { describe, expect, it } from 'vitest';
import { findUnknownTools } from './find-unknown-tools.js';
import { TEST_TOOL_ALIASES } from './test-helpers/registry.js';

const KNOWN = ['bash', 'read_file', 'write_file', 'edit_file', 'grep', 'list_dir', 'run_tests'];

describe('findUnknownTools', () => {
  it('reports unknown tools with their path and a did-you-mean in every matcher form', () => {
    expect(
      findUnknownTools(
        [
          { event: 'PreToolUse', matcher: 'Bash' },
          { event: 'PreToolUse', matcher: { tool: 'edit_fiel' } },
          { event: 'PostToolUse', matcher: { tool: ['grep', 'run_test', 'deploy_everything'] } },
          { event: 'Stop' },
        ],
        KNOWN,
        { toolAliases: TEST_TOOL_ALIASES },
      ),
    ).toEqual([
      { ruleIndex: 0, path: ['matcher'], tool: 'Bash', suggestion: 'bash' },
      { ruleIndex: 1, path: ['matcher', 'tool'], tool: 'edit_fiel', suggestion: 'edit_file' },
      { ruleIndex: 2, path: ['matcher', 'tool', 1], tool: 'run_test', suggestion: 'run_tests' },
      { ruleIndex: 2, path: ['matcher', 'tool', 2], tool: 'deploy_everything' },
    ]);
  });

  it('suggests the canonical name for a Claude Code alias when it is known', () => {
    expect(
      findUnknownTools([{ event: 'PreToolUse', matcher: { tool: 'MultiEdit' } }], KNOWN, {
        toolAliases: TEST_TOOL_ALIASES,
      }),
    ).toEqual([
      { ruleIndex: 0, path: ['matcher', 'tool'], tool: 'MultiEdit', suggestion: 'edit_file' },
    ]);
    // Without aliases (the matcher knows no agent's names) only the edit distance speaks.
    expect(
      findUnknownTools([{ event: 'PreToolUse', matcher: { tool: 'MultiEdit' } }], KNOWN),
    ).toEqual([{ ruleIndex: 0, path: ['matcher', 'tool'], tool: 'MultiEdit' }]);
  });

  it('reports nothing when every tool is known or the matcher has no tool', () => {
    expect(
      findUnknownTools(
        [
          { event: 'PreToolUse', matcher: { tool: ['bash', 'grep'], tag: 'write' } },
          { event: 'PreToolUse', matcher: { path_prefix: 'src' } },
          { event: 'PreToolUse', matcher: 42 },
          { event: 'PreToolUse', matcher: { tool: [7] } },
        ],
        KNOWN,
      ),
    ).toEqual([]);
  });
});
