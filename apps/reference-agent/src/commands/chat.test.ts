import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { CLI, makeWorkspace, parseRecords, runCli } from '../test-helpers/cli.js';
import { openaiVendor, startModelServer } from '../test-helpers/model-server.js';
import { CHAT_PROMPT } from './chat.js';

const PTY_CHAT = fileURLToPath(new URL('../test-helpers/pty-chat.py', import.meta.url));
const KEY = 'sk-chat-test-key-0123456789';
const CTRL_C = '\u0003';

const servers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

async function chatOnTerminal(
  steps: { wait: string; send: string }[],
  workspace: ReturnType<typeof makeWorkspace>,
  args: string[] = [],
) {
  const { stdout } = await promisify(execFile)(
    'python3',
    [
      PTY_CHAT,
      JSON.stringify(steps),
      '--',
      process.execPath,
      CLI,
      'chat',
      '--home',
      workspace.home,
      '--project',
      workspace.project,
      ...args,
    ],
    { env: { ...workspace.env, TERM: 'xterm', OPENAI_API_KEY: KEY }, maxBuffer: 16 * 1024 * 1024 },
  );
  return JSON.parse(stdout) as { code: number | null; output: string; steps: number };
}

function sessionRecords(home: string) {
  const sessions = fs.readdirSync(path.join(home, 'sessions'));
  expect(sessions).toHaveLength(1);
  const log = fs.readFileSync(
    path.join(home, 'sessions', sessions[0] ?? '', 'events.jsonl'),
    'utf8',
  );
  return parseRecords(log);
}

describe('chatAction', () => {
  it('keeps one conversation and one event log across prompts, asks inline, and returns to the prompt when Ctrl-C cancels a slow tool', async () => {
    const answer = (
      text: string,
      toolCalls: { id: string; name: string; input: unknown }[] = [],
    ) => ({
      frames: openaiVendor.frames({ text, toolCalls }),
    });
    const server = await startModelServer([
      answer('', [
        { id: 'call_w', name: 'write_file', input: { path: 'notes.txt', content: 'hi' } },
      ]),
      answer('Wrote notes.txt.'),
      answer('', [{ id: 'call_slow', name: 'bash', input: { command: 'sleep 60' } }]),
      answer('Still here.'),
    ]);
    servers.push(server);
    const workspace = makeWorkspace({
      home: {
        'config.toml': [
          '[permissions]',
          'write = "ask"',
          'dangerous = "allow"',
          '[model]',
          'provider = "openai"',
          'model = "chat-model"',
          `base_url = "${server.url}/v1"`,
        ].join('\n'),
        // Observers of the waits for the user and of the session's end (spec §2.3).
        'hooks.json': JSON.stringify({
          version: 1,
          hooks: Object.fromEntries(
            ['Notification', 'SessionEnd'].map((event) => [
              event,
              [{ hooks: [{ type: 'command', name: event, command: 'cat >/dev/null' }] }],
            ]),
          ),
        }),
      },
    });
    const result = await chatOnTerminal(
      [
        { wait: CHAT_PROMPT, send: 'write the notes\r' },
        { wait: '[y/N]', send: 'y\r' },
        { wait: CHAT_PROMPT, send: 'now the slow check\r' },
        { wait: 'running bash', send: CTRL_C },
        { wait: CHAT_PROMPT, send: 'are you there?\r' },
        { wait: CHAT_PROMPT, send: '/exit\r' },
      ],
      workspace,
    );
    expect(result.steps, result.output).toBe(6);
    expect(result.code, result.output).toBe(0);
    expect(result.output).toContain('Allow write_file notes.txt? [y/N]');
    expect(result.output).toContain('Still here.');
    expect(fs.readFileSync(path.join(workspace.project, 'notes.txt'), 'utf8')).toBe('hi');

    const records = sessionRecords(workspace.home);
    expect(records.filter((record) => record.type === 'session_started')).toHaveLength(1);
    expect(
      records.flatMap((record) => (record.type === 'user_prompt_submitted' ? [record.prompt] : [])),
    ).toEqual(['write the notes', 'now the slow check', 'are you there?']);
    expect(
      records.flatMap((record) => (record.type === 'loop_ended' ? [record.reason] : [])),
    ).toEqual(['completed', 'aborted', 'completed']);
    const slow = records.find(
      (record) => record.type === 'tool_finished' && record.call_id === 'call_slow',
    );
    expect(slow).toMatchObject({ is_error: true });
    // The permission question ran Notification once; the chat's end ran SessionEnd once, last.
    const runs = records.flatMap((record) =>
      record.type === 'hook_finished' ? [record.event] : [],
    );
    expect(runs).toEqual(['Notification', 'SessionEnd']);
    expect(records.at(-1)).toMatchObject({ type: 'hook_finished', event: 'SessionEnd' });

    // The last request carries the whole conversation, the cancelled call closed with an error.
    const last = server.requests.at(-1)?.body;
    expect(server.requests).toHaveLength(4);
    expect(
      last.messages
        .filter((message: { role: string }) => message.role === 'user')
        .map((message: { content: string }) => message.content),
    ).toEqual(['write the notes', 'now the slow check', 'are you there?']);
    expect(openaiVendor.toolResults(last).map((item) => [item.id, item.isError])).toEqual([
      ['call_w', false],
      ['call_slow', true],
    ]);
  }, 120_000);

  it('returns to the prompt with the loop aborted when Ctrl-C cancels a model call still streaming', async () => {
    const frames = openaiVendor.frames({ text: 'Thinking very slowly about it' });
    const server = await startModelServer([
      { frames: frames.slice(0, 3), hold: true },
      { frames: openaiVendor.frames({ text: 'Quick answer.' }) },
    ]);
    servers.push(server);
    const workspace = makeWorkspace({
      home: {
        'config.toml': [
          '[model]',
          'provider = "openai"',
          'model = "chat-model"',
          `base_url = "${server.url}/v1"`,
        ].join('\n'),
      },
    });
    const result = await chatOnTerminal(
      [
        { wait: CHAT_PROMPT, send: 'think\r' },
        { wait: 'Thinking', send: CTRL_C },
        { wait: CHAT_PROMPT, send: 'answer quickly\r' },
        { wait: 'Quick answer.', send: '' },
        { wait: CHAT_PROMPT, send: '/exit\r' },
      ],
      workspace,
    );
    expect(result.steps, result.output).toBe(5);
    expect(result.code, result.output).toBe(0);
    const records = sessionRecords(workspace.home);
    expect(
      records.flatMap((record) => (record.type === 'loop_ended' ? [record.reason] : [])),
    ).toEqual(['aborted', 'completed']);
    expect(records.filter((record) => record.type === 'model_turn')).toHaveLength(1);
    expect(server.requests).toHaveLength(2);
  }, 120_000);

  it('ends with exit 0 on Ctrl-D and on a second Ctrl-C at an empty prompt, without calling the model', async () => {
    const workspace = makeWorkspace();
    const script = path.join(workspace.root, 'script.json');
    fs.writeFileSync(script, JSON.stringify({ turns: [{ text: 'unused' }] }));
    const args = ['--model', `scripted:${script}`];
    const ctrlD = await chatOnTerminal([{ wait: CHAT_PROMPT, send: '\u0004' }], workspace, args);
    expect(ctrlD.code, ctrlD.output).toBe(0);
    fs.rmSync(path.join(workspace.home, 'sessions'), { recursive: true });
    const twice = await chatOnTerminal(
      [
        { wait: CHAT_PROMPT, send: 'typed but not sent' },
        { wait: 'not sent', send: CTRL_C },
        { wait: '', send: CTRL_C },
        { wait: 'Ctrl-C again', send: CTRL_C },
      ],
      workspace,
      args,
    );
    expect(twice.code, twice.output).toBe(0);
    const records = sessionRecords(workspace.home);
    expect(records.map((record) => record.type)).not.toContain('user_prompt_submitted');
    expect(records.filter((record) => record.type === 'session_started')).toHaveLength(1);
  }, 120_000);

  it('sends each prompt with the context its hooks added, SessionStart first, when deliver_context is on', async () => {
    const server = await startModelServer([
      { frames: openaiVendor.frames({ text: 'One.' }) },
      { frames: openaiVendor.frames({ text: 'Two.' }) },
    ]);
    servers.push(server);
    const context = (text: string) =>
      `cat >/dev/null; echo '${JSON.stringify({ decision: 'allow', context: text })}'`;
    const workspace = makeWorkspace({
      home: {
        'config.toml': [
          '[hooks]',
          'deliver_context = true',
          '[model]',
          'provider = "openai"',
          'model = "chat-model"',
          `base_url = "${server.url}/v1"`,
        ].join('\n'),
        'hooks.json': JSON.stringify({
          version: 1,
          hooks: {
            SessionStart: [{ hooks: [{ type: 'command', name: 'start', command: context('S') }] }],
            UserPromptSubmit: [
              { hooks: [{ type: 'command', name: 'prompt', command: context('P') }] },
            ],
          },
        }),
      },
    });
    const result = await chatOnTerminal(
      [
        { wait: CHAT_PROMPT, send: 'first\r' },
        { wait: CHAT_PROMPT, send: 'second\r' },
        { wait: CHAT_PROMPT, send: '/exit\r' },
      ],
      workspace,
    );
    expect(result.code, result.output).toBe(0);
    const users = (index: number) =>
      ((server.requests[index]?.body.messages ?? []) as { role: string; content: string }[])
        .filter((message) => message.role === 'user')
        .map((message) => message.content);
    const start = 'SessionStart hook "start" added context:\n\nS';
    const prompt = 'UserPromptSubmit hook "prompt" added context:\n\nP';
    expect(users(0)).toEqual([start, 'first', prompt]);
    // SessionStart's is given once; each prompt brings its own.
    expect(users(1)).toEqual([start, 'first', prompt, 'second', prompt]);
  }, 120_000);

  it('exits 2 and points to run when there is no terminal', async () => {
    const workspace = makeWorkspace();
    const result = await runCli(
      ['chat', '--home', workspace.home, '--project', workspace.project],
      {
        env: workspace.env,
      },
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('soong-agent run');
    expect(fs.existsSync(path.join(workspace.home, 'sessions'))).toBe(false);
  }, 60_000);
});
