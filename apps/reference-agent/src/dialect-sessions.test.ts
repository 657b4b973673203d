import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { getDialect } from '@soong-agent/dialects';
import type { EventRecord } from '@soong-agent/protocol';
import { describe, expect, it } from 'vitest';
import { makeWorkspace, parseRecords, runCli, writeScript } from './test-helpers/cli.js';

const TIMEOUT = 180_000;
const FIXTURES = fileURLToPath(new URL('./__fixtures__/dialect-hooks/', import.meta.url));
// The interpreter itself, not a version-manager shim that needs the real HOME.
const PYTHON = execFileSync('python3', ['-c', 'import sys; print(sys.executable)'])
  .toString()
  .trim();

type Agent = 'codex' | 'gemini' | 'cursor' | 'copilot';

/**
 * The same three guards written for each agent, in its own dialect (fixtures/<agent>/): a bash + jq
 * script blocking `rm -rf`, a Python script protecting `.env`, a Node stop gate that keeps the agent
 * going until a TESTS_PASS file exists. Each agent's own config file names them.
 */
function nativeConfig(agent: Agent): { file: string; text: string } {
  const dir = path.join(FIXTURES, agent);
  const block = path.join(dir, 'block-rm.sh');
  const protect = `${PYTHON} ${path.join(dir, 'protect-env.py')}`;
  const gate = `node ${path.join(dir, 'stop-gate.mjs')}`;
  const command = (text: string) => ({ type: 'command', command: text });
  switch (agent) {
    case 'codex':
      return {
        file: '.codex/hooks.json',
        text: JSON.stringify({
          hooks: {
            PreToolUse: [
              { matcher: 'Bash', hooks: [command(block)] },
              { matcher: 'apply_patch', hooks: [command(protect)] },
            ],
            Stop: [{ hooks: [command(gate)] }],
          },
        }),
      };
    case 'gemini':
      return {
        file: '.gemini/settings.json',
        text: JSON.stringify({
          hooks: {
            BeforeTool: [
              { matcher: 'run_shell_command', hooks: [{ ...command(block), timeout: 20000 }] },
              { matcher: 'write_file|replace', hooks: [command(protect)] },
            ],
            AfterAgent: [{ hooks: [command(gate)] }],
          },
        }),
      };
    case 'cursor':
      return {
        file: '.cursor/hooks.json',
        text: JSON.stringify({
          version: 1,
          hooks: {
            beforeShellExecution: [{ command: block }],
            preToolUse: [{ command: protect, matcher: 'Write' }],
            stop: [{ command: gate, loop_limit: 5 }],
          },
        }),
      };
    case 'copilot':
      return {
        file: '.copilot/hooks/guards.json',
        text: JSON.stringify({
          version: 1,
          hooks: {
            preToolUse: [
              { type: 'command', bash: block, matcher: 'bash' },
              { type: 'command', bash: protect, matcher: 'create|edit' },
            ],
            agentStop: [{ type: 'command', bash: gate }],
          },
        }),
      };
  }
}

const TURNS = [
  {
    text: 'Cleaning.',
    tool_calls: [{ id: 'rm', name: 'bash', input: { command: 'rm -rf build' } }],
  },
  {
    text: 'Listing.',
    tool_calls: [{ id: 'echo', name: 'bash', input: { command: 'echo hello' } }],
  },
  {
    text: 'Secrets.',
    tool_calls: [{ id: 'env', name: 'write_file', input: { path: '.env', content: 'KEY=1\n' } }],
  },
  {
    text: 'Notes.',
    tool_calls: [
      { id: 'notes', name: 'write_file', input: { path: 'notes.txt', content: 'hi\n' } },
    ],
  },
  {
    text: 'Edit.',
    tool_calls: [
      {
        id: 'edit',
        name: 'edit_file',
        input: { path: 'notes.txt', old_string: 'hi', new_string: 'ho' },
      },
    ],
  },
  { text: 'Done.' },
  {
    text: 'Testing.',
    tool_calls: [
      { id: 'tests', name: 'write_file', input: { path: 'TESTS_PASS', content: 'ok\n' } },
    ],
  },
  { text: 'Done now.' },
];

/** What the session decided, per call and per stop: the same for every agent's guards. */
function decisions(records: EventRecord[]) {
  const calls: Record<string, string> = {};
  for (const record of records) {
    if (record.type === 'tool_denied') calls[record.call_id] = `denied: ${record.reason}`;
    if (record.type === 'tool_finished') calls[record.call_id] = record.is_error ? 'error' : 'ran';
  }
  const prevented = records
    .filter((record) => record.type === 'stop_hook_prevented')
    .map((record) => (record as { reason: string }).reason);
  const ended = records.find((record) => record.type === 'loop_ended') as
    | { reason: string }
    | undefined;
  const failed = records.filter((record) => record.type === 'hook_failed');
  return { calls, prevented, ended: ended?.reason, failed };
}

async function runAgent(agent: Agent) {
  const workspace = makeWorkspace();
  const config = nativeConfig(agent);
  const file = path.join(workspace.osHome, config.file);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, config.text);
  const where = ['--home', workspace.home, '--project', workspace.project];
  const imported = await runCli(['hooks', 'import', '--from', agent, '--write', ...where], {
    env: workspace.env,
  });
  expect(imported.code, imported.stderr).toBe(0);
  const listed = await runCli(['hooks', 'list', ...where], { env: workspace.env });
  expect(listed.stdout).toContain(`protocol=${agent}`);
  const script = writeScript(workspace.root, TURNS);
  const result = await runCli(
    ['run', 'go', '--model', `scripted:${script}`, '--yes', '--json', ...where],
    {
      env: workspace.env,
    },
  );
  expect(result.code, result.stderr).toBe(0);
  const records = parseRecords(result.stdout);
  return { workspace, records, decided: decisions(records) };
}

const EXPECTED = {
  calls: {
    rm: 'denied: Blocked: rm -rf is not allowed (rm -rf build)',
    echo: 'ran',
    env: 'denied: .env is a protected file',
    notes: 'ran',
    edit: 'ran',
    tests: 'ran',
  },
  prevented: ['run the tests first'],
  ended: 'completed',
  failed: [],
};

describe("every agent's guards, unmodified, through a real session", () => {
  for (const agent of ['codex', 'gemini', 'cursor', 'copilot'] as const) {
    it(
      `${agent}: bash + jq blocks rm -rf, Python protects .env, the Node stop gate keeps the agent going once`,
      async () => {
        const { workspace, decided } = await runAgent(agent);
        // the hook's own reason reaches the model (with our "denied by hook <name>:" prefix)
        expect(decided.failed).toEqual([]);
        expect(Object.keys(decided.calls).sort()).toEqual(Object.keys(EXPECTED.calls).sort());
        for (const [id, outcome] of Object.entries(EXPECTED.calls)) {
          expect(decided.calls[id], `${agent} ${id}`).toContain(outcome.replace(/^denied: /, ''));
        }
        expect(decided.prevented).toEqual(EXPECTED.prevented);
        expect(decided.ended).toBe('completed');
        expect(fs.existsSync(path.join(workspace.project, '.env'))).toBe(false);
        expect(fs.readFileSync(path.join(workspace.project, 'notes.txt'), 'utf8')).toBe('ho\n');
      },
      TIMEOUT,
    );
  }

  it(
    'differential: the same guard written for each agent decides identically through our engine',
    async () => {
      const outcomes = await Promise.all(
        (['codex', 'gemini', 'cursor', 'copilot'] as const).map((agent) => runAgent(agent)),
      );
      const shapes = outcomes.map(({ decided }) => ({
        calls: Object.fromEntries(
          Object.entries(decided.calls).map(([id, outcome]) => [
            id,
            outcome.startsWith('denied')
              ? outcome.replace(/^denied: denied by hook [^:]+: /, 'denied: ')
              : outcome,
          ]),
        ),
        prevented: decided.prevented,
        ended: decided.ended,
      }));
      for (const shape of shapes) expect(shape).toEqual(shapes[0]);
      expect(shapes[0]).toEqual({
        calls: EXPECTED.calls,
        prevented: EXPECTED.prevented,
        ended: EXPECTED.ended,
      });
    },
    TIMEOUT,
  );
});

describe("hooks test speaks the hook's dialect", () => {
  it(
    'a Codex hook tried with --tool bash sees Bash and its deny stands (exit 3); a Copilot one sees toolArgs',
    async () => {
      for (const agent of ['codex', 'copilot'] as const) {
        const workspace = makeWorkspace();
        const config = nativeConfig(agent);
        const file = path.join(workspace.osHome, config.file);
        fs.mkdirSync(path.dirname(file), { recursive: true });
        fs.writeFileSync(file, config.text);
        const where = ['--home', workspace.home, '--project', workspace.project];
        expect(
          (
            await runCli(['hooks', 'import', '--from', agent, '--write', ...where], {
              env: workspace.env,
            })
          ).code,
        ).toBe(0);
        const test = (command: string) =>
          runCli(
            [
              'hooks',
              'test',
              'PreToolUse',
              '--tool',
              'bash',
              '--input',
              JSON.stringify({ command }),
              ...where,
            ],
            {
              env: workspace.env,
            },
          );
        const denied = await test('rm -rf build');
        expect(denied.code, `${agent}: ${denied.stdout}${denied.stderr}`).toBe(3);
        expect(denied.stdout).toContain('Blocked: rm -rf is not allowed (rm -rf build)');
        expect((await test('ls')).code).toBe(0);
      }
    },
    TIMEOUT,
  );
});

describe('docs: Coming from another agent', () => {
  it('every example converts without a refusal', () => {
    const section = fs.readFileSync(
      new URL('../../../docs/coming-from-another-agent.md', import.meta.url),
      'utf8',
    );
    const agents = {
      Codex: 'codex',
      'Gemini CLI': 'gemini',
      Cursor: 'cursor',
      'Copilot CLI': 'copilot',
    } as const;
    for (const [heading, dialect] of Object.entries(agents)) {
      const part = section.slice(section.indexOf(`### ${heading}`));
      const example = /```json\n([\s\S]*?)```/.exec(part)?.[1];
      expect(example, heading).toBeDefined();
      const converted = getDialect(dialect).convertConfig?.(example as string);
      expect(converted?.refused, heading).toEqual([]);
      expect(Object.keys(converted?.hooks.hooks ?? {}).length, heading).toBeGreaterThan(0);
    }
  });
});

describe('a content scanner of any agent sees the whole tool input', () => {
  it(
    'a key in the middle of 40 KB of padding is found by a Gemini, Codex, Cursor and Copilot scanner alike',
    async () => {
      const scanner = `grep -q AKIAABCDEFGHIJKLMNOP && { echo 'a key in the content' >&2; exit 2; } || exit 0`;
      const configs: Record<Agent, { file: string; text: string }> = {
        gemini: {
          file: '.gemini/settings.json',
          text: JSON.stringify({
            hooks: {
              BeforeTool: [
                { matcher: 'write_file', hooks: [{ type: 'command', command: scanner }] },
              ],
            },
          }),
        },
        codex: {
          file: '.codex/hooks.json',
          text: JSON.stringify({
            hooks: {
              PreToolUse: [
                { matcher: 'apply_patch', hooks: [{ type: 'command', command: scanner }] },
              ],
            },
          }),
        },
        cursor: {
          file: '.cursor/hooks.json',
          text: JSON.stringify({
            version: 1,
            hooks: { preToolUse: [{ command: scanner, matcher: 'Write' }] },
          }),
        },
        copilot: {
          file: '.copilot/hooks/scan.json',
          text: JSON.stringify({
            version: 1,
            hooks: { preToolUse: [{ type: 'command', bash: scanner, matcher: 'create' }] },
          }),
        },
      };
      const content = `${'x'.repeat(20_000)}\nAKIAABCDEFGHIJKLMNOP\n${'y'.repeat(20_000)}\n`;
      for (const [agent, config] of Object.entries(configs)) {
        const workspace = makeWorkspace();
        const file = path.join(workspace.osHome, config.file);
        fs.mkdirSync(path.dirname(file), { recursive: true });
        fs.writeFileSync(file, config.text);
        const where = ['--home', workspace.home, '--project', workspace.project];
        const imported = await runCli(['hooks', 'import', '--from', agent, '--write', ...where], {
          env: workspace.env,
        });
        expect(imported.code, imported.stderr).toBe(0);
        const tested = await runCli(
          [
            'hooks',
            'test',
            'PreToolUse',
            '--tool',
            'write_file',
            '--input',
            JSON.stringify({ path: 'config.txt', content }),
            ...where,
          ],
          { env: workspace.env },
        );
        expect(tested.code, `${agent}: ${tested.stdout}${tested.stderr}`).toBe(3);
        expect(tested.stdout).toContain('a key in the content');
      }
    },
    TIMEOUT,
  );
});
