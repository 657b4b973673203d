import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { readEventLog } from '@soong-agent/loop-adapter';
import type { EventRecord } from '@soong-agent/protocol';
import { generateText, type ModelMessage, stepCountIs, streamText, tool } from 'ai';
import { convertArrayToReadableStream, MockLanguageModelV3 } from 'ai/test';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createHookSession, type HookSession } from './index.js';

const TIMEOUT = 120_000;
const roots: string[] = [];
const sessions: HookSession[] = [];
afterEach(async () => {
  for (const session of sessions.splice(0)) await session.close();
  for (const root of roots.splice(0)) fs.rmSync(root, { recursive: true, force: true });
});

/** A project dir and an agent home with the given hooks.json `hooks`. */
function setup(hooks: Record<string, unknown>, configToml = '') {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'soong-ai-sdk-'));
  roots.push(root);
  const home = path.join(root, 'home');
  const projectDir = path.join(root, 'project');
  fs.mkdirSync(home, { mode: 0o700 });
  fs.mkdirSync(projectDir);
  fs.writeFileSync(path.join(home, 'hooks.json'), JSON.stringify({ version: 1, hooks }), {
    mode: 0o600,
  });
  if (configToml !== '')
    fs.writeFileSync(path.join(home, 'config.toml'), configToml, { mode: 0o600 });
  return { root, home, projectDir };
}

const DENY_SECRET = {
  matcher: { path_prefix: 'secret' },
  hooks: [
    {
      name: 'guard',
      type: 'command',
      command: `echo '{"decision":"deny","reason":"secret path"}'`,
    },
  ],
};

const USAGE = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};

type Call = [name: string, input: Record<string, unknown>];

function toolCallsResult(calls: Call[]) {
  return {
    content: calls.map(([toolName, input], index) => ({
      type: 'tool-call' as const,
      toolCallId: `call_${index + 1}`,
      toolName,
      input: JSON.stringify(input),
    })),
    finishReason: { unified: 'tool-calls' as const, raw: undefined },
    usage: USAGE,
    warnings: [],
  };
}

function textResult(text: string) {
  return {
    content: [{ type: 'text' as const, text }],
    finishReason: { unified: 'stop' as const, raw: undefined },
    usage: USAGE,
    warnings: [],
  };
}

/** Tools that log when they start and end (a short pause in between exposes any overlap). */
function fileTools(log: string[], output: (file: string) => string = (file) => `done ${file}`) {
  const make = (name: string) =>
    tool({
      description: name,
      inputSchema: z.object({ path: z.string() }),
      execute: async ({ path: file }) => {
        log.push(`start ${name} ${file}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
        log.push(`end ${name} ${file}`);
        return output(file);
      },
    });
  return { read_file: make('read_file'), write_file: make('write_file') };
}

const PATHS = { read_file: pathOf, write_file: pathOf };
function pathOf(input: unknown): string[] {
  return [(input as { path: string }).path];
}

/** The tool results the model received in a request, by call id. */
function toolResultsIn(prompt: ModelMessage[] | { role: string; content: unknown }[]) {
  const results: Record<string, { type: string; value: unknown }> = {};
  for (const message of prompt) {
    if (message.role !== 'tool' || !Array.isArray(message.content)) continue;
    for (const part of message.content as {
      type: string;
      toolCallId: string;
      output: { type: string; value: unknown };
    }[]) {
      if (part.type === 'tool-result') results[part.toolCallId] = part.output;
    }
  }
  return results;
}

function records(session: HookSession): EventRecord[] {
  return readEventLog(session.eventLog).records;
}

describe('createHookSession', () => {
  it(
    'gives the model an error result and never runs execute when a PreToolUse hook denies the call',
    async () => {
      const { home, projectDir } = setup({ PreToolUse: [DENY_SECRET] });
      const hooks = await createHookSession({ projectDir, home, paths: PATHS });
      sessions.push(hooks);
      const log: string[] = [];
      const model = new MockLanguageModelV3({
        doGenerate: [
          toolCallsResult([['write_file', { path: 'secret/key.txt' }]]),
          textResult('I could not write it.'),
        ],
      });
      const result = await generateText({
        model,
        tools: hooks.wrapTools(fileTools(log)),
        prompt: 'write the key',
        stopWhen: stepCountIs(5),
      });
      expect(result.text).toBe('I could not write it.');
      expect(log).toEqual([]);
      const second = model.doGenerateCalls[1];
      expect(second).toBeDefined();
      const seen = toolResultsIn(second?.prompt ?? []);
      expect(seen.call_1).toEqual({
        type: 'error-text',
        value: 'denied by hook guard: secret path',
      });
      await hooks.close();
      const types = records(hooks).map((record) => record.type);
      expect(types).toEqual([
        'session_started',
        'config_loaded',
        'tool_started',
        'hook_started',
        'hook_finished',
        'hook_denied',
        'tool_denied',
      ]);
    },
    TIMEOUT,
  );

  it(
    'runs a later readonly call after a readonly deny and skips a write call when the step continues',
    async () => {
      const { home, projectDir } = setup({ PreToolUse: [DENY_SECRET] });
      const hooks = await createHookSession({
        projectDir,
        home,
        paths: PATHS,
        risk: { read_file: 'readonly', write_file: 'write' },
      });
      sessions.push(hooks);
      const log: string[] = [];
      const model = new MockLanguageModelV3({
        doGenerate: [
          toolCallsResult([
            ['read_file', { path: 'secret/a.txt' }],
            ['read_file', { path: 'src/b.txt' }],
            ['read_file', { path: 'src/c.txt' }],
            ['write_file', { path: 'src/d.txt' }],
          ]),
          textResult('done'),
        ],
      });
      await generateText({
        model,
        tools: hooks.wrapTools(fileTools(log)),
        prompt: 'go',
        stopWhen: stepCountIs(5),
      });
      // The SDK starts all calls together; they ran one after another, in the model's order.
      expect(log).toEqual([
        'start read_file src/b.txt',
        'end read_file src/b.txt',
        'start read_file src/c.txt',
        'end read_file src/c.txt',
      ]);
      const seen = toolResultsIn(model.doGenerateCalls[1]?.prompt ?? []);
      expect(seen).toEqual({
        call_1: { type: 'error-text', value: 'denied by hook guard: secret path' },
        call_2: { type: 'text', value: 'done src/b.txt' },
        call_3: { type: 'text', value: 'done src/c.txt' },
        call_4: {
          type: 'error-text',
          value: 'not executed: an earlier tool call in this turn was denied',
        },
      });
      await hooks.close();
      const skipped = records(hooks).filter((record) => record.type === 'tool_skipped');
      expect(skipped).toMatchObject([{ call_id: 'call_4', denied_call_id: 'call_1' }]);
    },
    TIMEOUT,
  );

  it(
    'skips every later call of the step, readonly ones too, when a write call is denied',
    async () => {
      const { home, projectDir } = setup({ PreToolUse: [DENY_SECRET] });
      const hooks = await createHookSession({
        projectDir,
        home,
        paths: PATHS,
        risk: { read_file: 'readonly', write_file: 'write' },
      });
      sessions.push(hooks);
      const log: string[] = [];
      const model = new MockLanguageModelV3({
        doGenerate: [
          toolCallsResult([
            ['write_file', { path: 'secret/a.txt' }],
            ['write_file', { path: 'src/b.txt' }],
            ['read_file', { path: 'src/c.txt' }],
          ]),
          // The next step is a new batch: the write runs.
          {
            ...toolCallsResult([['write_file', { path: 'src/e.txt' }]]),
            content: [
              {
                type: 'tool-call' as const,
                toolCallId: 'call_9',
                toolName: 'write_file',
                input: JSON.stringify({ path: 'src/e.txt' }),
              },
            ],
          },
          textResult('done'),
        ],
      });
      await generateText({
        model,
        tools: hooks.wrapTools(fileTools(log)),
        prompt: 'go',
        stopWhen: stepCountIs(5),
      });
      expect(log).toEqual(['start write_file src/e.txt', 'end write_file src/e.txt']);
      const seen = toolResultsIn(model.doGenerateCalls[1]?.prompt ?? []);
      expect(Object.values(seen).map((output) => output.type)).toEqual([
        'error-text',
        'error-text',
        'error-text',
      ]);
    },
    TIMEOUT,
  );

  it(
    'passes PostToolUse an artifact ref and the model the whole result when the result is large',
    async () => {
      const { root, home, projectDir } = setup({});
      const capture = path.join(root, 'post.json');
      fs.writeFileSync(
        path.join(home, 'hooks.json'),
        JSON.stringify({
          version: 1,
          hooks: { PostToolUse: [{ hooks: [{ type: 'command', command: `cat > '${capture}'` }] }] },
        }),
        { mode: 0o600 },
      );
      const hooks = await createHookSession({ projectDir, home, paths: PATHS });
      sessions.push(hooks);
      const big = 'x'.repeat(100_000);
      const model = new MockLanguageModelV3({
        doGenerate: [toolCallsResult([['read_file', { path: 'big.txt' }]]), textResult('ok')],
      });
      await generateText({
        model,
        tools: hooks.wrapTools(fileTools([], () => big)),
        prompt: 'read',
        stopWhen: stepCountIs(5),
      });
      const input = JSON.parse(fs.readFileSync(capture, 'utf8'));
      expect(input.event).toBe('PostToolUse');
      expect(input.tool).toMatchObject({ name: 'read_file', call_id: 'call_1', risk: 'dangerous' });
      expect(input.result).toMatchObject({ is_error: false, bytes: 100_000 });
      expect(input.result.content).toBeUndefined();
      expect(fs.readFileSync(input.result.artifact_ref.path, 'utf8')).toBe(big);
      expect(toolResultsIn(model.doGenerateCalls[1]?.prompt ?? []).call_1).toEqual({
        type: 'text',
        value: big,
      });
    },
    TIMEOUT,
  );

  it(
    'makes the app call the model once more with the reason when a Stop hook denies the first stop',
    async () => {
      const stopHook = `input=$(cat); case "$input" in *'"stop_hook_active":false'*) echo '{"decision":"deny","reason":"run the tests"}';; esac`;
      const { home, projectDir } = setup({
        Stop: [{ hooks: [{ name: 'tests', type: 'command', command: stopHook }] }],
      });
      const hooks = await createHookSession({ projectDir, home });
      sessions.push(hooks);
      const model = new MockLanguageModelV3({
        doGenerate: [textResult('All done.'), textResult('Tests pass, done.')],
      });
      const messages: ModelMessage[] = [{ role: 'user', content: 'fix the bug' }];
      await hooks.userPrompt('fix the bug');
      const stops = [];
      for (let turn = 0; turn < 5; turn++) {
        const result = await generateText({ model, messages });
        messages.push(...result.response.messages);
        const stop = await hooks.stop(result.text);
        stops.push(stop.continue);
        if (!stop.continue) break;
        expect(stop.message.role).toBe('user');
        messages.push(stop.message);
      }
      expect(stops).toEqual([true, false]);
      expect(model.doGenerateCalls).toHaveLength(2);
      const lastSent = model.doGenerateCalls[1]?.prompt.at(-1);
      expect(lastSent?.role).toBe('user');
      expect(JSON.stringify(lastSent?.content)).toContain('run the tests');
      await hooks.close();
      const types = records(hooks).map((record) => record.type);
      expect(types).toContain('user_prompt_submitted');
      expect(types.filter((type) => type === 'stop_hook_prevented')).toHaveLength(1);
      expect(types.at(-1)).toBe('loop_ended');
    },
    TIMEOUT,
  );

  it(
    'denies the call in a streamText loop when a PreToolUse hook denies it',
    async () => {
      const { home, projectDir } = setup({ PreToolUse: [DENY_SECRET] });
      const hooks = await createHookSession({ projectDir, home, paths: PATHS });
      sessions.push(hooks);
      const log: string[] = [];
      const finish = (unified: 'tool-calls' | 'stop') => ({
        type: 'finish' as const,
        finishReason: { unified, raw: undefined },
        usage: USAGE,
      });
      const model = new MockLanguageModelV3({
        doStream: [
          {
            stream: convertArrayToReadableStream([
              { type: 'stream-start' as const, warnings: [] },
              {
                type: 'tool-call' as const,
                toolCallId: 'call_1',
                toolName: 'write_file',
                input: JSON.stringify({ path: 'secret/x' }),
              },
              {
                type: 'tool-call' as const,
                toolCallId: 'call_2',
                toolName: 'read_file',
                input: JSON.stringify({ path: 'src/y' }),
              },
              finish('tool-calls'),
            ]),
          },
          {
            stream: convertArrayToReadableStream([
              { type: 'stream-start' as const, warnings: [] },
              { type: 'text-start' as const, id: 't1' },
              { type: 'text-delta' as const, id: 't1', delta: 'ok' },
              { type: 'text-end' as const, id: 't1' },
              finish('stop'),
            ]),
          },
        ],
      });
      const result = streamText({
        model,
        tools: hooks.wrapTools(fileTools(log)),
        prompt: 'go',
        stopWhen: stepCountIs(5),
      });
      expect(await result.text).toBe('ok');
      expect(log).toEqual([]);
      const seen = toolResultsIn(model.doStreamCalls[1]?.prompt ?? []);
      expect(seen).toEqual({
        call_1: { type: 'error-text', value: 'denied by hook guard: secret path' },
        call_2: {
          type: 'error-text',
          value: 'not executed: an earlier tool call in this turn was denied',
        },
      });
    },
    TIMEOUT,
  );

  it('rejects with the config error and records nothing when hooks.json is broken', async () => {
    const { home, projectDir } = setup({});
    fs.writeFileSync(path.join(home, 'hooks.json'), '{"version": 1, "hooks": {"PreToolUs": []}}', {
      mode: 0o600,
    });
    await expect(createHookSession({ projectDir, home })).rejects.toMatchObject({
      name: 'ConfigError',
    });
    expect(fs.existsSync(path.join(home, 'sessions'))).toBe(false);
  });

  it('rejects with INVALID_OPTIONS when a risk class is unknown', async () => {
    const { home, projectDir } = setup({});
    await expect(
      createHookSession({ projectDir, home, risk: { bash: 'scary' as 'dangerous' } }),
    ).rejects.toMatchObject({ code: 'INVALID_OPTIONS' });
  });

  it('rethrows the tool error to the SDK and records it when execute throws', async () => {
    const { home, projectDir } = setup({});
    const hooks = await createHookSession({ projectDir, home });
    sessions.push(hooks);
    const model = new MockLanguageModelV3({
      doGenerate: [toolCallsResult([['boom', {}]]), textResult('ok')],
    });
    const result = await generateText({
      model,
      tools: hooks.wrapTools({
        boom: tool({
          inputSchema: z.object({}),
          execute: async (): Promise<string> => {
            throw new Error('disk full');
          },
        }),
      }),
      prompt: 'go',
      stopWhen: stepCountIs(5),
    });
    const errors = result.steps[0]?.content.filter((part) => part.type === 'tool-error');
    expect(errors?.map((part) => (part.error as Error).message)).toEqual(['disk full']);
    await hooks.close();
    const finished = records(hooks).find((record) => record.type === 'tool_finished');
    expect(finished).toMatchObject({ is_error: true, error_text: 'tool boom failed: disk full' });
  });
});
