import fs from 'node:fs';
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
  });
}
