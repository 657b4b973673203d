import fs from 'node:fs';
import path from 'node:path';
import type { EventRecord } from '@soong-agent/protocol';
import { describe, expect, it } from 'vitest';
import { makeWorkspace, parseRecords, runCli, writeScript } from './test-helpers/cli.js';
import { modelVendors, type Vendor } from './test-helpers/model-server.js';
import {
  modelServersClosedAfterEach,
  modelWorkspace,
  runPrompt,
} from './test-helpers/model-workspace.js';

// spec §13.1 end to end: real hook scripts add context; the next model request carries it as a
// user message (never a system message), and the tool result is what the tool returned.
const TIMEOUT = 120_000;
const startServer = modelServersClosedAfterEach();

const SESSION_CONTEXT = 'Project notes: use pnpm, never npm.';
const PROMPT_CONTEXT = 'Current branch: feature/context.';
const POST_CONTEXT = 'lint: notes.txt has 2 trailing spaces';

// Real scripts in the agent home: they read their stdin (as hooks must) and print their answer.
const HOOK_SCRIPTS: Record<string, string> = {
  // Claude Code: plain stdout of a SessionStart hook is context.
  'hooks/session.sh': `#!/bin/sh\ncat >/dev/null\necho '${SESSION_CONTEXT}'\n`,
  // soong: the output field context.
  'hooks/prompt.sh': `#!/bin/sh\ncat >/dev/null\nprintf '%s\\n' '{"decision":"allow","context":"${PROMPT_CONTEXT}"}'\n`,
  // Claude Code: hookSpecificOutput.additionalContext after a tool ran.
  'hooks/post.sh': `#!/bin/sh\ncat >/dev/null\nprintf '%s\\n' '{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"${POST_CONTEXT}"}}'\n`,
};

function hooksJson(home: string): string {
  const hook = (name: string, protocol?: string) => ({
    hooks: [
      {
        type: 'command',
        command: path.join(home, 'hooks', name),
        name: name.replace('.sh', ''),
        ...(protocol === undefined ? {} : { protocol }),
      },
    ],
  });
  return JSON.stringify({
    version: 1,
    hooks: {
      SessionStart: [hook('session.sh', 'claude-code')],
      UserPromptSubmit: [hook('prompt.sh')],
      PostToolUse: [{ matcher: { tool: 'read_file' }, ...hook('post.sh', 'claude-code') }],
    },
  });
}

function installHooks(home: string): void {
  for (const [relative, content] of Object.entries(HOOK_SCRIPTS)) {
    const file = path.join(home, relative);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, content, { mode: 0o700 });
  }
  fs.writeFileSync(path.join(home, 'hooks.json'), hooksJson(home), { mode: 0o600 });
}

/** `soong-agent run PROMPT --model scripted:SCRIPT --yes [--json]` in the workspace. */
function runScripted(
  workspace: ReturnType<typeof makeWorkspace>,
  prompt: string,
  script: string,
  options: { json?: boolean } = {},
) {
  return runCli(
    [
      'run',
      prompt,
      '--model',
      `scripted:${script}`,
      '--yes',
      ...(options.json === false ? [] : ['--json']),
      '--home',
      workspace.home,
      '--project',
      workspace.project,
    ],
    { env: workspace.env },
  );
}

const added = (records: readonly EventRecord[]) =>
  records.flatMap((record) =>
    record.type === 'hook_context_added' ? [[record.event, record.hook_id, record.bytes]] : [],
  );

describe('soong-agent run with [hooks] deliver_context', () => {
  it(
    'gives the scripted model each context as the last user message before its next request',
    async () => {
      const workspace = makeWorkspace({
        home: { 'config.toml': '[hooks]\ndeliver_context = true\n' },
        project: { 'notes.txt': 'hello  \n' },
      });
      installHooks(workspace.home);
      // An unmet `expect` ends the run with exit 1 and says what the model was sent.
      const script = writeScript(workspace.root, [
        {
          text: 'reading',
          tool_calls: [{ name: 'read_file', input: { path: 'notes.txt' } }],
          expect: { last_user_message_contains: `added context:\n\n${PROMPT_CONTEXT}` },
        },
        { text: 'done', expect: { last_user_message_contains: POST_CONTEXT } },
      ]);
      const result = await runScripted(workspace, 'tidy notes', script);
      expect(result.code, result.stderr).toBe(0);
      const records = parseRecords(result.stdout);
      expect(added(records)).toEqual([
        ['SessionStart', 'session', Buffer.byteLength(SESSION_CONTEXT)],
        ['UserPromptSubmit', 'prompt', Buffer.byteLength(PROMPT_CONTEXT)],
        ['PostToolUse', 'post', Buffer.byteLength(POST_CONTEXT)],
      ]);
      // The context of PostToolUse is recorded after its tool's result, before the next turn.
      const types = records.map((record) => record.type);
      expect(types.lastIndexOf('hook_context_added')).toBeGreaterThan(
        types.indexOf('tool_finished'),
      );
      expect(types.lastIndexOf('hook_context_added')).toBeLessThan(types.lastIndexOf('model_turn'));
    },
    TIMEOUT,
  );

  it(
    'sends the model nothing from hooks and warns once per run when delivery is off',
    async () => {
      const workspace = makeWorkspace({ project: { 'notes.txt': 'hello\n' } });
      installHooks(workspace.home);
      const script = writeScript(workspace.root, [
        {
          text: 'reading',
          tool_calls: [{ name: 'read_file', input: { path: 'notes.txt' } }],
          expect: { last_user_message_contains: 'tidy notes' },
        },
        { text: 'done', expect: { last_user_message_contains: 'tidy notes' } },
      ]);
      const result = await runScripted(workspace, 'tidy notes', script);
      expect(result.code, result.stderr).toBe(0);
      const records = parseRecords(result.stdout);
      expect(added(records)).toEqual([]);
      const dropped = records.flatMap((record) =>
        record.type === 'hook_log' && record.message.includes('deliver_context = true')
          ? [record.hook_id]
          : [],
      );
      expect(dropped).toEqual(['session', 'prompt', 'post']);
    },
    TIMEOUT,
  );

  it(
    'shows hook_context_added in the timeline and in soong-agent events',
    async () => {
      const workspace = makeWorkspace({
        home: { 'config.toml': '[hooks]\ndeliver_context = true\n' },
      });
      installHooks(workspace.home);
      const script = writeScript(workspace.root, [{ text: 'ok' }]);
      const args = ['--home', workspace.home, '--project', workspace.project];
      const run = await runScripted(workspace, 'hi', script, { json: false });
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr).toContain(`context from session (SessionStart)`);
      expect(run.stderr).toContain(`context from prompt (UserPromptSubmit)`);
      const events = await runCli(['events', ...args], { env: workspace.env });
      expect(events.code, events.stderr).toBe(0);
      expect(events.stdout).toContain(
        `context from session (SessionStart) 35 B “${SESSION_CONTEXT}”`,
      );
    },
    TIMEOUT,
  );
});

describe('soong-agent hooks test with a hook that adds context', () => {
  it(
    'prints the context and says whether it would be delivered',
    async () => {
      for (const on of [true, false]) {
        const workspace = makeWorkspace({
          home: on ? { 'config.toml': '[hooks]\ndeliver_context = true\n' } : {},
        });
        installHooks(workspace.home);
        const result = await runCli(
          ['hooks', 'test', 'UserPromptSubmit', '--prompt', 'hi'].concat([
            '--home',
            workspace.home,
            '--project',
            workspace.project,
          ]),
          { env: workspace.env },
        );
        expect(result.code, result.stderr).toBe(0);
        const out = result.stdout + result.stderr;
        expect(out).toContain(`  context: ${PROMPT_CONTEXT}`);
        expect(out.includes('deliver_context = true')).toBe(!on);
      }
    },
    TIMEOUT,
  );
});

describe.each(modelVendors)(
  'soong-agent run with deliver_context against a $name server',
  (vendor: Vendor) => {
    it(
      'sends each context in the next request as user text, after the prompt and after the tool result',
      async () => {
        const server = await startServer([
          {
            frames: vendor.frames({
              text: 'reading',
              toolCalls: [{ id: 'toolu_1', name: 'read_file', input: { path: 'notes.txt' } }],
            }),
          },
          { frames: vendor.frames({ text: 'done' }) },
        ]);
        const workspace = modelWorkspace(vendor, server.url, {
          config: ['[hooks]', 'deliver_context = true'],
          project: { 'notes.txt': 'hello  \n' },
        });
        installHooks(workspace.home);
        const result = await runPrompt(workspace, { prompt: 'tidy notes' });
        expect(result.code, result.stderr).toBe(0);
        expect(server.requests).toHaveLength(2);
        const [first, second] = server.requests.map((request) => userTexts(vendor, request.body));
        expect(first).toEqual([
          `SessionStart hook "session" added context:\n\n${SESSION_CONTEXT}`,
          'tidy notes',
          `UserPromptSubmit hook "prompt" added context:\n\n${PROMPT_CONTEXT}`,
        ]);
        expect(second?.at(-1)).toBe(`PostToolUse hook "post" added context:\n\n${POST_CONTEXT}`);
        // The tool result is the file as read; the context comes after it, never inside it.
        const body = server.requests[1]?.body;
        expect(vendor.toolResults(body).map((tool) => tool.content)).toEqual(['hello  \n']);
        expect(afterToolResult(vendor, body)).toBe(true);
        // Never a system message.
        for (const request of server.requests) {
          expect(vendor.system(request.body) ?? '').not.toContain('added context');
        }
      },
      TIMEOUT,
    );
  },
);

/** The text of every user-role text message (or text block) of a request, in order. */
function userTexts(vendor: Vendor, body: unknown): string[] {
  const messages = (body as { messages: { role: string; content: unknown }[] }).messages;
  if (vendor.name === 'openai') {
    return messages.flatMap((message) =>
      message.role === 'user' && typeof message.content === 'string' ? [message.content] : [],
    );
  }
  return messages.flatMap((message) =>
    message.role !== 'user' || !Array.isArray(message.content)
      ? []
      : (message.content as { type: string; text?: string }[])
          .filter((block) => block.type === 'text')
          .map((block) => block.text as string),
  );
}

/** True when the last context text comes after the tool result in the request. */
function afterToolResult(vendor: Vendor, body: unknown): boolean {
  const messages = (body as { messages: { role: string; content: unknown }[] }).messages;
  if (vendor.name === 'openai') {
    const tool = messages.findIndex((message) => message.role === 'tool');
    const context = messages.findLastIndex(
      (message) => message.role === 'user' && String(message.content).includes('added context'),
    );
    return tool >= 0 && context > tool;
  }
  const last = messages.at(-1) as { role: string; content: { type: string }[] };
  const types = last.content.map((block) => block.type);
  return last.role === 'user' && types.indexOf('tool_result') >= 0 && types.at(-1) === 'text';
}
