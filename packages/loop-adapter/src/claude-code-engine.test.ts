import fs from 'node:fs';
import path from 'node:path';
import { makeTempDir } from '@soong-agent/test-utils';
import { describe, expect, it } from 'vitest';
import { recordsOf, setup } from './test-helpers/setup.js';
import { executeToolBatch } from './tool-batch.js';
import type { PermissionCallback, ToolDefinition } from './tool-call.js';

const tempDir = () => makeTempDir();
const PROCESS_TIMEOUT = 60_000;

const READ_TOOL: ToolDefinition = {
  name: 'read_file',
  risk: 'readonly',
  paths: (input) => [(input as { path: string }).path],
  execute: async (input) => ({
    content: `read ${(input as { path: string }).path}`,
    isError: false,
  }),
};

describe('createHookEngine with "protocol": "claude-code"', () => {
  it(
    'sends one compact JSON line, sets CLAUDE_PROJECT_DIR and runs in the project dir',
    async () => {
      const root = tempDir();
      const out = path.join(root, 'stdin');
      const { engine, projectDir, home } = setup(root, {
        PreToolUse: [
          {
            hooks: [
              {
                command: `cat > '${out}'; printf '%s\\n%s' "$CLAUDE_PROJECT_DIR" "$PWD" > '${out}.env'`,
                protocol: 'claude-code',
              },
            ],
          },
        ],
      });
      const outcome = await engine.run('PreToolUse', {
        tool: {
          name: 'bash',
          call_id: 'call_3',
          input: { command: 'echo "a\nb"', timeout: 2 },
          risk: 'dangerous',
          tags: [],
          paths: [],
        },
      });
      expect(outcome.decision).toBe('none');
      const stdin = fs.readFileSync(out, 'utf8');
      expect(stdin.endsWith('\n')).toBe(true);
      expect(stdin.trimEnd().includes('\n')).toBe(false);
      expect(JSON.parse(stdin)).toEqual({
        session_id: '20261202T135512Z-3f9a1c',
        transcript_path: path.join(home, 'sessions', '20261202T135512Z-3f9a1c', 'transcript.jsonl'),
        cwd: projectDir,
        hook_event_name: 'PreToolUse',
        permission_mode: 'default',
        tool_name: 'Bash',
        tool_input: { command: 'echo "a\nb"', timeout: 2000 },
        tool_use_id: 'call_3',
      });
      expect(fs.readFileSync(`${out}.env`, 'utf8')).toBe(`${projectDir}\n${projectDir}`);
    },
    PROCESS_TIMEOUT,
  );

  it(
    'asks the permission callback with hookAsk when a hook answers ask, and a later deny still wins',
    async () => {
      const root = tempDir();
      const ask = `cat >/dev/null; echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"secrets nearby"}}'`;
      const denyEnv = `cat | grep -q '"file_path":"[^"]*\\.env"' && { echo 'no .env' >&2; exit 2; }; exit 0`;
      const { engine, sink } = setup(root, {
        PreToolUse: [
          {
            matcher: 'read_file',
            hooks: [
              { command: ask, protocol: 'claude-code', name: 'asker' },
              { command: denyEnv, protocol: 'claude-code', name: 'env-guard' },
            ],
          },
        ],
      });
      const requests: Parameters<PermissionCallback>[0][] = [];
      const results = await executeToolBatch(
        [
          { id: 'c1', name: 'read_file', input: { path: 'README' } },
          { id: 'c2', name: 'read_file', input: { path: '.env' } },
        ],
        {
          tools: new Map([['read_file', READ_TOOL]]),
          engine,
          permission: async (request) => {
            requests.push(request);
            return { allow: true };
          },
        },
      );
      expect(results.map((result) => [result.status, result.content])).toEqual([
        ['ok', 'read README'],
        ['denied', 'denied by hook env-guard: no .env'],
      ]);
      expect(requests.map((request) => [request.call.id, request.hookAsk])).toEqual([
        ['c1', { hookId: 'asker', reason: 'secrets nearby' }],
      ]);
      expect(
        recordsOf(sink.records, 'hook_finished').map((record) => [
          record.hook_id,
          record.decision,
          record.exit_code,
          record.permission_decision,
        ]),
      ).toEqual([
        ['asker', 'none', 0, 'ask'],
        ['env-guard', 'none', 0, undefined],
        ['asker', 'none', 0, 'ask'],
        ['env-guard', 'deny', 2, undefined],
      ]);
    },
    PROCESS_TIMEOUT,
  );

  it(
    "sees a host's tool the way the host declared it: dialectName and dialectInput (an app's bash taking { cmd })",
    async () => {
      const root = tempDir();
      const out = path.join(root, 'stdin');
      const { engine, sink } = setup(root, {
        PreToolUse: [
          {
            hooks: [
              {
                command: `cat >> '${out}'`,
                protocol: 'claude-code',
              },
            ],
          },
        ],
      });
      const appBash: ToolDefinition = {
        name: 'bash',
        risk: 'dangerous',
        dialectInput: (input) => ({ command: (input as { cmd: string }).cmd }),
        execute: async () => ({ content: 'ran', isError: false }),
      };
      const appShell: ToolDefinition = {
        name: 'shell',
        risk: 'dangerous',
        dialectName: { 'claude-code': 'Bash' },
        dialectInput: (input) => ({ command: (input as { cmd: string }).cmd, timeout: 3 }),
        execute: async () => ({ content: 'ran', isError: false }),
      };
      const plain: ToolDefinition = {
        name: 'lookup',
        risk: 'readonly',
        execute: async () => ({ content: 'found', isError: false }),
      };
      await executeToolBatch(
        [
          { id: 'c1', name: 'bash', input: { cmd: 'ls -la' } },
          { id: 'c2', name: 'shell', input: { cmd: 'pwd' } },
          { id: 'c3', name: 'lookup', input: { q: 'x' } },
        ],
        {
          tools: new Map([
            ['bash', appBash],
            ['shell', appShell],
            ['lookup', plain],
          ]),
          engine,
          permission: async () => ({ allow: true }),
        },
      );
      const lines = fs
        .readFileSync(out, 'utf8')
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(lines.map((line) => [line.tool_name, line.tool_input])).toEqual([
        ['Bash', { command: 'ls -la' }],
        ['Bash', { command: 'pwd', timeout: 3000 }],
        ['lookup', { q: 'x' }],
      ]);
      // Our records and our own hooks see the call as the host gave it.
      expect(recordsOf(sink.records, 'tool_started').map((record) => record.input)).toEqual([
        { cmd: 'ls -la' },
        { cmd: 'pwd' },
        { q: 'x' },
      ]);
    },
    PROCESS_TIMEOUT,
  );

  describe('a content scanner sees the whole tool_input', () => {
    const write = (content: string) => ({
      tool: {
        name: 'write_file',
        call_id: 'call_w',
        input: { path: 'notes.txt', content },
        risk: 'write' as const,
        tags: [],
        paths: [],
      },
    });
    // A key in the middle of padded content: a head-and-tail summary would hide it.
    const padded = (bytes: number) => `${'a'.repeat(bytes / 2)}AKIA_SECRET${'b'.repeat(bytes / 2)}`;
    const scanner = (root: string, extra: Record<string, unknown> = {}) =>
      setup(root, {
        PreToolUse: [
          {
            hooks: [
              {
                name: 'scanner',
                command: `touch '${path.join(root, 'ran')}'; if grep -q AKIA_SECRET; then echo 'a key in the content' >&2; exit 2; fi`,
                protocol: 'claude-code',
                ...extra,
              },
            ],
          },
        ],
      });

    it(
      'blocks a key hidden in 20 KB of padding',
      async () => {
        const { engine } = scanner(tempDir());
        const outcome = await engine.run('PreToolUse', write(padded(20_000)));
        expect(outcome).toMatchObject({ decision: 'deny', reason: 'a key in the content' });
      },
      PROCESS_TIMEOUT,
    );

    it(
      'denies an input over 1 MiB without running the hook, unless on_large_input is "summarize"',
      async () => {
        const root = tempDir();
        const { engine, sink } = scanner(root);
        const outcome = await engine.run('PreToolUse', write(padded(2 * 1024 * 1024)));
        expect(outcome).toMatchObject({ decision: 'deny', hookId: 'scanner' });
        expect(outcome.reason).toBe('hook scanner failed: spawn_error');
        expect(fs.existsSync(path.join(root, 'ran'))).toBe(false);
        expect(recordsOf(sink.records, 'hook_failed')[0]?.message).toMatch(
          /larger than the 1048576 bytes a "claude-code" hook gets whole/,
        );

        const other = tempDir();
        const summarizing = scanner(other, { on_large_input: 'summarize' });
        const allowed = await summarizing.engine.run('PreToolUse', write(padded(2 * 1024 * 1024)));
        expect(allowed.decision).toBe('none');
        expect(fs.existsSync(path.join(other, 'ran'))).toBe(true);
      },
      PROCESS_TIMEOUT,
    );
  });
});
