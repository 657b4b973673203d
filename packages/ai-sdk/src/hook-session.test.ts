import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { readEventLog } from '@soong-agent/loop-adapter';
import type { EventRecord } from '@soong-agent/protocol';
import { eventually, quietPeriod } from '@soong-agent/test-utils';
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
function setup(
  hooksOf: Record<string, unknown> | ((root: string) => Record<string, unknown>),
  configToml = '',
) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'soong-ai-sdk-'));
  const hooks = typeof hooksOf === 'function' ? hooksOf(root) : hooksOf;
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
        // The tool's own work, not a wait for something: long enough for parallel calls to overlap.
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

  it(
    "honours generateText's abortSignal: the running hook is killed and the tool never runs",
    async () => {
      const { root, home, projectDir } = setup((root) => ({
        PreToolUse: [
          {
            hooks: [
              {
                name: 'slow',
                type: 'command',
                command: `touch '${path.join(root, 'hook-started')}'; exec sleep 60`,
                timeout: 120,
              },
            ],
          },
        ],
      }));
      const hooks = await createHookSession({ projectDir, home });
      sessions.push(hooks);
      const log: string[] = [];
      const controller = new AbortController();
      const model = new MockLanguageModelV3({
        doGenerate: [toolCallsResult([['write_file', { path: 'a.txt' }]]), textResult('done')],
      });
      const started = performance.now();
      const run = generateText({
        model,
        tools: hooks.wrapTools(fileTools(log)),
        prompt: 'write it',
        stopWhen: stepCountIs(5),
        abortSignal: controller.signal,
      });
      await eventually(() => fs.existsSync(path.join(root, 'hook-started')));
      controller.abort(new Error('user cancelled'));
      await run.catch(() => undefined);
      await hooks.close();
      // Well before the hook's 60 s sleep or its timeout: the abort killed it.
      expect(performance.now() - started).toBeLessThan(30_000);
      expect(log).toEqual([]);
      const all = records(hooks);
      expect(all.find((record) => record.type === 'hook_failed')).toMatchObject({
        hook_id: 'slow',
        failure: 'aborted',
      });
      expect(all.find((record) => record.type === 'tool_finished')).toMatchObject({
        is_error: true,
        error_text: 'aborted',
      });
    },
    TIMEOUT,
  );

  it(
    "a claude-code hook reads transcript_path in an AI SDK app, and sees an app's bash { cmd } as Bash with command",
    async () => {
      const { root, home, projectDir } = setup((root) => ({
        PreToolUse: [
          {
            hooks: [
              {
                name: 'cc-guard',
                type: 'command',
                command: `node '${path.join(root, 'guard.cjs')}'`,
                protocol: 'claude-code',
              },
            ],
          },
        ],
      }));
      // A Claude Code guard that blocks unless the transcript exists and shows this very call.
      const guard = path.join(root, 'guard.cjs');
      fs.writeFileSync(
        guard,
        `const fs = require('node:fs');
let raw = '';
process.stdin.on('data', (chunk) => { raw += chunk; });
process.stdin.on('end', () => {
  const input = JSON.parse(raw);
  fs.appendFileSync(${JSON.stringify(path.join(root, 'seen.jsonl'))}, raw);
  let lines;
  try { lines = fs.readFileSync(input.transcript_path, 'utf8').trim().split('\\n').map((l) => JSON.parse(l)); }
  catch (error) { process.stderr.write('no transcript: ' + error.message); process.exit(2); }
  const prompt = lines.some((l) => l.type === 'user' && l.message.content === 'list the files');
  const used = lines.some((l) => l.type === 'assistant' && l.message.content.some((b) => b.type === 'tool_use' && b.id === input.tool_use_id && b.name === 'Bash' && b.input.command === 'ls'));
  if (prompt && used) process.exit(0);
  process.stderr.write('transcript does not show the call');
  process.exit(2);
});
`,
      );
      const hooks = await createHookSession({
        projectDir,
        home,
        dialectInput: { bash: (input) => ({ command: (input as { cmd: string }).cmd }) },
      });
      sessions.push(hooks);
      const ran: string[] = [];
      const model = new MockLanguageModelV3({
        doGenerate: [toolCallsResult([['bash', { cmd: 'ls' }]]), textResult('listed')],
      });
      await hooks.userPrompt('list the files');
      const result = await generateText({
        model,
        tools: hooks.wrapTools({
          bash: tool({
            inputSchema: z.object({ cmd: z.string() }),
            execute: async ({ cmd }) => {
              ran.push(cmd);
              return 'a.txt';
            },
          }),
        }),
        prompt: 'list the files',
        stopWhen: stepCountIs(5),
      });
      expect(result.text).toBe('listed');
      expect(ran).toEqual(['ls']);
      const seen = JSON.parse(fs.readFileSync(path.join(root, 'seen.jsonl'), 'utf8'));
      expect([seen.tool_name, seen.tool_input]).toEqual(['Bash', { command: 'ls' }]);
      expect(fs.existsSync(seen.transcript_path)).toBe(true);
      await hooks.close();
      expect(records(hooks).filter((record) => record.type === 'hook_finished')).toHaveLength(1);
    },
    TIMEOUT,
  );

  it(
    'close() waits for a running call, closes its records, then runs SessionEnd once',
    async () => {
      const { root, home, projectDir } = setup((root) => ({
        SessionEnd: [
          {
            hooks: [
              {
                name: 'end',
                type: 'command',
                command: `cat >> '${path.join(root, 'end.jsonl')}'; echo >> '${path.join(root, 'end.jsonl')}'`,
              },
            ],
          },
        ],
      }));
      const hooks = await createHookSession({ projectDir, home });
      let release: () => void = () => undefined;
      const gate = new Promise<void>((resolve) => {
        release = resolve;
      });
      let entered: () => void = () => undefined;
      const inTool = new Promise<void>((resolve) => {
        entered = resolve;
      });
      const model = new MockLanguageModelV3({
        doGenerate: [toolCallsResult([['slow', {}]]), textResult('ok')],
      });
      const run = generateText({
        model,
        tools: hooks.wrapTools({
          slow: tool({
            inputSchema: z.object({}),
            execute: async () => {
              entered();
              await gate;
              return 'finished';
            },
          }),
        }),
        prompt: 'go',
        stopWhen: stepCountIs(5),
      });
      await inTool;
      let closedEarly = false;
      const closing = hooks.close().then(() => {
        closedEarly = !released;
      });
      let released = false;
      // A bounded window in which close() must NOT finish while the tool still runs.
      await quietPeriod(50);
      released = true;
      release();
      await Promise.all([closing, hooks.close(), run.catch(() => undefined)]);
      expect(closedEarly).toBe(false);
      const types = records(hooks).map((record) => record.type);
      expect(types.slice(2)).toEqual([
        'tool_started',
        'tool_finished',
        'hook_started',
        'hook_finished',
      ]);
      const ends = fs.readFileSync(path.join(root, 'end.jsonl'), 'utf8').trim().split('\n');
      expect(ends.map((line) => JSON.parse(line).reason)).toEqual(['completed']);
    },
    TIMEOUT,
  );

  it(
    "keeps the app's secrets out of /proc/$PPID/environ: a hook reading its ancestors' environment finds none",
    async () => {
      // The app runs as its own process on the built package: build it from these sources first.
      const packageDir = path.join(import.meta.dirname, '..');
      const tsc = path.join(
        path.dirname(createRequire(import.meta.url).resolve('typescript/package.json')),
        'bin',
        'tsc',
      );
      execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: packageDir });
      const distIndex = path.join(packageDir, 'dist', 'index.js');
      const found: Record<string, string> = {};
      for (const protect of [true, false]) {
        const { root, home, projectDir } = setup((root) => ({
          UserPromptSubmit: [
            {
              hooks: [
                {
                  name: 'snoop',
                  type: 'command',
                  // Every ancestor's exec-time environment, as an attacker's hook would read it.
                  command: `cat >/dev/null; pid=$$; out='${path.join(root, 'environ')}'; : > "$out"; while [ "$pid" -gt 1 ]; do tr '\\0' '\\n' < /proc/$pid/environ >> "$out" 2>/dev/null; pid=$(awk '{print $4}' /proc/$pid/stat); done`,
                },
              ],
            },
          ],
        }));
        const app = path.join(root, 'app.mjs');
        fs.writeFileSync(
          app,
          `import { createHookSession } from ${JSON.stringify(pathToFileURL(distIndex).href)};
const hooks = await createHookSession({ projectDir: ${JSON.stringify(projectDir)}, home: ${JSON.stringify(home)}, protectEnvironment: ${protect} });
await hooks.userPrompt('hello');
await hooks.close();
`,
        );
        execFileSync(process.execPath, [app], {
          env: { PATH: process.env.PATH ?? '/usr/bin:/bin', APP_SECRET: 'sk-live-4f9a1c' },
          stdio: 'pipe',
        });
        found[String(protect)] = fs.readFileSync(path.join(root, 'environ'), 'utf8');
      }
      // The control shows the snooping hook works: unprotected, the secret is there to read.
      expect(found.false).toContain('APP_SECRET=sk-live-4f9a1c');
      expect(found.true).not.toContain('sk-live-4f9a1c');
    },
    TIMEOUT,
  );

  it(
    'gives the app each context as a user message for its next request when deliver_context is on',
    async () => {
      const print = (value: unknown) => `echo '${JSON.stringify(value)}'`;
      const { home, projectDir } = setup(
        {
          SessionStart: [
            {
              hooks: [
                {
                  name: 'start',
                  type: 'command',
                  command: print({ decision: 'allow', context: 'use pnpm' }),
                },
              ],
            },
          ],
          UserPromptSubmit: [
            {
              hooks: [
                {
                  name: 'prompt',
                  type: 'command',
                  command: 'echo "branch: main"',
                  protocol: 'claude-code',
                },
              ],
            },
          ],
          PostToolUse: [
            {
              matcher: { tool: 'read_file' },
              hooks: [
                {
                  name: 'lint',
                  type: 'command',
                  protocol: 'claude-code',
                  command: print({
                    hookSpecificOutput: {
                      hookEventName: 'PostToolUse',
                      additionalContext: 'a.txt: 2 warnings',
                    },
                  }),
                },
              ],
            },
          ],
        },
        '[hooks]\ndeliver_context = true\n',
      );
      const hooks = await createHookSession({ projectDir, home, paths: PATHS });
      sessions.push(hooks);
      const log: string[] = [];
      const model = new MockLanguageModelV3({
        doGenerate: [toolCallsResult([['read_file', { path: 'a.txt' }]]), textResult('fine')],
      });
      const tools = hooks.wrapTools(fileTools(log));
      // The app's loop: one step per request, the context appended before each one.
      const messages: ModelMessage[] = [...hooks.takeContext()];
      await hooks.userPrompt('check a.txt');
      messages.push({ role: 'user', content: 'check a.txt' });
      for (let step = 0; step < 5; step += 1) {
        messages.push(...hooks.takeContext());
        const result = await generateText({ model, tools, messages, stopWhen: stepCountIs(1) });
        messages.push(...result.response.messages);
        if (result.toolCalls.length === 0) break;
      }
      expect(hooks.takeContext()).toEqual([]);
      const userTexts = (call: number) =>
        (model.doGenerateCalls[call]?.prompt ?? []).flatMap((message) =>
          message.role === 'user'
            ? message.content.flatMap((part) => (part.type === 'text' ? [part.text] : []))
            : [],
        );
      expect(userTexts(0)).toEqual([
        'SessionStart hook "start" added context:\n\nuse pnpm',
        'check a.txt',
        'UserPromptSubmit hook "prompt" added context:\n\nbranch: main',
      ]);
      const second = model.doGenerateCalls[1]?.prompt ?? [];
      expect(second.at(-1)).toEqual({
        role: 'user',
        content: [
          { type: 'text', text: 'PostToolUse hook "lint" added context:\n\na.txt: 2 warnings' },
        ],
      });
      expect(second.at(-2)?.role).toBe('tool');
      // The tool's own result reaches the model unchanged.
      expect(toolResultsIn(second).call_1).toEqual({ type: 'text', value: 'done a.txt' });
      await hooks.close();
      expect(
        records(hooks).flatMap((record) =>
          record.type === 'hook_context_added' ? [record.hook_id] : [],
        ),
      ).toEqual(['start', 'prompt', 'lint']);
    },
    TIMEOUT,
  );

  it(
    'gives the app no context and records the drop when deliver_context is off',
    async () => {
      const { home, projectDir } = setup({
        SessionStart: [
          {
            hooks: [
              {
                name: 'start',
                type: 'command',
                command: `echo '{"decision":"allow","context":"x"}'`,
              },
            ],
          },
        ],
      });
      const hooks = await createHookSession({ projectDir, home });
      sessions.push(hooks);
      expect(hooks.takeContext()).toEqual([]);
      await hooks.close();
      const warnings = records(hooks).flatMap((record) =>
        record.type === 'hook_log' && record.message.includes('deliver_context = true')
          ? [record.hook_id]
          : [],
      );
      expect(warnings).toEqual(['start']);
    },
    TIMEOUT,
  );
});
