import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeWorkspace, runCli } from '../test-helpers/cli.js';

// spec §13.1: `hooks import` names every converted hook that can add context and prints the
// config.toml lines that deliver it, once per import.
const TIMEOUT = 60_000;
const LINES = '  [hooks]\n  deliver_context = true\n';

const command = (text: string) => ({ type: 'command', command: text });
// Per agent: a file with a hook on an event where the agent delivers context, and one where it
// does not (Stop), and the event the first becomes here.
const SOURCES: [from: string, file: string, content: unknown, event: string][] = [
  [
    'claude',
    'settings.json',
    {
      hooks: {
        UserPromptSubmit: [{ hooks: [command('echo context-hook')] }],
        Stop: [{ hooks: [command('echo stop-hook')] }],
      },
    },
    'UserPromptSubmit',
  ],
  [
    'codex',
    'hooks.json',
    {
      hooks: {
        PostToolUse: [{ matcher: 'Bash', hooks: [command('echo context-hook')] }],
        Stop: [{ hooks: [command('echo stop-hook')] }],
      },
    },
    'PostToolUse',
  ],
  [
    'gemini',
    'settings.json',
    {
      hooks: {
        BeforeAgent: [{ hooks: [command('echo context-hook')] }],
        AfterAgent: [{ hooks: [command('echo stop-hook')] }],
      },
    },
    'UserPromptSubmit',
  ],
  [
    'cursor',
    'hooks.json',
    {
      version: 1,
      hooks: {
        sessionStart: [{ command: 'echo context-hook' }],
        stop: [{ command: 'echo stop-hook' }],
      },
    },
    'SessionStart',
  ],
  [
    'copilot',
    'hooks.json',
    {
      version: 1,
      hooks: {
        postToolUse: [{ type: 'command', bash: 'echo context-hook' }],
        agentStop: [{ type: 'command', bash: 'echo stop-hook' }],
      },
    },
    'PostToolUse',
  ],
];

describe('soong-agent hooks import: context notes', () => {
  it.each(SOURCES)(
    '--from %s names the hook that can add context and prints the deliver_context line once',
    async (from, name, content, event) => {
      const made = makeWorkspace();
      const file = path.join(made.root, name);
      fs.writeFileSync(file, JSON.stringify(content));
      const result = await runCli(
        ['hooks', 'import', '--from', from, file, '--home', made.home, '--project', made.project],
        { env: made.env },
      );
      expect(result.code, result.stderr).toBe(0);
      const hooks = JSON.parse(result.stdout).hooks as Record<
        string,
        { hooks: Record<string, unknown>[] }[]
      >;
      // Named after its script when it has one, else shown by its command.
      const converted = hooks[event]?.[0]?.hooks[0] as { name?: string; command?: string };
      const contextHook = converted.name ?? JSON.stringify(converted.command);
      expect(converted.command).toBe('echo context-hook');
      const notes = result.stderr
        .split('note ')
        .filter((note) => note.includes('add context for the model'));
      expect(notes).toHaveLength(1);
      expect(result.stderr).toContain(
        `note 1 converted hook can add context for the model: ${contextHook} (${event}). Here that context is dropped (with a warning in the event log) unless config.toml in the agent home has:\n${LINES}`,
      );
      expect(result.stderr.split('deliver_context = true')).toHaveLength(2);
    },
    TIMEOUT,
  );
});
