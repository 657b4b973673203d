import fs from 'node:fs';
import path from 'node:path';
import { loadConfig } from '@soong-agent/config';
import { toClaudeCodeToolInput } from '@soong-agent/dialects/internal';
import { makeTempDir } from '@soong-agent/test-utils';
import { describe, expect, it } from 'vitest';
import { mapToolCall, mcpToolOf } from './tool-map.js';

function context(mcpServers: string[] = [], configToml?: string) {
  const home = makeTempDir();
  if (configToml !== undefined) fs.writeFileSync(path.join(home, 'config.toml'), configToml);
  return { directory: '/p', mcpServers, config: loadConfig({ home, projectDir: '/p' }) };
}

describe('mapToolCall', () => {
  it('maps bash to ours with the timeout in seconds, and a Claude Code hook sees Bash with milliseconds', () => {
    const mapped = mapToolCall(
      'bash',
      { command: 'rm -rf ./victim', timeout: 5000, workdir: 'sub', description: 'x' },
      context(),
    );
    expect(mapped).toEqual({
      name: 'bash',
      input: { command: 'rm -rf ./victim', timeout: 5, working_dir: 'sub', description: 'x' },
      risk: 'dangerous',
      paths: ['/p/sub'],
    });
    expect(toClaudeCodeToolInput(mapped.name, mapped.input, '/p')).toMatchObject({
      command: 'rm -rf ./victim',
      timeout: 5000,
    });
  });

  it('maps the file tools to read_file, write_file, edit_file, grep, list_dir with absolute paths', () => {
    const c = context();
    expect(mapToolCall('read', { filePath: 'a.txt', offset: 2 }, c)).toMatchObject({
      name: 'read_file',
      input: { path: 'a.txt', offset: 2 },
      risk: 'readonly',
      paths: ['/p/a.txt'],
    });
    expect(mapToolCall('write', { filePath: '/etc/x', content: 'c' }, c)).toMatchObject({
      name: 'write_file',
      input: { path: '/etc/x', content: 'c' },
      risk: 'write',
      paths: ['/etc/x'],
    });
    expect(
      mapToolCall('edit', { filePath: 'b', oldString: 'o', newString: 'n', replaceAll: true }, c),
    ).toMatchObject({
      name: 'edit_file',
      input: { path: 'b', old_string: 'o', new_string: 'n', replace_all: true },
      risk: 'write',
    });
    expect(mapToolCall('grep', { pattern: 'x', include: '*.ts' }, c)).toMatchObject({
      name: 'grep',
      input: { pattern: 'x', glob: '*.ts' },
      risk: 'readonly',
      paths: ['/p'],
    });
    expect(mapToolCall('list', { path: 'src' }, c)).toMatchObject({
      name: 'list_dir',
      paths: ['/p/src'],
    });
    expect(mapToolCall('glob', { pattern: '**/*.md' }, c)).toMatchObject({
      name: 'glob',
      risk: 'readonly',
      dialectName: { 'claude-code': 'Glob' },
    });
  });

  it('names task, webfetch and todowrite as ours and says how Claude Code names them', () => {
    const c = context();
    expect(mapToolCall('task', { prompt: 'p' }, c)).toMatchObject({
      name: 'task',
      risk: 'dangerous',
      dialectName: { 'claude-code': 'Task' },
    });
    expect(mapToolCall('webfetch', { url: 'u' }, c)).toMatchObject({
      name: 'web_fetch',
      risk: 'readonly',
      dialectName: { 'claude-code': 'WebFetch' },
    });
    expect(mapToolCall('todowrite', { todos: [] }, c)).toMatchObject({
      name: 'todo_write',
      dialectName: { 'claude-code': 'TodoWrite' },
    });
  });

  it('takes the files of an apply_patch as its paths', () => {
    const patch =
      '*** Begin Patch\n*** Update File: src/a.ts\n@@\n*** Add File: b.ts\n*** End Patch';
    expect(mapToolCall('apply_patch', { patchText: patch }, context())).toMatchObject({
      name: 'apply_patch',
      input: { command: patch },
      risk: 'write',
      paths: ['/p/src/a.ts', '/p/b.ts'],
    });
  });

  it('names a configured MCP server tool mcp__<server>__<tool> with the risk of [mcp.<server>]', () => {
    const c = context(
      ['fs', 'fs_extra'],
      '[mcp.fs]\nrisk = "write"\n[mcp.fs.tools.read_text_file]\nrisk = "readonly"\n',
    );
    expect(mapToolCall('fs_read_text_file', { path: 'notes.md' }, c)).toEqual({
      name: 'mcp__fs__read_text_file',
      input: { path: 'notes.md' },
      risk: 'readonly',
      paths: ['/p/notes.md'],
    });
    expect(mapToolCall('fs_write_file', { path: 'x' }, c)).toMatchObject({
      name: 'mcp__fs__write_file',
      risk: 'write',
    });
    expect(mapToolCall('fs_extra_copy', {}, c)).toMatchObject({
      name: 'mcp__fs_extra__copy',
      risk: 'dangerous',
    });
  });

  it("keeps an unknown tool (a plugin's own) by its name as dangerous", () => {
    expect(mapToolCall('deploy', { env: 'prod' }, context())).toEqual({
      name: 'deploy',
      input: { env: 'prod' },
      risk: 'dangerous',
      paths: [],
    });
    expect(mapToolCall('bash', 'not an object', context())).toMatchObject({
      name: 'bash',
      input: {},
    });
  });
});

describe('mcpToolOf', () => {
  it('takes the longest configured server name and sanitises it as OpenCode does', () => {
    expect(mcpToolOf('my_server_tool', ['my.server', 'my'])).toEqual({
      server: 'my.server',
      tool: 'tool',
    });
    expect(mcpToolOf('read', ['fs'])).toBeUndefined();
    expect(mcpToolOf('fs_', ['fs'])).toBeUndefined();
  });
});
