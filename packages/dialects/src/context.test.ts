import type { HookEvent } from '@soong-agent/protocol';
import { describe, expect, it } from 'vitest';
import type { DialectRun } from './dialect.js';
import { getDialect } from './registry.js';
import { run } from './test-helpers/run.js';

// spec §13.1: each dialect's decoder reports the context its agent gives the model; the decision
// is what it was before.
const decide = (dialect: string, event: HookEvent, overrides: Partial<DialectRun>) =>
  getDialect(dialect).decide(event, run(overrides));
const stdout = (value: unknown) => ({ stdout: `${JSON.stringify(value)}\n` });
const warnings = (verdict: { logs: { source: string; message: string }[] }) =>
  verdict.logs.filter((log) => log.source === 'warning').map((log) => log.message);

describe('soong dialect: context', () => {
  it('reports the output field context on every event when the hook answers with one', () => {
    for (const event of [
      'SessionStart',
      'UserPromptSubmit',
      'PreToolUse',
      'PostToolUse',
    ] as const) {
      const verdict = decide('soong', event, stdout({ decision: 'allow', context: 'use pnpm' }));
      expect(verdict).toMatchObject({ decision: 'allow', context: 'use pnpm' });
      expect(verdict.unknownKeys).toBeUndefined();
    }
  });

  it('keeps the context of a deny when the deny stands after a non-zero exit', () => {
    const verdict = decide('soong', 'PreToolUse', {
      exitCode: 1,
      ...stdout({ decision: 'deny', reason: 'no', context: 'see docs/rules.md' }),
    });
    expect(verdict).toMatchObject({ decision: 'deny', context: 'see docs/rules.md' });
  });

  it('reports no context when the output has none or is plain text', () => {
    expect(decide('soong', 'SessionStart', stdout({ decision: 'allow' })).context).toBeUndefined();
    expect(decide('soong', 'SessionStart', { stdout: 'hello' }).context).toBeUndefined();
  });
});

describe.each(['claude-code', 'codex'])('%s dialect: context', (dialect) => {
  it.each(['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PostToolUse'] as const)(
    'reports hookSpecificOutput.additionalContext on %s without calling it ignored',
    (event) => {
      const verdict = decide(
        dialect,
        event,
        stdout({ hookSpecificOutput: { hookEventName: event, additionalContext: 'branch: main' } }),
      );
      expect(verdict.context).toBe('branch: main');
      expect(verdict.decision).toBe('none');
      expect(warnings(verdict).join('\n')).not.toContain('additionalContext');
    },
  );

  it.each(['SessionStart', 'UserPromptSubmit'] as const)(
    'reports the plain stdout of a %s hook that exited 0 as context',
    (event) => {
      const verdict = decide(dialect, event, { stdout: 'Today is Friday.\nBranch main.\n' });
      expect(verdict.context).toBe('Today is Friday.\nBranch main.');
      expect(verdict.failure).toBeUndefined();
    },
  );

  it('reports no context from the plain stdout of a PreToolUse or PostToolUse hook', () => {
    expect(decide(dialect, 'PreToolUse', { stdout: 'checked' }).context).toBeUndefined();
    expect(decide(dialect, 'PostToolUse', { stdout: 'checked' }).context).toBeUndefined();
  });

  it('reports no context from the plain stdout of a hook that exited 1', () => {
    const verdict = decide(dialect, 'SessionStart', { exitCode: 1, stdout: 'boom' });
    expect(verdict.failure?.kind).toBe('exit_code');
    expect(verdict.context).toBeUndefined();
  });

  it('delivers a PostToolUse decision "block" reason as context, the deny still ignored there', () => {
    const verdict = decide(
      dialect,
      'PostToolUse',
      stdout({
        decision: 'block',
        reason: 'lint failed: src/a.ts:3',
        hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: 'run pnpm lint' },
      }),
    );
    expect(verdict.decision).toBe('deny');
    expect(verdict.context).toBe('lint failed: src/a.ts:3\n\nrun pnpm lint');
  });

  it("delivers a PostToolUse exit 2's stderr as context", () => {
    const verdict = decide(dialect, 'PostToolUse', {
      exitCode: 2,
      stderrTail: 'formatting changed src/a.ts\n',
      stderrBytes: 28,
    });
    expect(verdict).toMatchObject({ decision: 'deny', context: 'formatting changed src/a.ts' });
  });

  it('reports additionalContext on Stop as an ignored key and no context', () => {
    const verdict = decide(
      dialect,
      'Stop',
      stdout({ hookSpecificOutput: { hookEventName: 'Stop', additionalContext: 'x' } }),
    );
    expect(verdict.context).toBeUndefined();
    expect(warnings(verdict).join('\n')).toContain('hookSpecificOutput.additionalContext');
  });

  it('keeps a PreToolUse deny when the answer also adds context', () => {
    const verdict = decide(
      dialect,
      'PreToolUse',
      stdout({
        hookSpecificOutput: {
          hookEventName: 'PreToolUse',
          permissionDecision: 'deny',
          permissionDecisionReason: 'no rm',
          additionalContext: 'use trash instead',
        },
      }),
    );
    expect(verdict).toMatchObject({
      decision: 'deny',
      reason: 'no rm',
      context: 'use trash instead',
    });
  });
});

describe('gemini dialect: context', () => {
  it.each(['SessionStart', 'UserPromptSubmit', 'PostToolUse'] as const)(
    'reports hookSpecificOutput.additionalContext on %s',
    (event) => {
      const verdict = decide(
        'gemini',
        event,
        stdout({ hookSpecificOutput: { additionalContext: 'node 20' } }),
      );
      expect(verdict.context).toBe('node 20');
      expect(warnings(verdict)).toEqual([]);
    },
  );

  it('delivers an AfterTool deny reason as context', () => {
    const verdict = decide('gemini', 'PostToolUse', stdout({ decision: 'deny', reason: 'bad' }));
    expect(verdict).toMatchObject({ decision: 'deny', context: 'bad' });
    const block = decide('gemini', 'PostToolUse', {
      exitCode: 2,
      stderrTail: 'tests broke',
      stderrBytes: 11,
    });
    expect(block).toMatchObject({ decision: 'deny', context: 'tests broke' });
  });

  it('reports no context from BeforeTool additionalContext, which Gemini CLI does not deliver', () => {
    const verdict = decide(
      'gemini',
      'PreToolUse',
      stdout({ hookSpecificOutput: { additionalContext: 'x' } }),
    );
    expect(verdict.context).toBeUndefined();
    expect(warnings(verdict).join('\n')).toContain('hookSpecificOutput.additionalContext');
  });

  it('reports no context from plain stdout on SessionStart', () => {
    expect(decide('gemini', 'SessionStart', { stdout: 'hello' }).context).toBeUndefined();
  });
});

describe.each([
  ['cursor', 'additional_context'],
  ['copilot', 'additionalContext'],
])('%s dialect: context', (dialect, key) => {
  it.each(['SessionStart', 'PostToolUse'] as const)(`reports ${key} on %s`, (event) => {
    const verdict = decide(dialect, event, stdout({ [key]: 'coverage 81%' }));
    expect(verdict.context).toBe('coverage 81%');
    expect(warnings(verdict)).toEqual([]);
  });

  it(`reports ${key} on PreToolUse as ignored and no context`, () => {
    const verdict = decide(dialect, 'PreToolUse', stdout({ [key]: 'x' }));
    expect(verdict.context).toBeUndefined();
    expect(warnings(verdict).join('\n')).toContain(key);
  });

  it('reports no context when the hook failed', () => {
    const verdict = decide(dialect, 'PostToolUse', { exitCode: 1, ...stdout({ [key]: 'x' }) });
    expect(verdict.failure?.kind).toBe('exit_code');
    expect(verdict.context).toBeUndefined();
  });
});

describe('Dialect.contextEvents', () => {
  it('lists the events on which each agent gives its model the context a hook adds', () => {
    const events = (name: string) => [...(getDialect(name).contextEvents ?? [])].sort();
    expect(events('claude-code')).toEqual([
      'PostToolUse',
      'PostToolUseFailure',
      'PreToolUse',
      'SessionStart',
      'UserPromptSubmit',
    ]);
    // Codex has no PostToolUseFailure event.
    expect(events('codex')).toEqual([
      'PostToolUse',
      'PreToolUse',
      'SessionStart',
      'UserPromptSubmit',
    ]);
    expect(events('gemini')).toEqual(['PostToolUse', 'SessionStart', 'UserPromptSubmit']);
    expect(events('cursor')).toEqual(['PostToolUse', 'SessionStart']);
    expect(events('copilot')).toEqual([
      'PostToolUse',
      'PostToolUseFailure',
      'SessionStart',
      'UserPromptSubmit',
    ]);
    expect(events('soong')).toEqual(
      expect.arrayContaining(['SessionStart', 'PostToolUse', 'Stop']),
    );
    expect(Object.isFrozen(getDialect('gemini').contextEvents)).toBe(true);
  });
});
