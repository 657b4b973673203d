import { describe, expect, it } from 'vitest';
import { convertClaudeCodeConfig } from './claude.js';
import { Conversion } from './conversion.js';

const namesOf = (result: { hooks: { hooks: Record<string, unknown> } }) =>
  Object.values(result.hooks.hooks).flatMap((rules) =>
    (rules as { hooks: { name?: string }[] }[]).flatMap((rule) =>
      rule.hooks.map((hook) => hook.name),
    ),
  );

describe('Conversion.claimName', () => {
  it('gives base, base-2, base-3… and never a name it gave before, whatever bases come', () => {
    const conversion = new Conversion();
    const claimed = ['guard', 'guard-3', 'guard', 'guard', 'guard', 'guard-2', 'x'].map((base) =>
      conversion.claimName(base),
    );
    expect(claimed).toEqual([
      'guard',
      'guard-3',
      'guard-2',
      'guard-4',
      'guard-5',
      'guard-2-2',
      'x',
    ]);
  });

  it('gives no name for a base that looks like a default hook id', () => {
    expect(new Conversion().claimName('PreToolUse[0][1]')).toBeUndefined();
  });
});

describe('Conversion.addRules', () => {
  it('gives the hooks of each rule a matcher split into its own objects and its own names', () => {
    const settings = {
      hooks: {
        PreToolUse: [
          {
            matcher: 'Bash',
            hooks: [
              { type: 'command', command: '~/.claude/hooks/pretooluse.sh' },
              { type: 'command', command: '~/.claude/hooks/pretooluse.sh --two' },
            ],
          },
          {
            // One regex, two rules: {"tool": [...]} and {"mcp_server": [...]}.
            matcher: 'Edit|Write|mcp__github__.*',
            hooks: [{ type: 'command', command: '~/.claude/hooks/pretooluse.sh' }],
          },
        ],
      },
    };
    const result = convertClaudeCodeConfig(JSON.stringify(settings));
    const rules = result.hooks.hooks.PreToolUse as { hooks: object[] }[];
    expect(rules).toHaveLength(3);
    expect(rules[1]?.hooks[0]).not.toBe(rules[2]?.hooks[0]);
    const names = namesOf(result);
    expect(names).toEqual(['pretooluse', 'pretooluse-2', 'pretooluse-3', 'pretooluse-4']);
  });
});

describe('convertClaudeCodeConfig', () => {
  it('names 12,000 hooks of one script uniquely', { timeout: 60_000 }, () => {
    const hooks = Array.from({ length: 12_000 }, () => ({
      type: 'command',
      command: '~/.claude/hooks/guard.sh',
    }));
    const result = convertClaudeCodeConfig(
      JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks }] } }),
    );
    const names = namesOf(result);
    expect(names).toHaveLength(12_000);
    expect(new Set(names).size).toBe(12_000);
    expect(names.slice(0, 3)).toEqual(['guard', 'guard-2', 'guard-3']);
  });
});
