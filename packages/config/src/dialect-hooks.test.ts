import fs from 'node:fs';
import path from 'node:path';
import {
  builtInDialects,
  createDialectRegistry,
  type Dialect,
  type DialectRegistry,
} from '@soong-agent/dialects';
import { soongDialect } from '@soong-agent/dialects/internal';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from './load-config.js';
import { catchConfigError } from './test-helpers/catch-config-error.js';
import { createTempLayout, type TempLayout } from './test-helpers/temp-dirs.js';

let layout: TempLayout;
beforeEach(() => {
  layout = createTempLayout();
});
afterEach(() => layout.cleanup());

const fromText = (hooks: unknown) =>
  loadConfig({
    home: layout.home,
    projectDir: layout.projectDir,
    homeDir: layout.homeDir,
    hooksText: JSON.stringify({ version: 1, hooks }),
  });
const hook = (extra: Record<string, unknown>) => ({ type: 'command', command: 'true', ...extra });

describe("hooks.json of other agents' hooks (spec §12)", () => {
  it("accepts every dialect as a protocol, and a dialect_event that is one of the agent's events for the rule's event", () => {
    const config = fromText({
      PreToolUse: [
        {
          hooks: [
            hook({ protocol: 'codex' }),
            hook({ protocol: 'gemini', name: 'g' }),
            hook({ protocol: 'cursor', dialect_event: 'beforeShellExecution', name: 'c' }),
            hook({ protocol: 'copilot', name: 'p' }),
          ],
        },
      ],
    });
    const hooks = config.hooks.rules[0]?.hooks ?? [];
    expect(hooks.map((item) => item.protocol)).toEqual(['codex', 'gemini', 'cursor', 'copilot']);
    expect(hooks[2]?.dialectEvent).toBe('beforeShellExecution');
  });

  it('refuses an unknown protocol, a dialect_event of another event or without a dialect, and workers that are not ours', () => {
    const error = catchConfigError(() =>
      fromText({
        PreToolUse: [
          {
            hooks: [
              hook({ protocol: 'windsurf' }),
              hook({ dialect_event: 'preToolUse', name: 'b' }),
              hook({ protocol: 'gemini', mode: 'worker', name: 'c' }),
            ],
          },
        ],
      }),
    );
    expect(error.message).toContain('hooks.PreToolUse[0].hooks[0].protocol');
    expect(error.message).toContain('"dialect_event" names another agent\'s event');
    expect(error.message).toContain('which a "gemini" hook does not');
    const wrongEvent = catchConfigError(() =>
      fromText({ PreToolUse: [{ hooks: [hook({ protocol: 'cursor', dialect_event: 'stop' })] }] }),
    );
    expect(wrongEvent.message).toContain('"stop" is not a cursor event of PreToolUse');
    expect(wrongEvent.message).toContain('use one of "preToolUse", "beforeShellExecution"');
  });

  it("hooksText: validates text as the home's hooks.json without reading or writing it", () => {
    fs.writeFileSync(path.join(layout.home, 'hooks.json'), '{ broken');
    const config = fromText({ Stop: [{ hooks: [hook({ protocol: 'codex' })] }] });
    expect(config.hooks.rules).toHaveLength(1);
    expect(fs.readFileSync(path.join(layout.home, 'hooks.json'), 'utf8')).toBe('{ broken');
    const error = catchConfigError(() =>
      loadConfig({
        home: layout.home,
        projectDir: layout.projectDir,
        homeDir: layout.homeDir,
        hooksText: '{"version": 2}',
      }),
    );
    expect(error.message).toContain(
      path.join(layout.home, 'hooks.json').replace(layout.homeDir, '~'),
    );
  });
});

describe('the variables each dialect sets are known when a hook is checked', () => {
  it('a Gemini or Cursor hook script named through its project-dir variable is found in the project', () => {
    fs.mkdirSync(path.join(layout.projectDir, '.gemini'), { recursive: true });
    fs.writeFileSync(path.join(layout.projectDir, '.gemini', 'guard.sh'), '#!/bin/sh\n', {
      mode: 0o755,
    });
    fs.writeFileSync(path.join(layout.projectDir, '.gemini', 'other.sh'), '#!/bin/sh\n', {
      mode: 0o755,
    });
    const config = fromText({
      PreToolUse: [
        {
          hooks: [
            hook({
              protocol: 'gemini',
              command: '$GEMINI_PROJECT_DIR/.gemini/guard.sh',
              name: 'g',
            }),
          ],
        },
        {
          hooks: [
            hook({
              protocol: 'cursor',
              command: '"$CURSOR_PROJECT_DIR"/.gemini/other.sh',
              name: 'c',
            }),
          ],
        },
        {
          hooks: [
            hook({
              protocol: 'gemini',
              command: '$CLAUDE_PROJECT_DIR/.gemini/missing.sh',
              name: 'm',
            }),
          ],
        },
      ],
    });
    expect(config.warnings.map((warning) => [warning.code, warning.path])).toEqual([
      ['COMMAND_IN_PROJECT', 'hooks.PreToolUse[0].hooks[0].command'],
      ['COMMAND_IN_PROJECT', 'hooks.PreToolUse[1].hooks[0].command'],
      // Not in this project, but any project may supply it.
      ['COMMAND_IN_PROJECT', 'hooks.PreToolUse[2].hooks[0].command'],
      ['COMMAND_NOT_FOUND', 'hooks.PreToolUse[2].hooks[0].command'],
    ]);
  });
});

describe('loadConfig({ dialects })', () => {
  const windsurf: Dialect = {
    ...soongDialect,
    name: 'windsurf-local',
    events: Object.freeze({ preTool: 'PreToolUse' as const }),
  };
  const withDialects = (hooks: unknown, dialects: DialectRegistry) =>
    loadConfig({
      home: layout.home,
      projectDir: layout.projectDir,
      homeDir: layout.homeDir,
      hooksText: JSON.stringify({ version: 1, hooks }),
      dialects,
    });

  it('accepts a protocol of the registry it is given and keeps that registry for the engine', () => {
    const dialects = createDialectRegistry([...builtInDialects, windsurf]);
    const config = withDialects(
      {
        PreToolUse: [{ hooks: [hook({ protocol: 'windsurf-local', dialect_event: 'preTool' })] }],
      },
      dialects,
    );
    expect(config.hooks.rules[0]?.hooks[0]?.protocol).toBe('windsurf-local');
    expect(config.dialects).toBe(dialects);
    // The default registry never learnt of it.
    expect(() =>
      fromText({ PreToolUse: [{ hooks: [hook({ protocol: 'windsurf-local' })] }] }),
    ).toThrow(/unknown protocol "windsurf-local"/);
  });

  it("refuses a built-in protocol the registry it is given leaves out, naming the registry's protocols", () => {
    const dialects = createDialectRegistry([soongDialect, windsurf]);
    const error = catchConfigError(() =>
      withDialects({ PreToolUse: [{ hooks: [hook({ protocol: 'codex' })] }] }, dialects),
    );
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.message).toContain(
      'unknown protocol "codex"; expected one of "soong", "windsurf-local"',
    );
  });

  it('checks the rules under a misspelt event against the same registry', () => {
    const dialects = createDialectRegistry([soongDialect, windsurf]);
    const error = catchConfigError(() =>
      withDialects(
        {
          PreToolUse: [{ hooks: [hook({ protocol: 'windsurf-local' })] }],
          PreToolUze: [
            { hooks: [hook({ protocol: 'windsurf-local' }), hook({ protocol: 'codex' })] },
          ],
        },
        dialects,
      ),
    );
    expect(error.message).toContain('unknown event "PreToolUze"');
    expect(error.message).toContain('unknown protocol "codex"');
    expect(error.message).not.toContain('unknown protocol "windsurf-local"');
  });

  it('keeps each registry to its own files when two are used one after the other', () => {
    const first = createDialectRegistry([soongDialect, windsurf]);
    const second = createDialectRegistry([...builtInDialects]);
    const rules = { PreToolUse: [{ hooks: [hook({ protocol: 'windsurf-local' })] }] };
    expect(withDialects(rules, first).hooks.rules).toHaveLength(1);
    expect(() => withDialects(rules, second)).toThrow(/unknown protocol "windsurf-local"/);
    expect(withDialects(rules, first).hooks.rules).toHaveLength(1);
  });
});
