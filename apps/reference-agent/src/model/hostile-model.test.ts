import fs from 'node:fs';
import type { ServerResponse } from 'node:http';
import path from 'node:path';
import { TOO_DEEP_INPUT_TEXT } from '@soong-agent/loop-adapter';
import { describe, expect, it } from 'vitest';
import { anthropicVendor, openaiVendor, type Vendor } from '../test-helpers/model-server.js';
import {
  modelServersClosedAfterEach,
  modelWorkspace,
  runPrompt,
  TEST_KEY,
} from '../test-helpers/model-workspace.js';

// A model server run by an attacker (or a broken one): what it sends must never end the run in a
// crash, hang it or grow memory without bound, and its bytes never carry the key into records.

const TIMEOUT = 120_000;

const serve = modelServersClosedAfterEach();

const vendors: [string, Vendor][] = [
  ['openai', openaiVendor],
  ['anthropic', anthropicVendor],
];

for (const [name, vendor] of vendors) {
  const answer = (
    text: string,
    toolCalls: { id: string; name: string; input?: unknown; arguments?: string }[] = [],
  ) => ({ frames: vendor.frames({ text, toolCalls }) });

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
  });
}
