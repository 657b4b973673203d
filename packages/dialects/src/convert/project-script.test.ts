import { describe, expect, it } from 'vitest';
import { convertCodexConfig } from '../codex.js';
import { convertCopilotConfig } from '../copilot.js';
import { convertCursorConfig } from '../cursor.js';
import { convertGeminiConfig } from '../gemini.js';
import { convertClaudeCodeConfig } from './claude.js';
import { projectScriptOf } from './project-script.js';

// The shell's spelling, written literally.
const GEMINI_DIR = ['$', '{GEMINI_PROJECT_DIR}'].join('');

describe('projectScriptOf', () => {
  it.each([
    [
      '"$CLAUDE_PROJECT_DIR"/.claude/hooks/x.sh',
      '$CLAUDE_PROJECT_DIR/.claude/hooks/x.sh',
      'variable',
    ],
    [
      `python3 "${GEMINI_DIR}/.gemini/hooks/x.py" --n 1`,
      `${GEMINI_DIR}/.gemini/hooks/x.py`,
      'variable',
    ],
    [
      '$CURSOR_PROJECT_DIR/.cursor/hooks/x.sh',
      '$CURSOR_PROJECT_DIR/.cursor/hooks/x.sh',
      'variable',
    ],
    [
      'python3 "$(git rev-parse --show-toplevel)/.codex/hooks/x.py"',
      '$(git rev-parse --show-toplevel)/.codex/hooks/x.py',
      'variable',
    ],
    ['./scripts/x.sh', './scripts/x.sh', 'relative'],
    ['.claude/hooks/x.sh --fast', '.claude/hooks/x.sh', 'relative'],
    ['FOO=1 exec node hooks/x.mjs', 'hooks/x.mjs', 'relative'],
    ['bash x.sh', 'x.sh', 'relative'],
    ["bash -c './x.sh'", './x.sh', 'relative'],
    ['cd "$CLAUDE_PROJECT_DIR" && ./x.sh', './x.sh', 'relative'],
  ])('finds %s', (command, text, how) => {
    expect(projectScriptOf(command)).toEqual({ text, how });
  });

  it.each([
    '~/.claude/hooks/x.sh',
    '/opt/hooks/x.sh',
    'npm test --silent',
    'node -e "require(\'./x.js\')"',
    'jq -r .tool_input.command',
    '"$HOME"/.claude/hooks/x.sh',
    'cd /opt/hooks && ./x.sh',
    'echo ./x.sh > ./log.txt',
  ])('finds nothing in %s', (command) => {
    expect(projectScriptOf(command)).toBeUndefined();
  });

  it('takes a relative script from an absolute working dir as outside the project', () => {
    expect(projectScriptOf('./x.sh', { workingDir: '/opt/hooks' })).toBeUndefined();
    expect(projectScriptOf('./x.sh', { workingDir: 'tools' })).toEqual({
      text: './x.sh',
      how: 'relative',
    });
  });
});

const noteOf = (notes: readonly string[]) =>
  notes.filter((note) => note.includes('any project you open (a cloned repo) can supply its code'));

describe('the converters', () => {
  const grouped = (event: string, command: string) =>
    JSON.stringify({ hooks: { [event]: [{ hooks: [{ type: 'command', command }] }] } });
  it.each([
    [
      'Claude Code',
      convertClaudeCodeConfig,
      grouped('Stop', '"$CLAUDE_PROJECT_DIR"/.claude/hooks/x.sh'),
    ],
    ['Codex', convertCodexConfig, grouped('Stop', 'python3 .codex/hooks/x.py')],
    [
      'Gemini CLI',
      convertGeminiConfig,
      grouped('AfterAgent', ['$', '{workspacePath}/x.sh'].join('')),
    ],
    [
      'Cursor',
      convertCursorConfig,
      JSON.stringify({ version: 1, hooks: { stop: [{ command: '.cursor/hooks/x.sh' }] } }),
    ],
    [
      'Copilot CLI',
      convertCopilotConfig,
      JSON.stringify({ hooks: { agentStop: [{ type: 'command', bash: './scripts/x.sh' }] } }),
    ],
    [
      'Copilot CLI (Claude-shaped)',
      convertCopilotConfig,
      JSON.stringify({
        hooks: { Stop: [{ type: 'command', bash: '"$CLAUDE_PROJECT_DIR"/.github/hooks/x.sh' }] },
      }),
    ],
  ])('%s: notes a hook whose script comes from the project', (_agent, convert, text) => {
    const result = convert(text);
    expect(result.refused).toEqual([]);
    const notes = noteOf(result.notes);
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatch(/^hooks\.[A-Za-z]+\[0\](?:\.hooks\[0\])?: hook x runs /);
    expect(notes[0]).toContain('copy it into your agent home');
  });

  it('notes nothing for a script in the home', () => {
    const result = convertClaudeCodeConfig(grouped('Stop', '~/.claude/hooks/x.sh'));
    expect(noteOf(result.notes)).toEqual([]);
  });
});

describe('projectScriptOf: cd', () => {
  it('reads the folder after cd options and --, and takes .. as leaving the project', () => {
    expect(projectScriptOf('cd -- /opt/tools || exit; ./gate.sh')).toBeUndefined();
    expect(projectScriptOf('cd -P /opt/tools && ./gate.sh')).toBeUndefined();
    expect(projectScriptOf('cd ../shared && ./gate.sh')).toBeUndefined();
    expect(projectScriptOf('cd -- scripts && ./gate.sh')).toMatchObject({ how: 'relative' });
  });
});
