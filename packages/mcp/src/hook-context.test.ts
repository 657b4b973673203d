import { afterEach, describe, expect, it } from 'vitest';
import { cleanUp, connectThroughProxy, sessionRecords, setup } from './test-helpers/proxy-setup.js';

// spec §13.1 behind the proxy: no model to talk to, so the context rides along as extra text items
// (audience: assistant) after the server's own content, which is never changed.
const TIMEOUT = 120_000;
afterEach(cleanUp);

const print = (value: unknown) => `echo '${JSON.stringify(value)}'`;
const HOOKS = {
  SessionStart: [
    {
      hooks: [
        {
          name: 'start',
          type: 'command',
          command: print({ decision: 'allow', context: 'notes are in markdown' }),
        },
      ],
    },
  ],
  PreToolUse: [
    {
      matcher: { tool: 'mcp__test-notes__write_note' },
      hooks: [
        {
          name: 'guard',
          type: 'command',
          command: print({ decision: 'deny', reason: 'read-only', context: 'use echo instead' }),
        },
      ],
    },
  ],
  PostToolUse: [
    {
      matcher: { tool: 'mcp__test-notes__echo' },
      hooks: [
        {
          name: 'lint',
          type: 'command',
          protocol: 'claude-code',
          command: print({
            hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: 'echo is fine' },
          }),
        },
      ],
    },
  ],
};
const item = (text: string) => ({ type: 'text', text, annotations: { audience: ['assistant'] } });

describe('createMcpHookProxy with deliver_context', () => {
  it(
    'appends the pending context to the next CallToolResult after the server content, marked for the assistant',
    async () => {
      const where = setup(HOOKS, '[hooks]\ndeliver_context = true\n');
      const { proxy, client } = await connectThroughProxy(where);
      // SessionStart's context comes with the first answer; PostToolUse runs after an answer is
      // sent, so its context comes with the next one.
      expect(await client.callTool({ name: 'echo', arguments: { text: 'hi' } })).toEqual({
        content: [
          { type: 'text', text: 'echo: hi' },
          item('SessionStart hook "start" added context:\n\nnotes are in markdown'),
        ],
      });
      expect(
        await client.callTool({ name: 'write_note', arguments: { path: 'a.txt', text: 'x' } }),
      ).toEqual({
        content: [
          { type: 'text', text: 'denied by hook guard: read-only' },
          item('PostToolUse hook "lint" added context:\n\necho is fine'),
          item('PreToolUse hook "guard" added context:\n\nuse echo instead'),
        ],
        isError: true,
      });
      expect(await client.callTool({ name: 'echo', arguments: { text: 'again' } })).toEqual({
        content: [{ type: 'text', text: 'echo: again' }],
      });
      await client.close();
      await proxy.closed;
      const added = sessionRecords(where.home).flatMap((record) =>
        record.type === 'hook_context_added' ? [record.hook_id] : [],
      );
      expect(added).toEqual(['start', 'lint', 'guard', 'lint']);
    },
    TIMEOUT,
  );

  it(
    'leaves every CallToolResult as the server sent it when delivery is off',
    async () => {
      const where = setup(HOOKS);
      const { proxy, client } = await connectThroughProxy(where);
      expect(await client.callTool({ name: 'echo', arguments: { text: 'hi' } })).toEqual({
        content: [{ type: 'text', text: 'echo: hi' }],
      });
      expect(
        await client.callTool({ name: 'write_note', arguments: { path: 'a.txt', text: 'x' } }),
      ).toEqual({
        content: [{ type: 'text', text: 'denied by hook guard: read-only' }],
        isError: true,
      });
      await client.close();
      await proxy.closed;
      const records = sessionRecords(where.home);
      expect(records.filter((record) => record.type === 'hook_context_added')).toEqual([]);
      expect(
        records.filter(
          (record) =>
            record.type === 'hook_log' && record.message.includes('deliver_context = true'),
        ),
      ).toHaveLength(3);
    },
    TIMEOUT,
  );
});
