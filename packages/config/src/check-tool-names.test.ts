import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkToolNames } from './check-tool-names.js';
import { emptyCompiledHooks } from './compiled-hooks.js';
import { createTempLayout, type TempLayout } from './test-helpers/temp-dirs.js';

const KNOWN = ['read_file', 'list_dir', 'grep', 'write_file', 'edit_file', 'bash'];
let layout: TempLayout;
beforeEach(() => {
  layout = createTempLayout();
});
afterEach(() => layout.cleanup());

const load = () => layout.load();
// hooks.json with one PreToolUse rule naming these tools.
const writeToolRule = (tools: string[]) =>
  layout.write(
    'hooks.json',
    JSON.stringify({
      version: 1,
      hooks: {
        PreToolUse: [{ matcher: { tool: tools }, hooks: [{ type: 'command', command: 'true' }] }],
      },
    }),
  );

describe('checkToolNames', () => {
  it('does not warn about mcp__ tool names when a rule names a tool behind mcp-proxy', () => {
    writeToolRule(['mcp__fs__write_file', 'mpc__fs__write_file']);
    expect(checkToolNames(load(), KNOWN).map((warning) => warning.path)).toEqual([
      'hooks.PreToolUse[0].matcher.tool[1]',
    ]);
  });

  it('warns UNKNOWN_TOOL with a did-you-mean and the position of each unknown tool', () => {
    layout.write(
      'hooks.json',
      [
        '{',
        '  "version": 1,',
        '  "hooks": {',
        '    "PostToolUse": [{ "matcher": "bsh", "hooks": [{ "type": "command", "command": "x" }] }],',
        '    "PreToolUse": [',
        '      { "matcher": { "tool": ["write_file", "wirte_file", "Read"] }, "hooks": [{ "type": "command", "command": "x" }] }',
        '    ]',
        '  }',
        '}',
      ].join('\n'),
    );
    const warnings = checkToolNames(load(), KNOWN);
    expect(
      warnings.map((warning) => [warning.code, warning.path, warning.line, warning.column]),
    ).toEqual([
      ['UNKNOWN_TOOL', 'hooks.PostToolUse[0].matcher', 4, 34],
      ['UNKNOWN_TOOL', 'hooks.PreToolUse[0].matcher.tool[1]', 6, 45],
      ['UNKNOWN_TOOL', 'hooks.PreToolUse[0].matcher.tool[2]', 6, 59],
    ]);
    expect(warnings[0]?.message).toContain('did you mean "bash"?');
    expect(warnings[1]?.message).toContain('did you mean "write_file"?');
    expect(warnings[2]?.message).toContain('did you mean "read_file"?');
    expect(warnings[0]?.file).toBe(path.join(layout.home, 'hooks.json'));
  });

  it('returns nothing when every tool is known or there are no hooks', () => {
    layout.write(
      'hooks.json',
      JSON.stringify({
        version: 1,
        hooks: {
          PreToolUse: [{ matcher: { tool: 'bash' }, hooks: [{ type: 'command', command: 'x' }] }],
        },
      }),
    );
    expect(checkToolNames(load(), KNOWN)).toEqual([]);
    layout.write('hooks.json', '{"version":1}');
    expect(checkToolNames(load(), KNOWN)).toEqual([]);
  });

  it('still warns, without a position, for a config built by hand', () => {
    const loaded = load();
    const hooks = {
      ...emptyCompiledHooks(),
      rules: [{ event: 'PreToolUse' as const, ruleIndex: 0, matcher: 'grpe', hooks: [] }],
      ruleCount: 1,
    };
    const [warning] = checkToolNames({ ...loaded, hooks }, KNOWN);
    expect(warning).toMatchObject({ code: 'UNKNOWN_TOOL', path: 'hooks.PreToolUse[0].matcher' });
    expect(warning?.line).toBeUndefined();
  });
});

describe('checkToolNames with [tools] known', () => {
  it('accepts the tool names config.toml declares and still warns about the others', () => {
    layout.write('config.toml', '[tools]\nknown = ["weather", "searchDocs"]\n');
    writeToolRule(['weather', 'searchDocs', 'wether']);
    const warnings = checkToolNames(load(), KNOWN);
    expect(warnings.map((warning) => warning.path)).toEqual([
      'hooks.PreToolUse[0].matcher.tool[2]',
    ]);
    expect(warnings[0]?.message).toContain('did you mean "weather"?');
  });
});
