import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CliError } from '../errors.js';
import { parseRecords, runCli } from '../test-helpers/cli.js';
import {
  anthropicVendor,
  openaiVendor,
  type Reply,
  type Vendor,
} from '../test-helpers/model-server.js';
import {
  allText,
  baseUrlFor,
  TEST_KEY as KEY,
  modelServersClosedAfterEach,
  modelWorkspace,
} from '../test-helpers/model-workspace.js';
import { createAnthropicProvider } from './anthropic.js';
import { createOpenAIProvider } from './openai.js';

const TIMEOUT = 120_000;

const serve = modelServersClosedAfterEach();

const STOP_HOOK = `
let raw = '';
for await (const chunk of process.stdin) raw += chunk;
const input = JSON.parse(raw);
if (input.prevented_count === 0) {
  process.stdout.write(JSON.stringify({ decision: 'deny', reason: 'run the tests before finishing' }));
}
`;

const HOOKS = {
  version: 1,
  hooks: {
    PreToolUse: [
      {
        matcher: { tool: 'write_file' },
        hooks: [
          {
            name: 'freeze-writes',
            type: 'command',
            command: `cat >/dev/null; echo '{"decision":"deny","reason":"writes are frozen today"}'`,
          },
        ],
      },
    ],
    Stop: [
      {
        hooks: [
          {
            name: 'require-tests',
            type: 'command',
            command: 'node "$SOONG_AGENT_HOME/hooks/stop.mjs"',
          },
        ],
      },
    ],
  },
};

/** A workspace whose [model] points at `url`, with a PreToolUse deny on write_file and a Stop hook. */
function workspaceFor(vendor: Vendor, url: string) {
  return modelWorkspace(vendor, url, {
    config: ['[hooks]', 'inline_result_bytes = 4096'],
    home: { 'hooks.json': JSON.stringify(HOOKS), 'hooks/stop.mjs': STOP_HOOK },
    project: { 'a.txt': `hello from a.txt\n${`${'filler '.repeat(20)}\n`.repeat(300)}the end\n` },
  });
}

async function run(workspace: ReturnType<typeof workspaceFor>, extra: string[] = []) {
  const result = await runCli(
    ['run', 'fix it', '--json', '--home', workspace.home, '--project', workspace.project, ...extra],
    { env: workspace.env },
  );
  return { ...result, records: result.code === 0 ? parseRecords(result.stdout) : [] };
}

const vendors: [string, Vendor][] = [
  ['createOpenAIProvider', openaiVendor],
  ['createAnthropicProvider', anthropicVendor],
];

for (const [name, vendor] of vendors) {
  const answer = (
    text: string,
    toolCalls: { id: string; name: string; input: unknown }[] = [],
  ) => ({
    frames: vendor.frames({ text, toolCalls }),
  });
  const error = (status: number, message: string, headers: Record<string, string> = {}): Reply => ({
    status,
    headers,
    body: vendor.errorBody(status, message),
  });
  const endpoint = vendor.name === 'openai' ? '/v1/chat/completions' : '/v1/messages';

  describe(name, () => {
    it(
      'sends every tool result back with its call id when a batch has an ok, a hook-denied and a skipped call, and the Stop reason as a user message',
      async () => {
        const server = await serve([
          answer('Let me look.', [
            { id: 'toolu_1', name: 'read_file', input: { path: 'a.txt' } },
            { id: 'toolu_2', name: 'write_file', input: { path: 'b.txt', content: 'x' } },
            { id: 'toolu_3', name: 'bash', input: { command: 'echo hi' } },
          ]),
          answer('Done.'),
          answer('Tests pass now.'),
        ]);
        const workspace = workspaceFor(vendor, server.url);
        const result = await run(workspace);
        expect(result.code, result.stderr).toBe(0);
        expect(result.records.at(-1)).toMatchObject({ type: 'loop_ended', reason: 'completed' });

        const { requests } = server;
        expect(requests).toHaveLength(3);
        for (const request of requests) {
          expect(request.path).toBe(endpoint);
          expect(vendor.key(request.headers)).toBe(KEY);
          expect(request.body.model).toBe('test-model');
          expect(request.body.stream).toBe(true);
        }
        expect(vendor.toolNames(requests[0]?.body)).toEqual(
          expect.arrayContaining(['read_file', 'write_file', 'bash', 'grep', 'list_dir']),
        );
        expect(vendor.lastUserText(requests[0]?.body)).toBe('fix it');
        // A short system message: where the agent works and with which tools.
        for (const request of requests) {
          const system = vendor.system(request.body) ?? '';
          expect(system).toContain(`project directory ${workspace.project}`);
          expect(system).toMatch(/Tools: read_file, .*bash/);
          expect(system.length).toBeLessThan(1000);
        }
        expect(vendor.toolResults(requests[0]?.body)).toEqual([]);

        // The second request carries the calls and one result per call, in order, with its id.
        expect(vendor.assistantCalls(requests[1]?.body)).toEqual([
          { id: 'toolu_1', name: 'read_file', input: { path: 'a.txt' } },
          { id: 'toolu_2', name: 'write_file', input: { path: 'b.txt', content: 'x' } },
          { id: 'toolu_3', name: 'bash', input: { command: 'echo hi' } },
        ]);
        const results = vendor.toolResults(requests[1]?.body);
        expect(results.map((item) => [item.id, item.isError])).toEqual([
          ['toolu_1', false],
          ['toolu_2', true],
          ['toolu_3', true],
        ]);
        // A large result reaches the model bounded: head, tail, byte count, artifact path.
        expect(results[0]?.content).toContain('hello from a.txt');
        expect(results[0]?.content).toContain('the end');
        expect(results[0]?.content).toMatch(/\[tool result: \d+ bytes; full result stored at \//);
        expect(results[0]?.content.length).toBeLessThan(12_000);
        expect(results[1]?.content).toContain('writes are frozen today');
        expect(fs.existsSync(path.join(workspace.project, 'b.txt'))).toBe(false);

        // The Stop hook's reason reaches the model as the last user message.
        expect(vendor.lastUserText(requests[2]?.body)).toContain('run the tests before finishing');
        expect(result.records.map((record) => record.type)).toEqual(
          expect.arrayContaining(['tool_denied', 'tool_skipped', 'stop_hook_prevented']),
        );
        expect(result.stdout + result.stderr).not.toContain(KEY);
        expect(allText(workspace.home)).not.toContain(KEY);
      },
      TIMEOUT,
    );

    it(
      'retries a 429 after the retry-after delay and never lets the key reach a tool when it succeeds',
      async () => {
        const server = await serve([
          error(429, 'Rate limit reached', { 'retry-after': '1' }),
          answer('', [
            {
              id: 'call_env',
              name: 'bash',
              input: { command: "env; tr '\\0' '\\n' < /proc/$PPID/environ; echo end-of-env" },
            },
          ]),
          answer('ok'),
          answer('ok, and the tests pass'),
        ]);
        const workspace = workspaceFor(vendor, server.url);
        const result = await run(workspace);
        expect(result.code, result.stderr).toBe(0);
        expect(server.requests).toHaveLength(4);
        const [first, second] = server.requests;
        expect((second?.at ?? 0) - (first?.at ?? 0)).toBeGreaterThanOrEqual(950);
        const [envResult] = vendor.toolResults(server.requests[2]?.body);
        expect(envResult?.isError).toBe(false);
        expect(envResult?.content).toContain('PATH=');
        expect(envResult?.content).toContain('end-of-env');
        expect(envResult?.content).not.toContain(KEY);
        expect(envResult?.content).not.toContain('_API_KEY');
      },
      TIMEOUT,
    );

    it(
      'exits 1 with one line naming the status and without the key when the API answers 401',
      async () => {
        const server = await serve([error(401, `Incorrect API key provided: ${KEY}`)]);
        const workspace = workspaceFor(vendor, server.url);
        const result = await run(workspace);
        expect(result.code).toBe(1);
        expect(server.requests).toHaveLength(1);
        const lines = result.stderr.trim().split('\n');
        expect(lines).toHaveLength(1);
        expect(lines[0]).toContain('401');
        expect(result.stderr).toContain('[redacted]');
        expect(result.stderr + result.stdout).not.toContain(KEY);
        expect(allText(workspace.home)).not.toContain(KEY);
      },
      TIMEOUT,
    );

    it(
      'exits 1 with one line when the model is unknown (404), the stream is malformed, ends early or breaks, or the server is unreachable',
      async () => {
        const valid = vendor.frames({ text: 'partial answer' });
        const server = await serve([
          error(404, 'The model `test-model` does not exist'),
          { frames: [...valid.slice(0, 2), 'data: {"not json\n\n'] },
          { frames: valid.slice(0, 3) },
          { frames: valid.slice(0, 3), destroy: true },
        ]);
        const workspace = workspaceFor(vendor, server.url);
        for (const expected of ['404', 'malformed stream', 'malformed stream', 'mid-answer']) {
          const result = await run(workspace);
          expect(result.code, result.stderr).toBe(1);
          const lines = result.stderr.trim().split('\n');
          expect(lines.at(-1)).toContain(expected);
          expect(lines.filter((line) => line.startsWith('soong-agent:'))).toHaveLength(1);
        }
        expect(server.requests).toHaveLength(4);
        await server.close();
        const unreachable = await run(workspace);
        expect(unreachable.code).toBe(1);
        expect(unreachable.stderr).toContain('cannot reach');
        expect(unreachable.stderr.trim().split('\n')).toHaveLength(1);
      },
      TIMEOUT,
    );

    it('streams the text to onText piece by piece as it arrives', async () => {
      const server = await serve([answer('The quick brown fox jumps over the lazy dog.')]);
      const create = vendor.name === 'openai' ? createOpenAIProvider : createAnthropicProvider;
      const provider = create({
        model: 'test-model',
        apiKey: KEY,
        keyEnv: 'KEY_ENV',
        baseUrl: baseUrlFor(vendor, server.url),
        maxTokens: 10,
      });
      const seen: string[] = [];
      const response = await provider.complete({
        messages: [{ role: 'user', content: 'hi' }],
        tools: [],
        onText: (text) => seen.push(text),
      });
      expect(response).toEqual({
        text: 'The quick brown fox jumps over the lazy dog.',
        toolCalls: [],
      });
      expect(seen.length).toBeGreaterThan(1);
      expect(seen.join('')).toBe(response.text);
      expect(server.requests[0]?.body.tools).toBeUndefined();
    });

    it('rejects with CliError RUNTIME after the retries when the API keeps failing with 503', async () => {
      const server = await serve([
        error(503, 'overloaded', { 'retry-after-ms': '0' }),
        error(503, 'overloaded', { 'retry-after-ms': '0' }),
        error(503, 'overloaded', { 'retry-after-ms': '0' }),
      ]);
      const create = vendor.name === 'openai' ? createOpenAIProvider : createAnthropicProvider;
      const provider = create({
        model: 'test-model',
        apiKey: KEY,
        keyEnv: 'KEY_ENV',
        baseUrl: baseUrlFor(vendor, server.url),
        maxTokens: 10,
        maxRetries: 2,
      });
      const failure = await provider
        .complete({ messages: [{ role: 'user', content: 'hi' }], tools: [] })
        .catch((caught: unknown) => caught);
      expect(CliError.isInstance(failure) && failure.code).toBe('RUNTIME');
      expect((failure as Error).message).toContain('503');
      expect(server.requests).toHaveLength(3);
    });
  });
}
