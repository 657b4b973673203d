import { describe, expect, it } from 'vitest';
import { makeWorkspace, runCli } from './test-helpers/cli.js';

const TIMEOUT = 60_000;

// spec §11: `hooks validate | list | explain | test` accept the tool names a host declares.
const DENY_ALL = `cat >/dev/null; echo '{"decision":"deny","reason":"host tool guarded"}'`;

function hostWorkspace(configToml: string) {
  return makeWorkspace({
    home: {
      'config.toml': configToml,
      'hooks.json': JSON.stringify({
        version: 1,
        hooks: {
          PreToolUse: [
            { matcher: { tool: ['weather'] }, hooks: [{ type: 'command', command: DENY_ALL }] },
            { matcher: { mcp_server: 'fs' }, hooks: [{ type: 'command', command: DENY_ALL }] },
            {
              matcher: { tag: 'write', tool: 'mcp__fs__write_file' },
              hooks: [{ type: 'command', command: DENY_ALL, name: 'fs-write' }],
            },
          ],
        },
      }),
    },
  });
}

function cli(workspace: ReturnType<typeof makeWorkspace>, args: string[]) {
  return runCli([...args, '--home', workspace.home, '--project', workspace.project], {
    env: workspace.env,
  });
}

describe('soong-agent hooks with tools a host declares', () => {
  it(
    'validates --strict with no warning when [tools] known declares the tool names',
    async () => {
      const bare = await cli(hostWorkspace(''), ['hooks', 'validate', '--strict']);
      expect(bare.code).toBe(2);
      expect(bare.stderr).toContain('"weather" names no known tool');
      const declared = await cli(hostWorkspace('[tools]\nknown = ["weather"]\n'), [
        'hooks',
        'validate',
        '--strict',
      ]);
      expect(declared.code, declared.stderr).toBe(0);
      expect(declared.stdout.trimEnd().split('\n').at(-1)).toBe('valid, 0 warnings');
      const list = await cli(hostWorkspace('[tools]\nknown = ["weather"]\n'), ['hooks', 'list']);
      expect(list.code).toBe(0);
      expect(list.stderr).toBe('');
    },
    TIMEOUT,
  );

  it(
    'explains and tests a declared tool, an MCP tool of a listed server, and any tool given --risk, with a note',
    async () => {
      const workspace = hostWorkspace(
        '[tools]\nknown = ["weather"]\n\n[mcp.fs]\nrisk = "readonly"\n[mcp.fs.tools.write_file]\nrisk = "write"\n',
      );
      const explainTool = (tool: string) =>
        cli(workspace, ['hooks', 'explain', 'PreToolUse', '--tool', tool, '--json']);
      const explain = await explainTool('mcp__fs__write_file');
      expect(explain.code, explain.stderr).toBe(0);
      expect(explain.stderr).toContain(
        'note: mcp__fs__write_file is a tool of the MCP server "fs"',
      );
      const rules = JSON.parse(explain.stdout).rules as { matched: boolean }[];
      expect(rules.map((rule) => rule.matched)).toEqual([false, true, true]);
      const weather = await cli(workspace, ['hooks', 'test', 'PreToolUse', '--tool', 'weather']);
      expect(weather.code, weather.stderr).toBe(3);
      expect(weather.stderr).toContain('note: weather is declared in [tools] known');
      const read = await explainTool('mcp__fs__read_text_file');
      expect(JSON.parse(read.stdout).subject.tags).toEqual(['readonly']);
      const other = await cli(workspace, [
        'hooks',
        'test',
        'PreToolUse',
        '--tool',
        'searchDocs',
        '--risk',
        'write',
      ]);
      expect(other.code, other.stderr).toBe(0);
      expect(other.stderr).toContain(
        'note: searchDocs is not a tool of this agent: tested as a write tool',
      );
    },
    TIMEOUT,
  );

  it(
    'refuses an unknown tool without --risk, and a --risk that is no risk class, with exit 2',
    async () => {
      const workspace = hostWorkspace('');
      const unknown = await cli(workspace, ['hooks', 'explain', 'PreToolUse', '--tool', 'weather']);
      expect(unknown.code).toBe(2);
      expect(unknown.stderr).toContain('--risk');
      const unlisted = await cli(workspace, [
        'hooks',
        'explain',
        'PreToolUse',
        '--tool',
        'mcp__git__push',
      ]);
      expect(unlisted.code).toBe(2);
      const bad = await cli(workspace, [
        'hooks',
        'explain',
        'PreToolUse',
        '--tool',
        'weather',
        '--risk',
        'high',
      ]);
      expect(bad.code).toBe(2);
      expect(bad.stderr).toContain('not a risk class');
    },
    TIMEOUT,
  );
});
