import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  makeAgentWorkspace,
  readSessionLines,
  writeHookScript,
  writeHooksJson,
} from './agent-workspace.js';
import { createTree, makeTempDir, writeTree } from './temp-dir.js';

const mode = (file: string) => fs.statSync(file).mode & 0o777;

describe('makeAgentWorkspace', () => {
  it('lays out home (0700), project and os-home with the files asked for', () => {
    const workspace = makeAgentWorkspace({
      hooks: { Stop: [] },
      configToml: '[hooks]\n',
      homeFiles: { 'hooks/guard.sh': 'true\n' },
      projectFiles: { 'src/a.ts': 'x' },
    });
    expect(mode(workspace.home)).toBe(0o700);
    expect(fs.statSync(workspace.osHome).isDirectory()).toBe(true);
    expect(JSON.parse(fs.readFileSync(path.join(workspace.home, 'hooks.json'), 'utf8'))).toEqual({
      version: 1,
      hooks: { Stop: [] },
    });
    expect(mode(path.join(workspace.home, 'config.toml'))).toBe(0o600);
    expect(mode(path.join(workspace.home, 'hooks/guard.sh'))).toBe(0o600);
    expect(fs.readFileSync(path.join(workspace.projectDir, 'src/a.ts'), 'utf8')).toBe('x');
  });
});

describe('writeHookScript', () => {
  it('writes an executable script, also over an existing non-executable file', () => {
    const { home } = makeAgentWorkspace();
    const file = path.join(home, 'hooks', 'guard.sh');
    fs.mkdirSync(path.dirname(file));
    fs.writeFileSync(file, 'old', { mode: 0o600 });
    expect(writeHookScript(file, '#!/bin/sh\necho {}\n')).toBe(file);
    expect(mode(file)).toBe(0o755);
    expect(fs.readFileSync(file, 'utf8')).toBe('#!/bin/sh\necho {}\n');
  });
});

describe('writeHooksJson', () => {
  it('replaces hooks.json with a private file', () => {
    const { home } = makeAgentWorkspace({ hooks: {} });
    const file = writeHooksJson(home, { PreToolUse: [{ hooks: [] }] });
    expect(JSON.parse(fs.readFileSync(file, 'utf8')).hooks).toEqual({
      PreToolUse: [{ hooks: [] }],
    });
    expect(mode(file)).toBe(0o600);
  });
});

describe('readSessionLines', () => {
  it('reads the records of the only session and throws when there is none', () => {
    const { home } = makeAgentWorkspace();
    expect(() => readSessionLines(home)).toThrow(/found 0/);
    writeTree(home, {
      'sessions/s1/events.jsonl': '{"type":"session_started"}\n{"type":"loop_ended"}\n',
    });
    expect(readSessionLines(home).map((record) => record.type)).toEqual([
      'session_started',
      'loop_ended',
    ]);
  });
});

describe('makeTempDir', () => {
  let previous: string | undefined;
  it('makes a real directory', () => {
    previous = makeTempDir();
    createTree(previous, ['a/', 'a/b.txt']);
    expect(fs.statSync(path.join(previous, 'a/b.txt')).isFile()).toBe(true);
    expect(fs.realpathSync(previous)).toBe(previous);
  });

  it('removed the directory of the previous test', () => {
    expect(previous).toBeDefined();
    expect(fs.existsSync(previous as string)).toBe(false);
  });
});
