import { claudeCodeToolName, toClaudeCodeToolInput } from '@soong-agent/dialects/internal';
import { describe, expect, it } from 'vitest';
import { PI_TOOL_NAMES, piToolDescription } from './pi-tools.js';

const project = '/work/project';

describe('piToolDescription', () => {
  it('maps each built-in pi tool to its canonical name and risk class', () => {
    const mapped = Object.keys(PI_TOOL_NAMES).map((name) => {
      const { name: canonical, risk } = piToolDescription(name, project);
      return [name, canonical, risk];
    });
    expect(mapped).toEqual([
      ['bash', 'bash', 'dangerous'],
      ['read', 'read_file', 'readonly'],
      ['write', 'write_file', 'write'],
      ['edit', 'edit_file', 'write'],
      ['grep', 'grep', 'readonly'],
      ['find', 'find', 'readonly'],
      ['ls', 'list_dir', 'readonly'],
    ]);
  });

  it('treats a tool pi does not ship as dangerous under its own name', () => {
    expect(piToolDescription('deploy', project)).toEqual({ name: 'deploy', risk: 'dangerous' });
  });

  it('resolves the paths a call touches in the project, the project itself when none is given', () => {
    const paths = (name: string, input: unknown) =>
      piToolDescription(name, project).paths?.(input) ?? [];
    expect(paths('read', { path: 'src/a.ts' })).toEqual(['/work/project/src/a.ts']);
    expect(paths('write', { path: '/etc/passwd', content: '' })).toEqual(['/etc/passwd']);
    expect(paths('edit', { path: '../outside.txt', edits: [] })).toEqual(['/work/outside.txt']);
    expect(paths('grep', { pattern: 'x' })).toEqual([project]);
    expect(paths('find', { pattern: '*.ts', path: 'src' })).toEqual(['/work/project/src']);
    expect(paths('ls', {})).toEqual([project]);
    expect(paths('read', { path: 42 })).toEqual([]);
    expect(paths('read', null)).toEqual([]);
  });

  it("shows pi's edits to other agents' hooks as one old_string/new_string plus the list", () => {
    const view = piToolDescription('edit', project).dialectInput;
    const one = view?.({ path: 'a.ts', edits: [{ oldText: 'a', newText: 'b' }] });
    expect(one).toEqual({ path: 'a.ts', old_string: 'a', new_string: 'b' });
    // As a Claude Code Edit hook sees it.
    expect(claudeCodeToolName('edit_file')).toBe('Edit');
    expect(toClaudeCodeToolInput('edit_file', one, project)).toEqual({
      file_path: '/work/project/a.ts',
      old_string: 'a',
      new_string: 'b',
      replace_all: false,
    });
    const two = view?.({
      path: 'a.ts',
      edits: [
        { oldText: 'a', newText: 'b' },
        { oldText: 'c', newText: 'd' },
      ],
    });
    expect(two).toMatchObject({
      old_string: 'a',
      new_string: 'b',
      edits: [
        { old_string: 'a', new_string: 'b' },
        { old_string: 'c', new_string: 'd' },
      ],
    });
    // pi's older top-level form.
    expect(view?.({ path: 'a.ts', oldText: 'x', newText: 'y' })).toEqual({
      path: 'a.ts',
      old_string: 'x',
      new_string: 'y',
    });
    expect(view?.('not an object')).toBe('not an object');
  });

  it('names find as each agent names its glob tool, with an absolute path', () => {
    const find = piToolDescription('find', project);
    expect(find.dialectName).toMatchObject({ 'claude-code': 'Glob', gemini: 'glob' });
    expect(find.dialectInput?.({ pattern: '*.md' })).toEqual({ pattern: '*.md', path: project });
    expect(find.dialectInput?.({ pattern: '*.md', path: 'docs' })).toEqual({
      pattern: '*.md',
      path: '/work/project/docs',
    });
  });
});
