import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { writeHooksJson } from '@soong-agent/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  cleanUp,
  deny,
  guardSaw,
  sessionRecords,
  setup,
  transcriptGuardHook,
} from './test-helpers/proxy-setup.js';

const TIMEOUT = 120_000;
const README = fileURLToPath(new URL('../README.md', import.meta.url));
const FILESYSTEM_SERVER = fileURLToPath(
  new URL('../node_modules/@modelcontextprotocol/server-filesystem/dist/index.js', import.meta.url),
);
// Inside the package, so the examples import `@soong-agent/mcp` (its built dist) and the SDK as a
// user's code would.
const EXAMPLES = fileURLToPath(new URL(`./__fixtures__/.readme-${process.pid}/`, import.meta.url));

/** The README's runnable examples: each ```js block whose first line is `// <file>.mjs …`. */
function readmeExamples(): Map<string, string> {
  const examples = new Map<string, string>();
  const text = fs.readFileSync(README, 'utf8');
  for (const match of text.matchAll(/```js\n(\/\/ ([\w-]+\.mjs)[^\n]*\n[\s\S]*?)```/g)) {
    examples.set(match[2] as string, match[1] as string);
  }
  return examples;
}

beforeAll(() => {
  fs.mkdirSync(EXAMPLES, { recursive: true });
  for (const [file, code] of readmeExamples()) fs.writeFileSync(path.join(EXAMPLES, file), code);
});
afterAll(async () => {
  await cleanUp();
  fs.rmSync(EXAMPLES, { recursive: true, force: true });
});

describe('README', () => {
  it('has the in-process and the stdio example', () => {
    expect([...readmeExamples().keys()]).toEqual(['in-process.mjs', 'stdio-proxy.mjs']);
  });

  it(
    'runs the in-process example: the call passes the hooks and the session is logged',
    async () => {
      const where = setup();
      writeHooksJson(where.home, {
        PreToolUse: [
          {
            matcher: { tool: 'mcp__notes__echo' },
            hooks: [{ type: 'command', command: `cat > '${path.join(where.root, 'seen')}'` }],
          },
        ],
      });
      const run = await promisify(execFile)(
        process.execPath,
        [path.join(EXAMPLES, 'in-process.mjs')],
        {
          cwd: where.projectDir,
          env: { PATH: process.env.PATH, HOME: where.root, SOONG_AGENT_HOME: where.home },
        },
      );
      const [first, second] = run.stdout.trim().split('\n');
      expect(first).toBe('notes {"content":[{"type":"text","text":"echo: hi"}]}');
      expect(second).toMatch(/^session log: .*events\.jsonl$/);
      expect(JSON.parse(fs.readFileSync(path.join(where.root, 'seen'), 'utf8'))).toMatchObject({
        event: 'PreToolUse',
        tool: { name: 'mcp__notes__echo', input: { text: 'hi' } },
      });
      expect(sessionRecords(where.home).map((record) => record.type)).toContain('tool_finished');
    },
    TIMEOUT,
  );

  it(
    'runs the stdio example in front of the filesystem server: a claude-code hook reads its transcript, a write is denied',
    async () => {
      const where = setup();
      const seen = path.join(where.root, 'seen.jsonl');
      writeHooksJson(where.home, {
        PreToolUse: [
          {
            hooks: [transcriptGuardHook(seen)],
          },
          {
            matcher: { tool: 'mcp__secure-filesystem-server__write_file' },
            hooks: [{ name: 'ro', type: 'command', command: deny('read-only') }],
          },
        ],
      });
      fs.writeFileSync(path.join(where.projectDir, 'hello.txt'), 'hello\n');
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: [
          path.join(EXAMPLES, 'stdio-proxy.mjs'),
          where.projectDir,
          '--',
          process.execPath,
          FILESYSTEM_SERVER,
          where.projectDir,
        ],
        env: { PATH: process.env.PATH ?? '', HOME: where.root, SOONG_AGENT_HOME: where.home },
        cwd: where.projectDir,
        stderr: 'pipe',
      });
      const closed = new Promise<void>((resolve) => {
        transport.onclose = resolve;
      });
      const client = new Client({ name: 'readme-test', version: '1.0.0' });
      await client.connect(transport);
      try {
        const read = await client.callTool({
          name: 'read_text_file',
          arguments: { path: 'hello.txt' },
        });
        expect(read.content).toEqual([{ type: 'text', text: 'hello\n' }]);
        const write = await client.callTool({
          name: 'write_file',
          arguments: { path: 'new.txt', content: 'x' },
        });
        expect(write).toEqual({
          content: [{ type: 'text', text: 'denied by hook ro: read-only' }],
          isError: true,
        });
      } finally {
        await transport.close();
      }
      await closed;
      expect(fs.existsSync(path.join(where.projectDir, 'new.txt'))).toBe(false);
      // The guard ran on both calls and found each in the transcript (else it would have blocked
      // the read); the second saw the first call's result there.
      expect(guardSaw(seen)).toEqual([
        { tool: 'mcp__secure-filesystem-server__read_text_file', results: 0 },
        { tool: 'mcp__secure-filesystem-server__write_file', results: 1 },
      ]);
    },
    TIMEOUT,
  );
});
