import fs from 'node:fs';
import type { ServerResponse } from 'node:http';
import path from 'node:path';
import { TOO_DEEP_INPUT_TEXT } from '@soong-agent/loop-adapter';
import { describe, expect, it } from 'vitest';
import { modelVendors } from '../test-helpers/model-server.js';
import {
  allText,
  keyEnvFor,
  modelServersClosedAfterEach,
  modelWorkspace,
  runPrompt,
  TEST_KEY,
} from '../test-helpers/model-workspace.js';

// A model server run by an attacker (or a broken one): what it sends must never end the run in a
// crash, hang it or grow memory without bound, and its bytes never carry the key into records.

const TIMEOUT = 120_000;

const serve = modelServersClosedAfterEach();

for (const vendor of modelVendors) {
  const name = vendor.name;
  const answer = (
    text: string,
    toolCalls: { id: string; name: string; input?: unknown; arguments?: string }[] = [],
  ) => ({ frames: vendor.frames({ text, toolCalls }) });
  const endpoint = vendor.name === 'openai' ? '/v1/chat/completions' : '/v1/messages';

  describe(`${name} provider against a hostile server`, () => {
    it(
      'sends a tool call nested 100,000 deep back as a bounded note with its refusal, and the loop goes on',
      async () => {
        const depth = 100_000;
        const deep = `{"path":"a.txt","content":${'['.repeat(depth)}${']'.repeat(depth)}}`;
        const server = await serve([
          answer('Writing.', [{ id: 'toolu_deep', name: 'write_file', arguments: deep }]),
          answer('Sorry, done.'),
        ]);
        const workspace = modelWorkspace(vendor, server.url);
        const result = await runPrompt(workspace);
        expect(result.stderr).not.toContain('Maximum call stack');
        expect(result.code, result.stderr).toBe(0);
        expect(server.requests).toHaveLength(2);

        const second = server.requests[1]?.body;
        const [call] = vendor.assistantCalls(second);
        expect(call?.id).toBe('toolu_deep');
        expect(JSON.stringify(call?.input)).toContain('nested more than 64 levels deep');
        expect(JSON.stringify(second).length).toBeLessThan(20_000);
        expect(vendor.toolResults(second)).toEqual([
          { id: 'toolu_deep', content: TOO_DEEP_INPUT_TEXT, isError: true },
        ]);
        expect(fs.existsSync(path.join(workspace.project, 'a.txt'))).toBe(false);

        // The event log and the transcript are complete and bounded.
        const types = result.log.map((record) => record.type);
        expect(types).toEqual(
          expect.arrayContaining(['model_turn', 'tool_started', 'tool_finished', 'loop_ended']),
        );
        expect(result.log.at(-1)).toMatchObject({ type: 'loop_ended', reason: 'completed' });
        const [session] = fs.readdirSync(path.join(workspace.home, 'sessions'));
        const transcript = fs.readFileSync(
          path.join(workspace.home, 'sessions', session as string, 'transcript.jsonl'),
          'utf8',
        );
        expect(transcript).toContain('toolu_deep');
        expect(transcript.length).toBeLessThan(20_000);
        expect(result.stdout + result.stderr).not.toContain(TEST_KEY);
      },
      TIMEOUT,
    );

    /** Runs against `respond` with the bounds given; the run must end with one line and exit 1. */
    async function runBounded(respond: (res: ServerResponse) => void, bounds: string[]) {
      const server = await serve([{ respond }]);
      const workspace = modelWorkspace(vendor, server.url, { config: bounds });
      const result = await runPrompt(workspace);
      expect(result.code, result.stderr).toBe(1);
      const lines = result.stderr.trim().split('\n');
      expect(lines.filter((line) => line.startsWith('soong-agent:'))).toHaveLength(1);
      expect(lines.at(-1)).toMatch(/^soong-agent: the \w+ API at http:\/\/127\.0\.0\.1:\d+ /);
      // Nothing lost: the log is whole and ends the loop with its error.
      const types = result.log.map((record) => record.type);
      expect(types.slice(0, 3)).toEqual([
        'session_started',
        'config_loaded',
        'user_prompt_submitted',
      ]);
      expect(result.log.filter((record) => record.type === 'loop_ended')).toEqual([
        expect.objectContaining({ type: 'loop_ended', reason: 'error' }),
      ]);
      expect(result.stdout + result.stderr).not.toContain(TEST_KEY);
      return lines.at(-1) as string;
    }

    /** Writes `frame` every `ms` until the client leaves. */
    const every =
      (ms: number, frame: () => string, start: string[] = []) =>
      (res: ServerResponse) => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        for (const opening of start) res.write(opening);
        const timer = setInterval(() => res.write(frame()), ms);
        res.on('close', () => clearInterval(timer));
      };

    // SSE comments, and Anthropic's `ping` events too.
    const keepAlive = () =>
      `: ping\n\n${vendor.name === 'anthropic' ? 'event: ping\ndata: {"type": "ping"}\n\n' : ''}`;

    it(
      'ends a call whose server sends only keep-alives at stream_idle_timeout',
      async () => {
        const line = await runBounded(every(100, keepAlive), [
          'stream_idle_timeout = 1',
          'request_timeout = 120',
        ]);
        expect(line).toContain('sent no data for 1 s');
        expect(line).toContain('stream_idle_timeout');
      },
      TIMEOUT,
    );

    it(
      'ends a call whose server never answers at stream_idle_timeout',
      async () => {
        const line = await runBounded(() => {}, ['stream_idle_timeout = 1']);
        expect(line).toContain('sent no data for 1 s');
      },
      TIMEOUT,
    );

    it(
      'ends a call whose text keeps coming at request_timeout',
      async () => {
        const line = await runBounded(
          every(100, () => vendor.textDelta('more '), vendor.textStart()),
          ['stream_idle_timeout = 60', 'request_timeout = 2'],
        );
        expect(line).toContain('did not finish its answer within 2 s');
        expect(line).toContain('request_timeout');
      },
      TIMEOUT,
    );

    it(
      'ends a call whose server streams endless large deltas at max_response_bytes',
      async () => {
        let sent = 0;
        const big = 'x'.repeat(256 * 1024);
        const line = await runBounded(
          (res) => {
            res.writeHead(200, { 'content-type': 'text/event-stream' });
            for (const opening of vendor.textStart()) res.write(opening);
            const pump = () => {
              while (!res.destroyed) {
                sent += big.length;
                if (!res.write(vendor.textDelta(big))) {
                  res.once('drain', pump);
                  return;
                }
              }
            };
            pump();
          },
          ['max_response_bytes = 1048576', 'request_timeout = 120'],
        );
        expect(line).toContain('sent more than 1048576 bytes in one answer');
        expect(line).toContain('max_response_bytes');
        // The client stopped reading: the server could not push much past the cap.
        expect(sent).toBeLessThan(64 * 1024 * 1024);
      },
      TIMEOUT,
    );

    it(
      'keeps a key the server echoes out of the event log, the transcript, hook stdin and the output',
      async () => {
        const hook = (name: string) => ({
          hooks: [{ name, type: 'command', command: 'cat >> "$SOONG_AGENT_HOME/hook-stdin.txt"' }],
        });
        const server = await serve([
          answer(`Your key is ${TEST_KEY}, right?`, [
            { id: 'toolu_echo', name: 'bash', input: { command: `echo ${TEST_KEY}` } },
          ]),
          answer(`Done with ${TEST_KEY}.`),
        ]);
        const workspace = modelWorkspace(vendor, server.url, {
          home: {
            'hooks.json': JSON.stringify({
              version: 1,
              hooks: {
                PreToolUse: [hook('pre')],
                PostToolUse: [hook('post')],
                Stop: [hook('stop')],
              },
            }),
          },
        });
        const result = await runPrompt(workspace);
        expect(result.code, result.stderr).toBe(0);
        const stdin = fs.readFileSync(path.join(workspace.home, 'hook-stdin.txt'), 'utf8');
        expect(stdin).toContain('echo [redacted]');
        expect(stdin).toContain('Done with [redacted].');
        expect(allText(workspace.home)).not.toContain(TEST_KEY);
        expect(result.stdout + result.stderr).not.toContain(TEST_KEY);
        // The timeline streams the text as it arrives: redacted there too.
        const timeline = await runPrompt(
          modelWorkspace(vendor, (await serve([answer(`k=${TEST_KEY}`)])).url),
          {
            args: [],
            json: false,
          },
        );
        expect(timeline.code, timeline.stderr).toBe(0);
        expect(timeline.stderr + timeline.stdout).toContain('k=[redacted]');
        expect(timeline.stderr + timeline.stdout).not.toContain(TEST_KEY);
      },
      TIMEOUT,
    );

    it(
      'never follows a redirect to another origin: one line, and the other server sees nothing',
      async () => {
        const elsewhere = await serve([answer('I have your key now.')]);
        for (const status of [302, 307, 308]) {
          const server = await serve([
            {
              status,
              headers: { location: `${elsewhere.url}${endpoint}` },
              body: '',
            },
          ]);
          const result = await runPrompt(modelWorkspace(vendor, server.url));
          expect(result.code, result.stderr).toBe(1);
          const lines = result.stderr.trim().split('\n');
          expect(lines.filter((line) => line.startsWith('soong-agent:'))).toHaveLength(1);
          expect(lines.at(-1)).toContain(
            `redirects (${status}) to another origin, ${elsewhere.url};`,
          );
          expect(lines.at(-1)).toContain('not followed');
          expect(result.log.at(-1)).toMatchObject({ type: 'loop_ended', reason: 'error' });
        }
        expect(elsewhere.requests).toHaveLength(0);
      },
      TIMEOUT,
    );

    it(
      'follows a 307 within the origin with the same body, and refuses a 302 there (it would turn the POST into a GET)',
      async () => {
        const server = await serve([
          { status: 307, headers: { location: `/moved${endpoint}` }, body: '' },
          answer('Moved and answered.'),
          { status: 302, headers: { location: `/moved${endpoint}` }, body: '' },
        ]);
        const workspace = modelWorkspace(vendor, server.url);
        const followed = await runPrompt(workspace, { prompt: 'hello there' });
        expect(followed.code, followed.stderr).toBe(0);
        expect(server.requests.map((request) => [request.method, request.path])).toEqual([
          ['POST', endpoint],
          ['POST', `/moved${endpoint}`],
        ]);
        expect(vendor.lastUserText(server.requests[1]?.body)).toBe('hello there');
        expect(vendor.key(server.requests[1]?.headers ?? {})).toBe(TEST_KEY);

        const refused = await runPrompt(modelWorkspace(vendor, server.url));
        expect(refused.code).toBe(1);
        expect(refused.stderr).toContain('redirects (302) to /moved');
        expect(refused.stderr).toContain('would turn the POST into a GET');
        expect(server.requests).toHaveLength(3);

        const loop = await serve(
          Array.from({ length: 10 }, () => ({
            status: 308,
            headers: { location: endpoint },
            body: '',
          })),
        );
        const looped = await runPrompt(modelWorkspace(vendor, loop.url));
        expect(looped.code).toBe(1);
        expect(looped.stderr).toContain('redirected more than 5 times; not followed further');
        expect(loop.requests).toHaveLength(6);
      },
      TIMEOUT,
    );

    it(
      'names the real cause when the API cannot be reached: a refused connection, a port fetch blocks',
      async () => {
        const server = await serve([]);
        const workspace = modelWorkspace(vendor, server.url);
        await server.close();
        const refused = await runPrompt(workspace);
        expect(refused.code).toBe(1);
        const port = new URL(server.url).port;
        expect(refused.stderr.trim().split('\n').at(-1)).toBe(
          `soong-agent: cannot reach the ${vendor.name} API at ${server.url}: connection refused by 127.0.0.1:${port} (ECONNREFUSED): is the server running?`,
        );
        const blocked = await runPrompt(modelWorkspace(vendor, 'http://127.0.0.1:9'));
        expect(blocked.code).toBe(1);
        expect(blocked.stderr).toContain(
          'port 9 is one fetch refuses to connect to (a blocked port of the Fetch standard)',
        );
      },
      TIMEOUT,
    );

    it(
      'leaves a placeholder key of a local server (none) alone in what the model wrote',
      async () => {
        const server = await serve([
          answer('none of them', [
            { id: 'toolu_w', name: 'write_file', input: { path: 'n.txt', content: 'none' } },
          ]),
          answer('none left'),
        ]);
        const workspace = modelWorkspace(vendor, server.url);
        const result = await runPrompt(workspace, {
          env: { [keyEnvFor(vendor)]: 'none' },
        });
        expect(result.code, result.stderr).toBe(0);
        expect(fs.readFileSync(path.join(workspace.project, 'n.txt'), 'utf8')).toBe('none');
        expect(result.log).toContainEqual(expect.objectContaining({ text: 'none left' }));
      },
      TIMEOUT,
    );
  });
}
